/**
 * Kinds of background jobs, each with the kind of subject it works on; at most one job of a kind per subject
 * (see src/jobs/job-queue.ts). Adding a kind of job is adding an entry here and a handler (src/composition.ts).
 */
import type { SubjectType } from '../domain/lifecycle.js';

export const JOB_KIND_SUBJECTS = {
  /** Phase 7 and decoupled SCA: ask the bank for the payment's status until it is final. */
  'bank-status': 'payment',
  /** Fail a payer's flow that passed its deadline (decisions §3, EXPIRED). */
  'flow-expiry': 'payment',
  /** Expire a payment link still ACTIVE at its expiresAt (docs/api-decisions.md, "Payment links"). */
  'payment-link-expiry': 'payment_link',
} as const satisfies Readonly<Record<string, SubjectType>>;

export type JobKind = keyof typeof JOB_KIND_SUBJECTS;

export const JOB_KINDS = Object.keys(JOB_KIND_SUBJECTS) as readonly JobKind[];

/** The kind of subject a job of this kind works on. */
export function subjectTypeOfJob(kind: JobKind): SubjectType {
  return JOB_KIND_SUBJECTS[kind];
}

export interface JobSchedule {
  readonly kind: JobKind;
  /** When the job becomes due (UTC ISO 8601). */
  readonly runAt: string;
}
