/**
 * One webhook delivery attempt. No database here: the outbox worker loads the event, calls `deliverWebhook`, records
 * the result and, on `retry`, schedules the next attempt with `nextRetryDelayMs`.
 */
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { parseRetryAfter } from './retry-schedule.js';
import { webhookHeaders } from './signature.js';
import { isTargetRefusal } from './ssrf-guard.js';

/** Sent with every delivery so receivers can tell our traffic apart in their logs. */
export const WEBHOOK_USER_AGENT = 'openpis-webhooks/1 (+Standard Webhooks v1)';

export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;

/** We read this much of a response body at most; receivers owe us nothing but the status code. */
const MAX_RESPONSE_BYTES = 4096;

/**
 * - `delivered`: a 2xx arrived within the timeout.
 * - `retry`: anything else — another status (3xx included: redirects are not followed), a timeout, a connection or
 *   TLS error; try again per the retry schedule.
 * - `gone`: the receiver answered 410; stop all further deliveries for this payment.
 * - `refused`: the target is not allowed (SSRF guard or bad URL); retrying cannot help, so the event is given up.
 */
export type DeliveryOutcome = 'delivered' | 'retry' | 'gone' | 'refused';

export interface DeliveryResult {
  readonly outcome: DeliveryOutcome;
  /** The receiver's HTTP status, when it answered. */
  readonly statusCode?: number;
  /** Milliseconds from the start of the attempt until the response headers arrived or the attempt failed. */
  readonly latencyMs: number;
  /** For the delivery log; never holds a secret or the body. */
  readonly error?: string;
  /** The receiver's `Retry-After`, in seconds from now, when it sent a valid one. */
  readonly retryAfterSeconds?: number;
}

export interface DeliveryRequest {
  /** The payment's `webhookUrl`. */
  readonly url: string;
  /** The outbox event id: the `webhook-id`, the same on every attempt. */
  readonly eventId: string;
  /** The body exactly as stored with the event. */
  readonly body: string;
  /** The client's active `whsec_…` secrets: one, or the new and the previous one during a rotation. */
  readonly secrets: readonly string[];
  /** When this attempt is made; becomes `webhook-timestamp`. */
  readonly now: Date;
  /** Normally the guarded dispatcher from `createWebhookDispatcher`. */
  readonly dispatcher: Dispatcher;
  readonly timeoutMs?: number;
}

/**
 * Makes one signed POST of `body` to `url` and classifies the answer. Never rejects for a network or receiver
 * problem — those are results; it throws only for a malformed secret (a bug or bad operator input, not a delivery
 * failure).
 */
export async function deliverWebhook(input: DeliveryRequest): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const timeoutMs = input.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;

  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return { outcome: 'refused', latencyMs: elapsed(), error: 'webhook URL is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { outcome: 'refused', latencyMs: elapsed(), error: `scheme ${url.protocol} is not allowed; use https` };
  }
  if (url.username !== '' || url.password !== '') {
    return { outcome: 'refused', latencyMs: elapsed(), error: 'webhook URL must not carry credentials' };
  }

  const headers = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    ...webhookHeaders({ eventId: input.eventId, body: input.body, secrets: input.secrets, now: input.now }),
  };

  // One deadline for connect, TLS, request and response headers, however the time is split between them.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body: input.body,
      dispatcher: input.dispatcher,
      signal: controller.signal,
    });
    const latencyMs = elapsed();
    await discardBody(response.body);
    const statusCode = response.statusCode;
    const retryAfterSeconds = parseRetryAfter(firstHeader(response.headers['retry-after']), new Date(input.now.getTime() + latencyMs));
    const extra = retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
    if (statusCode >= 200 && statusCode < 300) return { outcome: 'delivered', statusCode, latencyMs };
    if (statusCode === 410) return { outcome: 'gone', statusCode, latencyMs, error: 'HTTP 410 Gone' };
    if (statusCode >= 300 && statusCode < 400) {
      return { outcome: 'retry', statusCode, latencyMs, error: `redirect (HTTP ${statusCode}) not followed`, ...extra };
    }
    return { outcome: 'retry', statusCode, latencyMs, error: `HTTP ${statusCode}`, ...extra };
  } catch (error) {
    const latencyMs = elapsed();
    if (isTargetRefusal(error)) return { outcome: 'refused', latencyMs, error: error.message };
    if (controller.signal.aborted) return { outcome: 'retry', latencyMs, error: `no response within ${timeoutMs} ms` };
    return { outcome: 'retry', latencyMs, error: describeError(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function discardBody(body: Dispatcher.ResponseData['body']): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of body) {
      read += (chunk as Buffer).length;
      if (read > MAX_RESPONSE_BYTES) break;
    }
  } catch {
    // A body cut short (or our deadline firing) does not change an answer we already have.
  } finally {
    // An unread remainder must not keep the socket busy; a body read to its end has already let it go back to the pool.
    if (!body.destroyed) body.destroy();
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'delivery failed';
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 3; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${code}: ${current.message}` : current.message);
    current = current.cause;
  }
  return [...new Set(parts)].join(' ← ').slice(0, 500);
}
