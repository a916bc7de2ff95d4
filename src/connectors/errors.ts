/**
 * The one error model of every bank connector. A connector throws only these (plus `TypeError` for a caller's
 * programming mistake, such as a malformed amount), so the flow engine decides with one `instanceof` chain:
 *
 * - {@link BankRejectedError}: the bank answered and said no. Definite: the step failed for the reason given.
 * - {@link BankUnavailableError}: no usable answer (timeout, connection error, 5xx, 408, 429). **Indeterminate**:
 *   the bank may or may not have acted on the request. Never conclude that a payment failed from it.
 * - {@link BankProtocolError}: an answer that is not what the standard says. Also indeterminate.
 *
 * Messages never contain PSU credentials or request/response bodies, only the operation, the HTTP status and the
 * bank's own message codes, so they may be logged and shown to operators as they are.
 */
import type { FailureCode } from '../domain/detailed-status.js';

/** One message of the bank to us (Berlin Group `tppMessages`, or the equivalent of another standard). */
export interface BankMessage {
  /** `ERROR` or `WARNING`. */
  readonly category: string;
  /** The bank's code, as sent, for example `PSU_CREDENTIALS_INVALID`. */
  readonly code: string;
  /** The field the message is about, when the bank names one (for example `debtorAccount.iban`). */
  readonly path?: string;
  /** Free text of the bank: shown to operators only, never to the PSU (it may be in any language). */
  readonly text?: string;
}

/** What kind of connector error this is; handy in `switch` statements and logs. */
export type ConnectorErrorKind = 'rejected' | 'unavailable' | 'protocol';

/** Base class of every connector error. Not thrown itself. */
export abstract class ConnectorError extends Error {
  abstract readonly kind: ConnectorErrorKind;
  /** The failure reason to record if the caller decides that this error fails the payment step. */
  abstract readonly failureCode: FailureCode;
  /**
   * True when the bank may have acted on the request despite the error (so a payment must not be marked failed):
   * the caller keeps the payment pending and asks again later.
   */
  abstract readonly indeterminate: boolean;
  /** The connector operation that failed, for example `initiatePayment`. */
  readonly operation: string;
  /** The bank's HTTP status, when it answered at all. */
  readonly httpStatus: number | undefined;

  protected constructor(message: string, operation: string, httpStatus: number | undefined, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.operation = operation;
    this.httpStatus = httpStatus;
  }
}

/** The bank answered with a definite refusal (4xx other than 408/429), usually with `tppMessages`. */
export class BankRejectedError extends ConnectorError {
  readonly kind = 'rejected' as const;
  readonly indeterminate = false as const;
  readonly failureCode: FailureCode;
  /** The bank's messages, as sent (may be empty when the bank sent none). */
  readonly messages: readonly BankMessage[];
  declare readonly httpStatus: number;

  constructor(operation: string, httpStatus: number, failureCode: FailureCode, messages: readonly BankMessage[]) {
    const codes = messages.map((message) => message.code).join(', ');
    super(`Bank rejected ${operation} with HTTP ${httpStatus}${codes === '' ? '' : ` (${codes})`}: ${failureCode}`, operation, httpStatus);
    this.failureCode = failureCode;
    this.messages = messages;
  }
}

/** Why the bank gave no usable answer. */
export type UnavailableReason = 'timeout' | 'connection' | 'server-error' | 'rate-limited';

/**
 * No usable answer: a timeout, a connection error, a 5xx, a 408 or a 429. Indeterminate: the request may have
 * reached the bank and been executed. Retry reads freely; retry writes only where the standard makes them safe.
 */
export class BankUnavailableError extends ConnectorError {
  readonly kind = 'unavailable' as const;
  readonly indeterminate = true as const;
  readonly failureCode = 'BANK_UNAVAILABLE' as const;
  readonly reason: UnavailableReason;
  /** Seconds from the bank's `Retry-After`, when it sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    operation: string,
    reason: UnavailableReason,
    details: { httpStatus?: number; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(
      `Bank unavailable during ${operation}: ${reason}${details.httpStatus === undefined ? '' : ` (HTTP ${details.httpStatus})`}`,
      operation,
      details.httpStatus,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.reason = reason;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * The bank answered, but not as the standard says (malformed JSON, a missing mandatory field, a link to another
 * host, an unexpected status code). Indeterminate like {@link BankUnavailableError}: a broken answer to a payment
 * initiation may still mean the bank holds the payment.
 */
export class BankProtocolError extends ConnectorError {
  readonly kind = 'protocol' as const;
  readonly indeterminate = true as const;
  readonly failureCode = 'BANK_UNAVAILABLE' as const;
  /** What was wrong, in a few words (never the body itself: it may echo PSU data). */
  readonly problem: string;

  constructor(operation: string, problem: string, httpStatus?: number) {
    super(
      `Unexpected bank answer to ${operation}${httpStatus === undefined ? '' : ` (HTTP ${httpStatus})`}: ${problem}`,
      operation,
      httpStatus,
    );
    this.problem = problem;
  }
}

export function isConnectorError(error: unknown): error is ConnectorError {
  return error instanceof ConnectorError;
}
