/**
 * Keeps webhook deliveries away from our own network (decisions §4). A client chooses the webhook URL, so without this
 * guard it could make the service POST to its loopback admin ports, the cloud metadata endpoint or the private network.
 *
 * The check sits in the undici connector, not before the request: the connector resolves the host name itself, checks
 * every address, and opens the socket to exactly the address it checked. A check done earlier (at payment creation, or
 * before calling `request`) is only advisory — DNS can answer differently a second later (DNS rebinding).
 *
 * Scheme rule (our choice): deliveries go to `https:` only. Plain `http:` is accepted only when `allowPrivateTargets`
 * is on *and* every address of the target is loopback — a receiver on the developer's own machine. Nothing else ever
 * gets a signed payment notification in clear text.
 *
 * `allowPrivateTargets` (local development only) lifts the address-range check, but not the cloud metadata endpoints:
 * no development set-up needs to receive webhooks there, and they hand out credentials.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { Agent, buildConnector } from 'undici';

/** One resolved address of a host name, as `dns.lookup(…, { all: true })` returns it. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to all of its addresses; injectable so tests can simulate any DNS answer. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface WebhookTargetPolicy {
  /** Local development only: allow loopback, private, link-local … targets, and `http:` to loopback. */
  readonly allowPrivateTargets?: boolean;
  /** Default: `dns.lookup(hostname, { all: true, verbatim: true })`. */
  readonly lookup?: HostLookup;
}

export interface WebhookDispatcherOptions extends WebhookTargetPolicy {
  /**
   * Extra trusted CA certificates (PEM), added to Node's built-in roots — e.g. from a CA bundle setting, or a test's
   * throw-away CA. One string may hold several certificates.
   */
  readonly caCertificates?: string | readonly string[];
  /** Time allowed for one TCP + TLS connection attempt (default 10 s); the whole delivery has its own timeout. */
  readonly connectTimeoutMs?: number;
  /**
   * The connector that really opens sockets (default: undici's own). Tests replace it to prove that refused targets
   * never reach it.
   */
  readonly connector?: buildConnector.connector;
}

/** A delivery target the policy refuses; `deliverWebhook` turns it into the `refused` outcome. */
export class WebhookTargetRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetRefusedError';
  }
}

/** Whether `error`, or an error it wraps, is a refusal by this guard. */
export function isTargetRefusal(error: unknown): error is WebhookTargetRefusedError {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof WebhookTargetRefusedError) return true;
    if ((current as { code?: unknown }).code === 'ERR_WEBHOOK_TARGET_REFUSED') return true;
    current = current.cause;
  }
  return false;
}

/** Host names of cloud metadata services; refused whatever they resolve to (they may resolve through /etc/hosts). */
export const METADATA_HOSTNAMES: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'metadata.platformequinix.com',
]);

/** Metadata addresses, refused even with `allowPrivateTargets`. */
const METADATA_ADDRESSES = blockList([
  ['169.254.169.254', 32], // AWS, GCP, Azure, OCI, DigitalOcean …
  ['169.254.170.2', 32], // AWS ECS task metadata
  ['100.100.100.200', 32], // Alibaba Cloud
  ['fd00:ec2::254', 128], // AWS over IPv6
]);

/** IPv4 ranges that are not globally reachable unicast (IANA special-purpose registry), by the name we report. */
const IPV4_RANGES: readonly (readonly [string, BlockList])[] = [
  ['unspecified', blockList([['0.0.0.0', 8]])],
  ['loopback', blockList([['127.0.0.0', 8]])],
  [
    'private',
    blockList([
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ]),
  ],
  ['shared address space', blockList([['100.64.0.0', 10]])],
  ['link-local', blockList([['169.254.0.0', 16]])],
  ['multicast', blockList([['224.0.0.0', 4]])],
  ['broadcast', blockList([['255.255.255.255', 32]])],
  [
    'reserved',
    blockList([
      ['192.0.0.0', 24], // IETF protocol assignments
      ['192.0.2.0', 24], // documentation
      ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
      ['198.18.0.0', 15], // benchmarking
      ['198.51.100.0', 24], // documentation
      ['203.0.113.0', 24], // documentation
      ['240.0.0.0', 4], // reserved for future use
    ]),
  ],
];

const IPV6_RANGES: readonly (readonly [string, BlockList])[] = [
  ['unspecified', blockList([['::', 128]])],
  ['loopback', blockList([['::1', 128]])],
  ['link-local', blockList([['fe80::', 10]])],
  ['unique-local', blockList([['fc00::', 7]])],
  ['multicast', blockList([['ff00::', 8]])],
  [
    'reserved',
    blockList([
      ['::', 96], // IPv4-compatible (deprecated)
      ['64:ff9b:1::', 48], // local-use NAT64
      ['100::', 64], // discard-only
      ['2001::', 23], // IETF protocol assignments, Teredo
      ['2001:db8::', 32], // documentation
      ['2002::', 16], // 6to4 (deprecated; would tunnel to any IPv4 address)
      ['3fff::', 20], // documentation
      ['fec0::', 10], // site-local (deprecated)
    ]),
  ],
];

/** Addresses that carry an IPv4 address in their last 32 bits; that address is what gets reached. */
const IPV4_MAPPED = blockList([['::ffff:0:0', 96]]);
const NAT64_WELL_KNOWN = blockList([['64:ff9b::', 96]]);
const GLOBAL_UNICAST_V6 = blockList([['2000::', 3]]);

function blockList(subnets: readonly (readonly [string, number])[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  return list;
}

/**
 * Why an address is not a public unicast address (`loopback`, `private`, …), or `undefined` when it is one.
 * IPv4-mapped and NAT64 IPv6 addresses are judged by the IPv4 address they embed; anything unparsable is `invalid`.
 */
export function nonPublicAddressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return IPV4_RANGES.find(([, list]) => list.check(address, 'ipv4'))?.[0];
  if (family !== 6) return 'invalid';
  if (IPV4_MAPPED.check(address, 'ipv6') || NAT64_WELL_KNOWN.check(address, 'ipv6')) {
    const embedded = embeddedIpv4(address);
    return embedded === undefined ? 'invalid' : nonPublicAddressKind(embedded);
  }
  const kind = IPV6_RANGES.find(([, list]) => list.check(address, 'ipv6'))?.[0];
  if (kind !== undefined) return kind;
  return GLOBAL_UNICAST_V6.check(address, 'ipv6') ? undefined : 'reserved';
}

/** Whether `address` is a cloud metadata endpoint (directly or IPv4-mapped). */
export function isMetadataAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return METADATA_ADDRESSES.check(address, 'ipv4');
  if (family !== 6) return false;
  if (METADATA_ADDRESSES.check(address, 'ipv6')) return true;
  const embedded = IPV4_MAPPED.check(address, 'ipv6') || NAT64_WELL_KNOWN.check(address, 'ipv6') ? embeddedIpv4(address) : undefined;
  return embedded !== undefined && METADATA_ADDRESSES.check(embedded, 'ipv4');
}

function embeddedIpv4(ipv6: string): string | undefined {
  // The WHATWG URL serialiser writes IPv6 in canonical compressed hex, so the last two groups are the low 32 bits
  // (an empty group stands for zeros compressed by "::").
  let canonical: string;
  try {
    canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const groups = canonical.split(':');
  const high = parseInt(groups.at(-2) || '0', 16);
  const low = parseInt(groups.at(-1) || '0', 16);
  if (Number.isNaN(high) || Number.isNaN(low)) return undefined;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function normaliseHostname(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.+$/, '');
}

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Resolves a target and applies the policy: returns the addresses that may be connected to, in resolver order, or
 * throws {@link WebhookTargetRefusedError}. If *any* address is refused the whole target is — otherwise a host
 * answering with one public and one private address could steer the fallback to the private one. DNS failures are
 * rethrown as they are (a delivery failure worth retrying, not a refusal).
 */
export async function resolveAllowedAddresses(protocol: string, hostname: string, policy: WebhookTargetPolicy = {}): Promise<string[]> {
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new WebhookTargetRefusedError(`scheme ${protocol} is not allowed; use https`);
  }
  const host = normaliseHostname(hostname);
  if (METADATA_HOSTNAMES.has(host)) throw new WebhookTargetRefusedError(`target host ${host} is not allowed`);
  const addresses = isIP(host) !== 0 ? [host] : (await (policy.lookup ?? defaultLookup)(host)).map((entry) => entry.address);
  if (addresses.length === 0) throw new Error(`no address found for ${host}`);
  for (const address of addresses) {
    const problem = addressProblem(address, policy);
    if (problem !== undefined) throw new WebhookTargetRefusedError(problem);
  }
  if (protocol === 'http:') {
    const everyLoopback = addresses.every((address) => nonPublicAddressKind(address) === 'loopback');
    if (!(policy.allowPrivateTargets === true && everyLoopback)) {
      throw new WebhookTargetRefusedError('plain http is not allowed; use https (http only to loopback in development)');
    }
  }
  return addresses;
}

/**
 * Why the policy refuses an address (`cloud metadata`, `loopback`, `private`, …), or `undefined` when it may be
 * connected to. Metadata endpoints are refused even with `allowPrivateTargets`.
 */
export function refusedAddressKind(address: string, policy: Pick<WebhookTargetPolicy, 'allowPrivateTargets'> = {}): string | undefined {
  if (isMetadataAddress(address)) return 'cloud metadata';
  const kind = nonPublicAddressKind(address);
  if (kind === undefined || (policy.allowPrivateTargets === true && kind !== 'invalid')) return undefined;
  return kind;
}

function addressProblem(address: string, policy: WebhookTargetPolicy): string | undefined {
  const kind = refusedAddressKind(address, policy);
  return kind === undefined ? undefined : `target address ${address} is not allowed (${kind})`;
}

/**
 * What the policy says about a URL's host without asking DNS, for checks at payment creation (a synchronous
 * request validation): the kind of a refused IP literal or metadata host name, and `loopback` for `localhost`
 * names (RFC 6761: they always resolve to loopback). Any other name is `undefined` here; it is judged at connect
 * time, where its addresses are resolved.
 */
export function refusedHostKind(hostname: string, policy: Pick<WebhookTargetPolicy, 'allowPrivateTargets'> = {}): string | undefined {
  const host = normaliseHostname(hostname);
  if (METADATA_HOSTNAMES.has(host)) return 'cloud metadata';
  if (isIP(host) !== 0) return refusedAddressKind(host, policy);
  if (host === 'localhost' || host.endsWith('.localhost')) return policy.allowPrivateTargets === true ? undefined : 'loopback';
  return undefined;
}

/**
 * Advisory check of a webhook URL, e.g. when a payment is created, so an obviously bad URL is rejected up front.
 * Resolves to a reason when the URL is refused, `undefined` when it is acceptable now. The delivery re-checks at
 * connect time regardless. DNS errors reject the promise; whether an unresolvable host is acceptable is the caller's call.
 */
export async function checkWebhookUrl(url: string, policy: WebhookTargetPolicy = {}): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'webhook URL is not a valid absolute URL';
  }
  if (parsed.username !== '' || parsed.password !== '') return 'webhook URL must not carry credentials';
  try {
    await resolveAllowedAddresses(parsed.protocol, parsed.hostname, policy);
    return undefined;
  } catch (error) {
    if (error instanceof WebhookTargetRefusedError) return error.message;
    throw error;
  }
}

/**
 * An undici connector that resolves the host, applies the policy and connects to the checked address only (falling
 * back to the next allowed address when one does not answer). TLS still verifies the certificate against the host
 * name, which is passed as the server name.
 */
export function createGuardedConnector(options: WebhookDispatcherOptions = {}): buildConnector.connector {
  const base =
    options.connector ??
    buildConnector({
      ...caOption(options.caCertificates),
      timeout: options.connectTimeoutMs ?? 10_000,
    });
  return (connectOptions, callback) => {
    const hostname = normaliseHostname(connectOptions.hostname);
    const servername = connectOptions.servername ?? (connectOptions.protocol === 'https:' && isIP(hostname) === 0 ? hostname : undefined);

    const attempt = (addresses: readonly string[], index: number): void => {
      const address = addresses[index];
      if (address === undefined) return;
      const next = (error: Error): void => {
        if (index + 1 < addresses.length) attempt(addresses, index + 1);
        else callback(error, null);
      };
      try {
        base({ ...connectOptions, hostname: address, ...(servername === undefined ? {} : { servername }) }, (error, socket) => {
          if (error !== null) return next(error);
          // Belt and braces: judge the peer the socket really reached, not only the address we asked for.
          const peer = socket.remoteAddress;
          const problem = peer === undefined ? undefined : addressProblem(peer, options);
          if (problem !== undefined) {
            socket.destroy();
            return callback(new WebhookTargetRefusedError(problem), null);
          }
          callback(null, socket);
        });
      } catch (error) {
        next(error instanceof Error ? error : new Error(String(error)));
      }
    };

    resolveAllowedAddresses(connectOptions.protocol, hostname, options).then(
      (addresses) => attempt(addresses, 0),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
}

/**
 * The dispatcher for webhook deliveries: an undici `Agent` whose every connection goes through
 * {@link createGuardedConnector}. Share one per process; pooled connections were checked when they were opened.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions = {}): Agent {
  return new Agent({ connect: createGuardedConnector(options) });
}

function caOption(caCertificates: string | readonly string[] | undefined): { secureContext?: SecureContext } {
  if (caCertificates === undefined) return {};
  const extra = typeof caCertificates === 'string' ? [caCertificates] : [...caCertificates];
  // Node's `ca` replaces the built-in roots; a CA bundle setting is meant to add to them. The context is built
  // once here: given as `ca`, it would be built again for every new connection, from ~140 root certificates,
  // milliseconds of the event loop each time.
  return { secureContext: createSecureContext({ ca: [...rootCertificates, ...extra] }) };
}
