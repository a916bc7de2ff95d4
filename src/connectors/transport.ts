/**
 * The transport under the HTTP core (./http/core.ts): the mutual TLS connection pool, reading an answer within a
 * size limit, headers as plain strings, `Retry-After` in seconds, telling a timeout from another network error,
 * network errors reduced to what may be logged, and which bank addresses may be used at all.
 */
import { Agent, type Dispatcher } from 'undici';

/** The most a bank's answer may weigh; a larger one is a protocol error, never read whole into memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Mutual TLS towards the banks (PEM strings): our client certificate (a QWAC in production) and trusted CAs. */
export interface TlsOptions {
  readonly cert?: string;
  readonly key?: string;
  /** CAs to trust instead of Node's defaults (a sandbox bank's self-signed CA, for example). */
  readonly ca?: string | readonly string[];
}

/** The connection pool presenting our client certificate to every bank (closed by its owner). */
export function mutualTlsAgent(tls: TlsOptions): Agent {
  return new Agent({
    connect: {
      ...(tls.cert === undefined ? {} : { cert: tls.cert }),
      ...(tls.key === undefined ? {} : { key: tls.key }),
      ...(tls.ca === undefined ? {} : { ca: typeof tls.ca === 'string' ? tls.ca : [...tls.ca] }),
    },
    maxResponseSize: MAX_RESPONSE_BYTES,
  });
}

/** Thrown by {@link readBounded} when the answer exceeds the limit. */
export class ResponseTooLargeError extends Error {}

export async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > limit) {
      body.destroy();
      throw new ResponseTooLargeError();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Header names in lower case, repeated headers joined. */
export function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** `Retry-After` as whole seconds (the date form is not used by banks we know); anything else: undefined. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number.parseInt(value.trim(), 10);
}

export function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.name === 'TimeoutError' ||
    error.name.includes('Timeout') ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ETIMEDOUT'
  );
}

export function errorName(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} ${code}` : error.name;
}

/**
 * The network error as a cause, reduced to name/code/message: undici's errors can reference the request (and so
 * headers such as PSU-ID or a bearer token), which must not travel into logs through `error.cause`.
 */
export function sanitisedCause(error: unknown): Error {
  const cause = new Error(error instanceof Error ? error.message : String(error));
  cause.name = error instanceof Error ? error.name : 'Error';
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string') Object.assign(cause, { code });
  return cause;
}

/** Loopback names and addresses: what only this machine can reach (a sandbox bank or a test stand-in). */
export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Why a configured bank address (a catalogue's `baseUrl`, `issuer`, `resourceBaseUrl`) may not be used, or undefined
 * when it may: https, or plain http to this machine only (a sandbox bank or a stand-in). Everything we send a bank —
 * the payer's identity and password, our signatures, tokens — would otherwise cross the network readable and
 * changeable by anyone on the way.
 */
export function bankAddressProblem(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `${address} is not an absolute URL`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `${url.origin} is not https (plain http only to a sandbox bank on this machine)`;
}

/**
 * Why a URL the bank gave us (a `_links` href, a discovery endpoint, a redirect for the payer) may not be used, or
 * undefined: https always; plain http only while the bank itself is configured on plain http — which the catalogue
 * allows only for our own sandbox bank or one on this machine — and then only to that bank's origin or to this
 * machine. So a bank on https can never send the payer or us to a plain-http address, whatever its answer says.
 */
export function bankLinkProblem(link: URL, bank: URL): string | undefined {
  if (link.protocol === 'https:') return undefined;
  if (link.protocol === 'http:' && bank.protocol === 'http:' && (link.origin === bank.origin || isLoopbackHost(link.hostname)))
    return undefined;
  return `${link.protocol === 'http:' ? 'a plain-http' : `a ${link.protocol.replace(/:$/, '')}`} address (${link.origin}) where https is required`;
}
