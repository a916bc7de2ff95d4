/**
 * The client's event feed (GET /api/v1/events): the events the status writer records for every status change of
 * every payment (src/flow/status-writer.ts), read in each client's position order. A webhook delivery of an event
 * carries the same id (`webhook-id`) and the same body bytes, so a client may mix both and deduplicate on the id.
 */
import type { Kysely } from 'kysely';
import { latestEventPosition } from '../storage/event-counters.js';
import type { Database } from '../storage/schema.js';

export interface FeedEvent {
  readonly id: string;
  /** 1, 2, 3 … among the client's events, in commit order. */
  readonly position: number;
  readonly type: string;
  readonly createdAt: string;
  /** The exact JSON a webhook of this event delivers. */
  readonly body: string;
}

export class EventFeed {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The position of the client's latest committed event. Every event at or below it has committed too: positions
   * are handed out under the lock of the client's counter row, held by the writing transaction until it commits.
   */
  async latestPosition(clientId: string): Promise<number> {
    return latestEventPosition(this.db, clientId);
  }

  /** Up to `limit` of the client's events after `afterPosition`, oldest first, optionally of one type only. */
  async after(clientId: string, afterPosition: number, limit: number, type?: string): Promise<FeedEvent[]> {
    let query = this.db
      .selectFrom('events')
      .select(['id', 'position', 'type', 'created_at', 'body'])
      .where('client_id', '=', clientId)
      .where('position', '>', afterPosition);
    if (type !== undefined) query = query.where('type', '=', type);
    const rows = await query.orderBy('position', 'asc').limit(limit).execute();
    return rows.map((row) => ({ id: row.id, position: Number(row.position), type: row.type, createdAt: row.created_at, body: row.body }));
  }
}
