/**
 * Webhook verification. openpis signs webhooks per Standard Webhooks v1; the `standardwebhooks` reference library
 * checks the signature (any entry of `webhook-signature` matching, so both secrets work during a rotation) and
 * refuses timestamps more than five minutes off (replays). Verify the raw body bytes exactly as received: parsed
 * and serialised again, JSON changes and the signature no longer matches.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { OpenpisWebhookVerificationError } from './errors.js';
import type { WebhookEventBody } from './types.js';

/** Request headers as frameworks hand them over: a Fetch `Headers`, or Node's `IncomingHttpHeaders`-like record. */
export type IncomingHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A verified webhook: its id (deduplicate on it) and its body. */
export interface VerifiedWebhook {
  /** `webhook-id`: the same on every retry of one event, and the `id` of the event in the event feed. */
  readonly id: string;
  readonly event: WebhookEventBody;
}

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

export class WebhookVerifier {
  private readonly webhook: Webhook;

  /** `secret`: the client's `whsec_…` webhook secret. */
  constructor(secret: string) {
    if (!secret.startsWith('whsec_'))
      throw new OpenpisWebhookVerificationError('The webhook secret must be the whsec_… value issued with the client');
    this.webhook = new Webhook(secret);
  }

  /**
   * Verifies a webhook and returns its event. Throws {@link OpenpisWebhookVerificationError} when a header is
   * missing, no signature matches, or the timestamp is stale: answer 400 and do not act on it.
   */
  verify(rawBody: string | Uint8Array, headers: IncomingHeaders): VerifiedWebhook {
    const wanted: Record<string, string> = {};
    for (const name of SIGNATURE_HEADERS) {
      const value = headerValue(headers, name);
      if (value === undefined) throw new OpenpisWebhookVerificationError(`Missing ${name} header`);
      wanted[name] = value;
    }
    const payload = typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
    try {
      const event = this.webhook.verify(payload, wanted) as WebhookEventBody;
      return { id: wanted['webhook-id'] ?? '', event };
    } catch (error) {
      if (error instanceof WebhookVerificationError) throw new OpenpisWebhookVerificationError(`Webhook not verified: ${error.message}`);
      throw new OpenpisWebhookVerificationError('Webhook not verified: the body is not the JSON that was signed');
    }
  }
}

/** One-shot form of {@link WebhookVerifier.verify}. */
export function verifyWebhook(rawBody: string | Uint8Array, headers: IncomingHeaders, secret: string): VerifiedWebhook {
  return new WebhookVerifier(secret).verify(rawBody, headers);
}

function headerValue(headers: IncomingHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.[0];
}
