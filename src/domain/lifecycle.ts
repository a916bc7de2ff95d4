/**
 * A resource with a status of its own (a payment, a payment link) names itself to events, webhook deliveries and
 * jobs as a subject: its type and its id (migration 0018, docs/adr/0012-events-and-jobs-by-subject.md). Its
 * statuses and the one table of where each may go are its lifecycle: a status changes only by a move that table
 * allows, and the code that writes the change is the same for every lifecycle.
 */

/** The kinds of subject. Adding a resource with a lifecycle adds its name here. */
export const SUBJECT_TYPES = ['payment', 'payment_link'] as const;

export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** One resource as events and jobs name it, with the client it belongs to (which leads every key). */
export interface SubjectRef {
  readonly type: SubjectType;
  readonly id: string;
  readonly clientId: string;
}

export interface Lifecycle<S extends string> {
  readonly subjectType: SubjectType;
  /** Every status, in the order people read them. */
  readonly statuses: readonly S[];
  /** From each status, where it may go; a status with nowhere to go is final. */
  readonly transitions: Readonly<Record<S, readonly S[]>>;
}

export class IllegalTransitionError<S extends string = string> extends Error {
  constructor(
    readonly from: S,
    readonly to: S,
    readonly subjectType: SubjectType = 'payment',
  ) {
    super(`Illegal ${subjectType} status transition ${from} → ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export function canMove<S extends string>(lifecycle: Lifecycle<S>, from: S, to: S): boolean {
  return lifecycle.transitions[from].includes(to);
}

/** Throws unless the lifecycle's table lets `from` go to `to`. */
export function assertMove<S extends string>(lifecycle: Lifecycle<S>, from: S, to: S): void {
  if (!canMove(lifecycle, from, to)) throw new IllegalTransitionError(from, to, lifecycle.subjectType);
}

/** A status with no way out. */
export function isFinalIn<S extends string>(lifecycle: Lifecycle<S>, status: S): boolean {
  return lifecycle.transitions[status].length === 0;
}
