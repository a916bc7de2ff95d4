/**
 * Writes events inside a caller's transaction: each into the client's event feed and, where the subject has a
 * webhook URL, into the webhook outbox under the same id and bytes. The same for every subject (a payment, a payment
 * link): a status writer builds the events of its records and hands them here, so a record never commits without its
 * events nor the other way round.
 */
import { PostgresAdapter, type Insertable, type Transaction } from 'kysely';
import { takeEventPositions } from '../storage/event-counters.js';
import type { Database, EventsTable, WebhookEventsTable } from '../storage/schema.js';
import type { SubjectRef } from '../domain/lifecycle.js';
import type { EventType } from './event-types.js';

/** A subject whose events are written, and where its webhooks go (null: feed only). */
export interface EventSubject extends SubjectRef {
  readonly webhookUrl: string | null;
}

/** One event to write: an event of a status record of the subject. */
export interface NewEvent {
  readonly id: string;
  readonly type: EventType;
  /** The status record the event reports, and its place in the subject's history (deliveries go out in this order). */
  readonly statusRecordId: string;
  readonly sequence: number;
  /** The exact bytes a webhook of this event delivers. */
  readonly body: string;
}

/** The feed and outbox rows of some events, before positions are given (appendEvents). */
export interface EventRows {
  /** Feed events without their position: it is given as they are written. */
  readonly events: (Omit<Insertable<EventsTable>, 'position'> & { readonly id: string })[];
  /** Webhook deliveries, one per event under the same id and bytes; none when the subject has no webhook URL. */
  readonly deliveries: Insertable<WebhookEventsTable>[];
}

/**
 * The rows of the events, each at `at`. `deliveryState` 'gone': the receiver answered 410 for this subject, so
 * deliveries are kept, never sent.
 */
export function eventRows(
  subject: EventSubject,
  events: readonly NewEvent[],
  at: string,
  deliveryState: 'pending' | 'gone' = 'pending',
): EventRows {
  const feed: EventRows['events'] = [];
  const deliveries: Insertable<WebhookEventsTable>[] = [];
  for (const event of events) {
    feed.push({
      id: event.id,
      client_id: subject.clientId,
      type: event.type,
      subject_type: subject.type,
      subject_id: subject.id,
      body: event.body,
      created_at: at,
    });
    // A delivery is its event: the same id and the same bytes, made only where there is somewhere to deliver.
    if (subject.webhookUrl === null) continue;
    deliveries.push({
      id: event.id,
      subject_type: subject.type,
      subject_id: subject.id,
      client_id: subject.clientId,
      status_record_id: event.statusRecordId,
      sequence: event.sequence,
      url: subject.webhookUrl,
      body: event.body,
      state: deliveryState,
      attempts: 0,
      next_attempt_at: at,
      locked_by: null,
      locked_until: null,
      created_at: at,
      updated_at: at,
      delivered_at: null,
    });
  }
  return { events: feed, deliveries };
}

/** Writes the events (feed and outbox) of one subject, each at `at`. */
export async function appendEvents(
  trx: Transaction<Database>,
  subject: EventSubject,
  events: readonly NewEvent[],
  at: string,
): Promise<void> {
  if (events.length === 0) return;
  // After a receiver answered 410 for this subject, later events are kept (for the operator) but never sent.
  const stopped =
    subject.webhookUrl === null
      ? undefined
      : await trx
          .selectFrom('webhook_events')
          .select('id')
          .where('client_id', '=', subject.clientId)
          .where('subject_id', '=', subject.id)
          .where('state', '=', 'gone')
          .limit(1)
          .executeTakeFirst();
  const rows = eventRows(subject, events, at, stopped === undefined ? 'pending' : 'gone');
  if (rows.deliveries.length > 0) await trx.insertInto('webhook_events').values(rows.deliveries).execute();
  await appendToClientFeed(trx, subject.clientId, rows.events);
}

/**
 * Every event is in its client's feed (GET /api/v1/events), numbered 1, 2, 3 … per client in commit order from the
 * client's counter (src/storage/event-counters.ts). Every event of one client takes that counter, so it must be held
 * as briefly as possible:
 *
 * - PostgreSQL: the events are written without a position; a deferred trigger numbers them inside COMMIT
 *   (migrations 0012 and 0014), so the counter is locked only while the transaction commits.
 * - SQLite: one writer at a time holds the whole database until it commits anyway; the position is taken here.
 */
export async function appendToClientFeed(trx: Transaction<Database>, clientId: string, events: EventRows['events']): Promise<void> {
  if (events.length === 0) return;
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx
      .insertInto('events')
      .values(events.map((event) => ({ ...event, position: null })))
      .execute();
    return;
  }
  const lastPosition = await takeEventPositions(trx, clientId, events.length);
  await trx
    .insertInto('events')
    .values(events.map((event, index) => ({ ...event, position: lastPosition - events.length + index + 1 })))
    .execute();
}
