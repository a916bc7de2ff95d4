/**
 * Background jobs claimed from the database, so any number of processes can share the work with each job done
 * once. A claim is a lease: the claimer sets `locked_until`; a process that dies simply lets its lease lapse
 * and another process takes the job again (at-least-once). On PostgreSQL the claim uses
 * `FOR UPDATE SKIP LOCKED`, so concurrent claimers never wait on or take each other's rows; SQLite has a
 * single writer, so its claim transaction is serial by nature.
 */
import { newRecordId } from '../domain/ids.js';
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database, JobsTable } from '../storage/schema.js';
import type { SubjectType } from '../domain/lifecycle.js';
import { subjectTypeOfJob, type JobKind, type JobSchedule } from './job-kinds.js';

/** What a job works on: its subject's id and client (the subject's type follows from the job's kind). */
export interface JobSubject {
  readonly id: string;
  readonly clientId: string;
}

export interface Job {
  readonly id: string;
  readonly kind: JobKind;
  readonly subjectType: SubjectType;
  /** The id of the payment (or other subject) the job works on. */
  readonly subjectId: string;
  readonly runAt: string;
  /** How many times the job ran before without finishing (for backoff). */
  readonly attempts: number;
}

/** Creates or re-times the subject's jobs (one per kind) inside the caller's transaction. */
export async function scheduleJobs(
  trx: Transaction<Database>,
  subject: JobSubject,
  schedule: readonly JobSchedule[],
  at: string,
): Promise<void> {
  for (const row of jobRows(subject, schedule, at)) {
    await trx
      .insertInto('jobs')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['client_id', 'subject_id', 'kind']).doUpdateSet({ run_at: row.run_at, attempts: 0, updated_at: at }),
      )
      .execute();
  }
}

/** The rows of a subject's jobs to schedule, new, due at their `runAt`. */
export function jobRows(subject: JobSubject, schedule: readonly JobSchedule[], at: string): Insertable<JobsTable>[] {
  return schedule.map((job) => ({
    id: newRecordId(),
    kind: job.kind,
    client_id: subject.clientId,
    subject_type: subjectTypeOfJob(job.kind),
    subject_id: subject.id,
    run_at: job.runAt,
    attempts: 0,
    locked_by: null,
    locked_until: null,
    last_error: null,
    created_at: at,
    updated_at: at,
  }));
}

/** Drops the subject's jobs (of the given kinds, or all) inside the caller's transaction. */
export async function cancelJobs(trx: Transaction<Database>, subject: JobSubject, kinds?: readonly JobKind[]): Promise<void> {
  let query = trx.deleteFrom('jobs').where('client_id', '=', subject.clientId).where('subject_id', '=', subject.id);
  if (kinds !== undefined) query = query.where('kind', 'in', [...kinds]);
  await query.execute();
}

export class JobQueue {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres',
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Claims up to `limit` due jobs of the given kinds for `leaseMs`. */
  async claim(workerId: string, kinds: readonly JobKind[], limit: number, leaseMs: number): Promise<Job[]> {
    const now = this.now();
    const nowIso = now.toISOString();
    const lockedUntil = new Date(now.getTime() + leaseMs).toISOString();
    return this.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('jobs')
        .select('id')
        .where('kind', 'in', [...kinds])
        .where('run_at', '<=', nowIso)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
        .orderBy('run_at')
        .limit(limit);
      if (this.dialect === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      const rows = await trx
        .updateTable('jobs')
        .set({ locked_by: workerId, locked_until: lockedUntil, updated_at: nowIso })
        .where('id', 'in', ids)
        .returningAll()
        .execute();
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind as JobKind,
        subjectType: row.subject_type as SubjectType,
        subjectId: row.subject_id,
        runAt: row.run_at,
        attempts: Number(row.attempts),
      }));
    });
  }

  /** In how many ms the next job of these kinds that is not due yet falls due; undefined when there is none. */
  async nextDueInMs(kinds: readonly JobKind[]): Promise<number | undefined> {
    const now = this.now();
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('next'))
      .where('kind', 'in', [...kinds])
      .where('run_at', '>', now.toISOString())
      .executeTakeFirst();
    return row?.next == null ? undefined : Date.parse(row.next) - now.getTime();
  }

  /**
   * The job is done: remove it, unless it was re-scheduled after this claim (a transition, or the bank's notification
   * making it due now, `run_at` no longer the claimed one). Then the new due time stands and the claim is released, so
   * the job runs again when due rather than when this claim's lease would have lapsed.
   */
  async complete(job: Job, workerId: string): Promise<void> {
    const deleted = await this.db
      .deleteFrom('jobs')
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('run_at', '=', job.runAt)
      .executeTakeFirst();
    if (deleted.numDeletedRows > 0n) return;
    await this.db
      .updateTable('jobs')
      .set({ locked_by: null, locked_until: null, updated_at: this.now().toISOString() })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /**
   * Runs the job again at `runAt` (backoff), releasing the lease; keeps a short note of why. A due time set meanwhile
   * (re-scheduled after this claim: the bank notified a change, or a transition made the job due) that is earlier
   * than `runAt` is kept: the job's own backoff never pushes back a look someone asked for while it ran.
   */
  async retryAt(job: Job, workerId: string, runAt: string, error?: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        // ISO 8601 UTC strings of one format: their order is the order of the times.
        run_at: sql<string>`case when run_at <> ${job.runAt} and run_at < ${runAt} then run_at else ${runAt} end`,
        attempts: sql<number>`attempts + 1`,
        locked_by: null,
        locked_until: null,
        last_error: error?.slice(0, 500) ?? null,
        updated_at: this.now().toISOString(),
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /** Due jobs and the age of the oldest due one, by kind (for metrics). */
  async depth(): Promise<{ kind: string; due: number; oldestDueAt: string | null }[]> {
    const nowIso = this.now().toISOString();
    const rows = await this.db
      .selectFrom('jobs')
      .select(['kind', (eb) => eb.fn.countAll<string | number>().as('due'), (eb) => eb.fn.min('run_at').as('oldest')])
      .where('run_at', '<=', nowIso)
      .groupBy('kind')
      .execute();
    return rows.map((row) => ({ kind: row.kind, due: Number(row.due), oldestDueAt: row.oldest ?? null }));
  }
}
