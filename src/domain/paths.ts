/**
 * Paths through the transition table: when a definite answer of the bank arrives while the payment waits in an
 * earlier step (a decoupled approval seen by polling, a reconciliation after a timeout, a payment found authorised
 * at expiry), the payment walks the table's forward edges to where the answer puts it, recording every status on
 * the way, instead of jumping.
 */
import type { DetailedStatus } from './detailed-status.js';
import { BACK_TO_BANK_SELECTION, TRANSITIONS, failureStatusFrom } from './transitions.js';

/** The shortest path of non-failure statuses from `from` (exclusive) to `to` (inclusive), or undefined. */
export function pathTo(from: DetailedStatus, to: DetailedStatus): DetailedStatus[] | undefined {
  if (from === to) return [];
  const previous = new Map<DetailedStatus, DetailedStatus>();
  const queue: DetailedStatus[] = [from];
  while (queue.length > 0) {
    const current = queue.shift() as DetailedStatus;
    for (const next of TRANSITIONS[current]) {
      // A bank's answer moves a payment forward: never through the payer's way back to the bank list.
      if (
        previous.has(next) ||
        next === from ||
        (next.endsWith('_FAILED') && next !== to) ||
        (next === BACK_TO_BANK_SELECTION && next !== to)
      )
        continue;
      previous.set(next, current);
      if (next === to) {
        const path: DetailedStatus[] = [to];
        let step = current;
        while (step !== from) {
          path.unshift(step);
          step = previous.get(step) as DetailedStatus;
        }
        return path;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/**
 * Where a definite failure seen at the bank is recorded from `from`: a step that waited for the payer at the bank
 * first enters its own CALLBACK_PROCESSING (we processed the bank's answer), then that step's failure.
 */
export function bankFailurePath(from: DetailedStatus): DetailedStatus[] {
  const processing = from.replace(/_REDIRECT_PENDING$/, '_CALLBACK_PROCESSING_PENDING') as DetailedStatus;
  if (processing !== from && TRANSITIONS[from].includes(processing)) {
    const failure = failureStatusFrom(processing);
    if (failure !== undefined) return [processing, failure];
  }
  const failure = failureStatusFrom(from);
  return failure === undefined ? [] : [failure];
}
