/**
 * Standard Webhooks v1 signing (https://www.standardwebhooks.com/): any receiver verifies our webhooks with an
 * off-the-shelf library. We sign with `node:crypto` rather than the `standardwebhooks` package so the sending side has
 * no dependency on the library the tests use to check it.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Prefix of every webhook secret, as in the Standard Webhooks reference libraries. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Key sizes the spec allows (24–64 bytes); we generate 32. */
export const WEBHOOK_SECRET_MIN_BYTES = 24;
export const WEBHOOK_SECRET_MAX_BYTES = 64;
const DEFAULT_SECRET_BYTES = 32;

/** The three headers every delivery carries. */
export interface StandardWebhookHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

export class InvalidWebhookSecretError extends Error {
  constructor(reason: string) {
    // Never echo the secret: it ends up in logs.
    super(`invalid webhook secret: ${reason}`);
    this.name = 'InvalidWebhookSecretError';
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Returns the HMAC key of a `whsec_<base64>` secret. Throws {@link InvalidWebhookSecretError} unless the part after
 * the prefix is canonical, padded base64 of 24–64 bytes — the form the reference verifiers decode without surprises.
 */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new InvalidWebhookSecretError(`must start with ${WEBHOOK_SECRET_PREFIX}`);
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) throw new InvalidWebhookSecretError('the part after the prefix must be base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < WEBHOOK_SECRET_MIN_BYTES || key.length > WEBHOOK_SECRET_MAX_BYTES) {
    throw new InvalidWebhookSecretError(`key must be ${WEBHOOK_SECRET_MIN_BYTES}–${WEBHOOK_SECRET_MAX_BYTES} bytes`);
  }
  return key;
}

/** Whether `secret` is a well-formed `whsec_…` secret (for validating operator input). */
export function isWebhookSecret(secret: string): boolean {
  try {
    webhookSecretKey(secret);
    return true;
  } catch {
    return false;
  }
}

/** A new random secret, `whsec_` + base64 of `bytes` (default 32) random bytes. */
export function generateWebhookSecret(bytes: number = DEFAULT_SECRET_BYTES): string {
  if (!Number.isInteger(bytes) || bytes < WEBHOOK_SECRET_MIN_BYTES || bytes > WEBHOOK_SECRET_MAX_BYTES) {
    throw new RangeError(`webhook secret size must be ${WEBHOOK_SECRET_MIN_BYTES}–${WEBHOOK_SECRET_MAX_BYTES} bytes`);
  }
  return WEBHOOK_SECRET_PREFIX + randomBytes(bytes).toString('base64');
}

/** Unix seconds of `date`, as the `webhook-timestamp` header carries it. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/**
 * The `webhook-signature` header value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret, separated
 * by spaces. Pass every active secret — during a rotation the new and the previous one — so a receiver holding either
 * verifies. Duplicate secrets are signed once.
 */
export function signWebhook(input: {
  readonly id: string;
  /** Unix seconds; must be the same value sent in `webhook-timestamp`. */
  readonly timestamp: number;
  /** The exact bytes sent as the request body. */
  readonly body: string;
  readonly secrets: readonly string[];
}): string {
  if (input.secrets.length === 0) throw new InvalidWebhookSecretError('at least one secret is needed to sign');
  if (!Number.isSafeInteger(input.timestamp)) throw new RangeError('webhook timestamp must be whole Unix seconds');
  // The id travels in a header: whitespace or control characters would be mangled or rejected on the way.
  if (!/^[\x21-\x7e]+$/.test(input.id)) throw new RangeError('webhook id must be printable ASCII without spaces');
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  return [...new Set(input.secrets)]
    .map((secret) => `v1,${createHmac('sha256', webhookSecretKey(secret)).update(content, 'utf8').digest('base64')}`)
    .join(' ');
}

/** All three Standard Webhooks headers for one delivery attempt made at `now`. */
export function webhookHeaders(input: {
  readonly eventId: string;
  readonly body: string;
  readonly secrets: readonly string[];
  readonly now: Date;
}): StandardWebhookHeaders {
  const timestamp = unixSeconds(input.now);
  return {
    'webhook-id': input.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook({ id: input.eventId, timestamp, body: input.body, secrets: input.secrets }),
  };
}
