/**
 * The webhook outbox in the database: events written with their status records (src/flow/status-writer.ts),
 * claimed here for delivery with leases (several processes share the work; `FOR UPDATE SKIP LOCKED` on
 * PostgreSQL), one subject's events (a payment's, a payment link's) strictly in order: an event is due only when no
 * earlier event of its subject is still pending.
 */
import { newRecordId } from '../domain/ids.js';
import type { Kysely } from 'kysely';
import type { Database, WebhookEventState } from '../storage/schema.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { previousWebhookSecretContext, webhookSecretContext } from '../crypto/sealing-contexts.js';
import type { DeliveryResult } from './deliver.js';

export interface OutboxEvent {
  readonly id: string;
  readonly subjectType: string;
  /** The payment (or other subject) the event is about. */
  readonly subjectId: string;
  readonly clientId: string;
  readonly sequence: number;
  readonly url: string;
  readonly body: string;
  /** Attempts made before this one. */
  readonly attempts: number;
}

export interface WebhookEventView {
  readonly eventId: string;
  readonly subjectId: string;
  readonly sequence: number;
  readonly state: WebhookEventState;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly deliveredAt: string | null;
  readonly body: string;
  readonly attemptLog: readonly {
    readonly attempt: number;
    readonly attemptedAt: string;
    readonly outcome: string;
    readonly statusCode: number | null;
    readonly latencyMs: number;
    readonly error: string | null;
  }[];
}

export class WebhookOutbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres',
    /** Opens the sealed signing secrets, in memory only, to sign. */
    private readonly secrets: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async claim(workerId: string, limit: number, leaseMs: number): Promise<OutboxEvent[]> {
    const now = this.now();
    const nowIso = now.toISOString();
    return this.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('webhook_events as e')
        .select('e.id')
        .where('e.state', '=', 'pending')
        .where('e.next_attempt_at', '<=', nowIso)
        .where((eb) => eb.or([eb('e.locked_until', 'is', null), eb('e.locked_until', '<', nowIso)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_events as earlier')
                .select('earlier.id')
                .whereRef('earlier.subject_id', '=', 'e.subject_id')
                .whereRef('earlier.sequence', '<', 'e.sequence')
                .where('earlier.state', '=', 'pending'),
            ),
          ),
        )
        .orderBy('e.next_attempt_at')
        .limit(limit);
      if (this.dialect === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      const rows = await trx
        .updateTable('webhook_events')
        .set({ locked_by: workerId, locked_until: new Date(now.getTime() + leaseMs).toISOString() })
        .where('id', 'in', ids)
        .returningAll()
        .execute();
      return rows.map((row) => ({
        id: row.id,
        subjectType: row.subject_type,
        subjectId: row.subject_id,
        clientId: row.client_id,
        sequence: Number(row.sequence),
        url: row.url,
        body: row.body,
        attempts: Number(row.attempts),
      }));
    });
  }

  /** In how many ms the next pending event that is not due yet falls due; undefined when there is none. */
  async nextDueInMs(): Promise<number | undefined> {
    const now = this.now();
    const row = await this.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('state', '=', 'pending')
      .where('next_attempt_at', '>', now.toISOString())
      .executeTakeFirst();
    return row?.next == null ? undefined : Date.parse(row.next) - now.getTime();
  }

  /** The client's signing secrets: the current one, and the previous one while its rotation grace lasts. */
  async secretsFor(clientId: string): Promise<string[]> {
    const client = await this.db
      .selectFrom('clients')
      .select(['webhook_secret', 'previous_webhook_secret', 'previous_webhook_secret_expires_at'])
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    const previousValid =
      client.previous_webhook_secret !== null &&
      client.previous_webhook_secret_expires_at !== null &&
      client.previous_webhook_secret_expires_at > this.now().toISOString();
    const current = this.secrets.open(client.webhook_secret, webhookSecretContext(clientId));
    return previousValid && client.previous_webhook_secret !== null
      ? [current, this.secrets.open(client.previous_webhook_secret, previousWebhookSecretContext(clientId))]
      : [current];
  }

  /**
   * Records one attempt and moves the event on: `state` and, while pending, when to try next. A `gone` event
   * stops every other pending event of its subject (410 stops deliveries for the payment, decisions §4).
   */
  async recordAttempt(
    event: OutboxEvent,
    workerId: string,
    attemptedAt: Date,
    result: DeliveryResult,
    next: { readonly state: WebhookEventState; readonly nextAttemptAt: string | null },
  ): Promise<void> {
    const at = attemptedAt.toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: newRecordId(),
          event_id: event.id,
          attempt: event.attempts + 1,
          attempted_at: at,
          outcome: result.outcome,
          status_code: result.statusCode ?? null,
          latency_ms: result.latencyMs,
          error: result.error?.slice(0, 500) ?? null,
        })
        .execute();
      await trx
        .updateTable('webhook_events')
        .set({
          state: next.state,
          attempts: event.attempts + 1,
          next_attempt_at: next.nextAttemptAt ?? at,
          locked_by: null,
          locked_until: null,
          updated_at: this.now().toISOString(),
          ...(next.state === 'delivered' ? { delivered_at: at } : {}),
        })
        .where('id', '=', event.id)
        .where('locked_by', '=', workerId)
        .execute();
      if (next.state === 'gone') {
        await trx
          .updateTable('webhook_events')
          .set({ state: 'gone', updated_at: this.now().toISOString() })
          .where('subject_id', '=', event.subjectId)
          .where('state', '=', 'pending')
          .execute();
      }
    });
  }

  /** Every event of a payment (or other subject) with its attempts, in order (operator CLI). */
  async listForSubject(subjectId: string): Promise<WebhookEventView[]> {
    const events = await this.db.selectFrom('webhook_events').selectAll().where('subject_id', '=', subjectId).orderBy('sequence').execute();
    const attempts =
      events.length === 0
        ? []
        : await this.db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where(
              'event_id',
              'in',
              events.map((event) => event.id),
            )
            .orderBy('attempt')
            .execute();
    return events.map((event) => ({
      eventId: event.id,
      subjectId: event.subject_id,
      sequence: Number(event.sequence),
      state: event.state,
      attempts: Number(event.attempts),
      nextAttemptAt: event.state === 'pending' ? event.next_attempt_at : null,
      deliveredAt: event.delivered_at,
      body: event.body,
      attemptLog: attempts
        .filter((attempt) => attempt.event_id === event.id)
        .map((attempt) => ({
          attempt: Number(attempt.attempt),
          attemptedAt: attempt.attempted_at,
          outcome: attempt.outcome,
          statusCode: attempt.status_code === null ? null : Number(attempt.status_code),
          latencyMs: Number(attempt.latency_ms),
          error: attempt.error,
        })),
    }));
  }

  /** Queues an event for delivery again now (operator action); false when there is no such event. */
  async redeliver(eventId: string): Promise<boolean> {
    const at = this.now().toISOString();
    const updated = await this.db
      .updateTable('webhook_events')
      .set({ state: 'pending', next_attempt_at: at, locked_by: null, locked_until: null, updated_at: at })
      .where('id', '=', eventId)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  /** Pending events and the age of the oldest due one (metrics). */
  async depth(): Promise<{ due: number; oldestDueAt: string | null }> {
    const row = await this.db
      .selectFrom('webhook_events')
      .select([(eb) => eb.fn.countAll<string | number>().as('due'), (eb) => eb.fn.min('next_attempt_at').as('oldest')])
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', this.now().toISOString())
      .executeTakeFirstOrThrow();
    return { due: Number(row.due), oldestDueAt: row.oldest ?? null };
  }
}
