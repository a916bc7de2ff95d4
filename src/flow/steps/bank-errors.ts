/**
 * How the steps read connector errors: a definite refusal carries the failure code to record; an indeterminate
 * error (timeout, 5xx, malformed answer) never fails a payment. Anything else is a bug and propagates.
 */
import { BankRejectedError, isConnectorError } from '../../connectors/index.js';
import type { FailureCode } from '../../domain/detailed-status.js';

export type BankCall<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly definite: true; readonly code: FailureCode; readonly error: BankRejectedError }
  | { readonly ok: false; readonly definite: false; readonly error: Error };

export async function callBank<T>(call: () => Promise<T>): Promise<BankCall<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof BankRejectedError) return { ok: false, definite: true, code: error.failureCode, error };
    if (isConnectorError(error)) return { ok: false, definite: false, error };
    throw error;
  }
}
