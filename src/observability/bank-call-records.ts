/**
 * The records of bank calls (table `bank_calls`, migration 0010): one row per call a connector makes, written by the
 * metered connector (src/observability/metered-connector.ts) for the console's bank health and a payment's page.
 *
 * A row holds who the call served (bank, client, payment), the operation, how it ended, the HTTP status a failure
 * carries, the latency and the time. Never a credential, token, body or URL: the recorder is handed nothing else.
 *
 * Writing is off the payer's path: `record` only appends to a buffer, written in one multi-row insert when it holds
 * `batchSize` records or `flushAfterMs` after the first, whichever comes first. The buffer is bounded
 * (`maxBuffered`): if the database cannot keep up or is down, the oldest records are dropped (counted, and logged
 * once per flush) rather than memory growing. `close()` writes everything buffered, so a clean shutdown loses
 * nothing; a crash loses at most what was buffered (under `flushAfterMs` of calls). The payment's own truth (its
 * status history) never depends on these records.
 */
import { newRecordId } from '../domain/ids.js';
import type { Kysely } from 'kysely';
import type { BankCallOutcome, BankCallsTable, Database } from '../storage/schema.js';

export interface BankCallRecord {
  readonly at: string;
  readonly bankId: string;
  readonly clientId: string | null;
  readonly paymentId: string | null;
  readonly operation: string;
  readonly outcome: BankCallOutcome;
  readonly httpStatus: number | null;
  readonly latencyMs: number;
}

/** Where records go; the metered connector knows only this. */
export interface BankCallSink {
  record(call: BankCallRecord): void;
}

export interface BankCallRecorderOptions {
  readonly batchSize?: number;
  readonly flushAfterMs?: number;
  readonly maxBuffered?: number;
  /** Told how many records were dropped (buffer full) and why. */
  readonly onDropped?: (count: number, reason: string) => void;
  /** Told when a batch could not be written (it stays buffered for the next try, at most a second later). */
  readonly onWriteFailed?: (error: unknown) => void;
}

/** Rows per insert: well under SQLite's 32,766 bound parameters (9 columns a row). */
const DEFAULT_BATCH_SIZE = 200;

export class BankCallRecorder implements BankCallSink {
  private buffer: BankCallRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private closed = false;
  private readonly batchSize: number;
  private readonly flushAfterMs: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: BankCallRecorderOptions = {},
  ) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.flushAfterMs = options.flushAfterMs ?? 250;
    this.maxBuffered = options.maxBuffered ?? 10_000;
  }

  record(call: BankCallRecord): void {
    this.buffer.push(call);
    this.dropOverflow();
    // After close (work that outlives the HTTP server, such as a job finishing): written at once.
    if (this.closed || this.buffer.length >= this.batchSize) {
      void this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushAfterMs);
      this.timer.unref();
    }
  }

  /** Writes what is buffered now, a batch at a time; never throws (a failed batch stays buffered for a later try). */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.writing !== undefined) await this.writing;
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.batchSize);
      let written = false;
      this.writing = this.write(batch).then((ok) => {
        written = ok;
      });
      await this.writing;
      this.writing = undefined;
      if (!written) return;
    }
  }

  /** Stops buffering and writes everything buffered (a clean shutdown loses no record). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** True when written; on failure the batch goes back to the front of the buffer and a retry is timed. */
  private async write(batch: BankCallRecord[]): Promise<boolean> {
    try {
      await this.db.insertInto('bank_calls').values(batch.map(toRow)).execute();
      return true;
    } catch (error) {
      this.options.onWriteFailed?.(error);
      if (this.closed) {
        // Shutting down with the database failing: nothing left to retry with.
        this.options.onDropped?.(batch.length, 'database write failed at shutdown');
        return true;
      }
      this.buffer.unshift(...batch);
      this.dropOverflow();
      if (this.timer === undefined) {
        this.timer = setTimeout(() => void this.flush(), Math.max(this.flushAfterMs, 1000));
        this.timer.unref();
      }
      return false;
    }
  }

  private dropOverflow(): void {
    if (this.buffer.length <= this.maxBuffered) return;
    const dropped = this.buffer.length - this.maxBuffered;
    this.buffer.splice(0, dropped);
    this.options.onDropped?.(dropped, 'buffer full');
  }
}

function toRow(call: BankCallRecord): BankCallsTable {
  return {
    id: newRecordId(),
    at: call.at,
    bank_id: call.bankId,
    client_id: call.clientId,
    payment_id: call.paymentId,
    operation: call.operation,
    outcome: call.outcome,
    http_status: call.httpStatus,
    latency_ms: Math.max(0, Math.round(call.latencyMs)),
  };
}

/** Deletes the records older than `retentionDays`, in batches so that no transaction holds the table long. */
export async function pruneBankCalls(db: Kysely<Database>, retentionDays: number, now: Date): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
  let deleted = 0;
  for (;;) {
    const ids = await db.selectFrom('bank_calls').select('id').where('at', '<', before).limit(5000).execute();
    if (ids.length === 0) return deleted;
    await db
      .deleteFrom('bank_calls')
      .where(
        'id',
        'in',
        ids.map((row) => row.id),
      )
      .execute();
    deleted += ids.length;
  }
}
