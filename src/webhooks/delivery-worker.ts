/**
 * Delivers the webhook outbox: claims due events, signs and sends each (deliver.ts), records the attempt and
 * decides what happens next from the outcome and the retry schedule.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Dispatcher } from 'undici';
import { PollingWorker } from '../jobs/polling-worker.js';
import { deliverWebhook, type DeliveryResult } from './deliver.js';
import type { OutboxEvent, WebhookOutbox } from './outbox.js';
import { nextRetryDelayMs, type RetrySchedule } from './retry-schedule.js';

export interface WebhookDeliveryOptions {
  readonly outbox: WebhookOutbox;
  readonly dispatcher: Dispatcher;
  readonly schedule: RetrySchedule;
  readonly timeoutMs: number;
  /** How long a claim lasts; never shorter than an attempt can take, so a live worker keeps its event. */
  readonly leaseMs: number;
  readonly logger: FastifyBaseLogger;
  readonly pollIntervalMs: number;
  readonly concurrency: number;
  readonly now?: () => Date;
  /** Called after each attempt (metrics). */
  readonly onAttempt?: (result: DeliveryResult) => void;
}

export function createWebhookDeliveryWorker(options: WebhookDeliveryOptions): PollingWorker<OutboxEvent> {
  const now = options.now ?? (() => new Date());
  // A lease outlives the delivery timeout, so a live worker never loses an event it is still sending.
  const leaseMs = Math.max(options.leaseMs, options.timeoutMs + 5_000);
  return new PollingWorker<OutboxEvent>(
    'webhooks',
    {
      claim: (workerId, limit) => options.outbox.claim(workerId, limit, leaseMs),
      nextDueInMs: () => options.outbox.nextDueInMs(),
      async process(event, workerId) {
        const secrets = await options.outbox.secretsFor(event.clientId);
        const attemptedAt = now();
        const result = await deliverWebhook({
          url: event.url,
          eventId: event.id,
          body: event.body,
          secrets,
          now: attemptedAt,
          dispatcher: options.dispatcher,
          timeoutMs: options.timeoutMs,
        });
        options.onAttempt?.(result);
        let next: { state: 'pending' | 'delivered' | 'gone' | 'failed' | 'refused'; nextAttemptAt: string | null };
        if (result.outcome === 'retry') {
          const delay = nextRetryDelayMs(options.schedule, event.attempts + 1, {
            ...(result.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: result.retryAfterSeconds }),
          });
          next =
            delay === null
              ? { state: 'failed', nextAttemptAt: null }
              : { state: 'pending', nextAttemptAt: new Date(now().getTime() + delay).toISOString() };
        } else {
          next = { state: result.outcome, nextAttemptAt: null };
        }
        await options.outbox.recordAttempt(event, workerId, attemptedAt, result, next);
        options.logger.info(
          {
            eventId: event.id,
            subjectType: event.subjectType,
            subjectId: event.subjectId,
            attempt: event.attempts + 1,
            outcome: result.outcome,
            statusCode: result.statusCode,
            latencyMs: result.latencyMs,
            next: next.state,
          },
          'webhook attempt',
        );
      },
    },
    { logger: options.logger, pollIntervalMs: options.pollIntervalMs, concurrency: options.concurrency },
  );
}
