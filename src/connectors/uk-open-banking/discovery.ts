/**
 * The bank's OpenID Provider metadata and public keys, fetched through the connector's own HTTP client (so the
 * mutual TLS dispatcher, time limits and logging apply) and cached per issuer for a few minutes: every call needs
 * the token endpoint, and verifying signatures needs the keys, but neither changes often.
 */
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { BankProtocolError } from '../errors.js';
import { bankLinkProblem } from '../transport.js';
import { parseJsonBody, type HttpCore } from '../http/core.js';
import type { BankKeys } from './jose.js';
import { isObject } from './mapping.js';

export interface BankMetadata {
  readonly issuer: string;
  readonly authorizationEndpoint: string | undefined;
  readonly tokenEndpoint: string;
  readonly backchannelEndpoint: string | undefined;
  /** The sandbox bank's own discovery extension (absent at real banks). */
  readonly sandboxResourceBase: string | undefined;
  readonly keys: BankKeys;
}

/** Short enough that a key rotation at the bank is picked up quickly, long enough to spare a fetch per call. */
const METADATA_TTL_MS = 5 * 60_000;
const cache = new Map<string, { readonly expiresAt: number; readonly metadata: Promise<BankMetadata> }>();

/** The bank's metadata, from the cache or fetched (a failed fetch is not cached). */
export function bankMetadata(http: HttpCore, issuer: string): Promise<BankMetadata> {
  const cached = cache.get(issuer);
  if (cached !== undefined && cached.expiresAt > Date.now()) return cached.metadata;
  const metadata = fetchMetadata(http, issuer);
  cache.set(issuer, { expiresAt: Date.now() + METADATA_TTL_MS, metadata });
  metadata.catch(() => cache.delete(issuer));
  return metadata;
}

/** Forgets the cached metadata (tests, and after a signature check failed with possibly rotated keys). */
export function forgetBankMetadata(issuer?: string): void {
  if (issuer === undefined) cache.clear();
  else cache.delete(issuer);
}

const OPERATION = 'discovery';

async function fetchMetadata(http: HttpCore, issuer: string): Promise<BankMetadata> {
  const document = await getJson(http, new URL(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`));
  // OpenID Connect Discovery 4.3: the issuer in the document must be exactly the one we asked.
  if (document['issuer'] !== issuer) throw new BankProtocolError(OPERATION, 'the discovery document names another issuer');
  const bank = new URL(issuer);
  const endpoint = (name: string): string | undefined => endpointUrl(document[name], name, bank);
  const tokenEndpoint = endpoint('token_endpoint');
  const jwksUri = endpoint('jwks_uri');
  if (tokenEndpoint === undefined || jwksUri === undefined)
    throw new BankProtocolError(OPERATION, 'the discovery document lacks token_endpoint or jwks_uri');
  const jwks = await getJson(http, new URL(jwksUri));
  let keys: BankKeys;
  try {
    keys = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
  } catch {
    throw new BankProtocolError(OPERATION, 'the bank JWKS is not a JSON Web Key Set');
  }
  return {
    issuer,
    // The payer's browser is sent here with the request object: https like every other endpoint.
    authorizationEndpoint: endpoint('authorization_endpoint'),
    tokenEndpoint,
    backchannelEndpoint: endpoint('backchannel_authentication_endpoint'),
    sandboxResourceBase: endpoint('openpis:resource_base'),
    keys,
  };
}

async function getJson(http: HttpCore, url: URL): Promise<Record<string, unknown>> {
  const response = await http.send({ operation: OPERATION, method: 'GET', url, headers: { Accept: 'application/json' } });
  if (response.status !== 200) throw new BankProtocolError(OPERATION, 'the bank metadata is not available', response.status);
  const json = parseJsonBody(OPERATION, response);
  if (!isObject(json)) throw new BankProtocolError(OPERATION, 'the bank metadata is not a JSON object', response.status);
  return json;
}

/**
 * An endpoint of the discovery document: absent (or not a URL) is undefined; a URL that is not https (plain http only
 * from a bank itself on plain http, see {@link bankLinkProblem}) makes the whole document unusable, since we would
 * send assertions, codes and tokens, or the payer, there.
 */
function endpointUrl(value: unknown, name: string, bank: URL): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const problem = bankLinkProblem(url, bank);
  if (problem !== undefined) throw new BankProtocolError(OPERATION, `the discovery document's ${name} is ${problem}`);
  return url.href;
}
