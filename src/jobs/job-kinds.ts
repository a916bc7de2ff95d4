/** Kinds of background jobs, each at most once per payment (see src/jobs/job-queue.ts). */
export const JOB_KINDS = [
  /** Phase 7 and decoupled SCA: ask the bank for the payment's status until it is final. */
  'bank-status',
  /** Fail a payer's flow that passed its deadline (decisions §3, EXPIRED). */
  'flow-expiry',
] as const;

export type JobKind = (typeof JOB_KINDS)[number];

export interface JobSchedule {
  readonly kind: JobKind;
  /** When the job becomes due (UTC ISO 8601). */
  readonly runAt: string;
}
