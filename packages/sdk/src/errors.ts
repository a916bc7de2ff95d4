/**
 * Every failure the SDK reports is an {@link OpenpisError}. An answer of the API that is an error becomes an
 * {@link OpenpisApiError} (or one of its subclasses, one per status worth telling apart) carrying the API's error
 * body (`title`, `statusCode`, `message`) and the request id to quote to the operator.
 */

/** The base class: `instanceof OpenpisError` catches everything the SDK throws on purpose. */
export class OpenpisError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** What the API answered, as far as the SDK could read it. */
export interface ApiErrorDetails {
  /** The HTTP status. */
  readonly statusCode: number;
  /** The error body's `title` (the status's reason phrase, e.g. `Conflict`). */
  readonly title: string;
  /** The error body's `message` (for people; may change). */
  readonly message: string;
  /** `X-Request-ID` of the answer: quote it when asking the operator about this request. */
  readonly requestId: string | undefined;
  /** The token endpoint's OAuth error code (`invalid_client`, …), when the answer came from there. */
  readonly oauthError?: string | undefined;
  /** `Retry-After` in seconds, when the answer carried one. */
  readonly retryAfterSeconds?: number | undefined;
  /** The parsed body as it came (for fields this SDK does not know yet). */
  readonly body: unknown;
}

/** An error answer of the API. */
export class OpenpisApiError extends OpenpisError {
  readonly statusCode: number;
  readonly title: string;
  readonly requestId: string | undefined;
  readonly oauthError: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly body: unknown;

  constructor(details: ApiErrorDetails) {
    super(details.message);
    this.statusCode = details.statusCode;
    this.title = details.title;
    this.requestId = details.requestId;
    this.oauthError = details.oauthError;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.body = details.body;
  }
}

/** 400: the request broke validation rules; `message` lists every one, comma-separated. */
export class OpenpisValidationError extends OpenpisApiError {}
/** 401: the credentials or token were refused (the SDK has already fetched a new token once). */
export class OpenpisAuthenticationError extends OpenpisApiError {}
/** 403: the token lacks the scope the operation needs. */
export class OpenpisPermissionError extends OpenpisApiError {}
/** 404: no such resource for this client (another client's payment looks exactly like an unknown one). */
export class OpenpisNotFoundError extends OpenpisApiError {}
/**
 * 409: a payment with this `endToEndId` already exists, and it is not one this SDK created in an earlier attempt of
 * the same call (those are resolved to the existing payment): the caller sent a duplicate.
 */
export class OpenpisConflictError extends OpenpisApiError {}
/** 429: the rate limit held after every retry; `retryAfterSeconds` says when to come back. */
export class OpenpisRateLimitError extends OpenpisApiError {}
/** 5xx: the service could not answer (503 after every retry, or an internal error). */
export class OpenpisServerError extends OpenpisApiError {}

/** The service could not be reached (or the answer was cut off) on every attempt. */
export class OpenpisNetworkError extends OpenpisError {
  /** The `X-Request-ID` the SDK sent with the attempts. */
  readonly requestId: string;
  constructor(message: string, requestId: string, cause: unknown) {
    super(message, { cause });
    this.requestId = requestId;
  }
}

/** `waitForFinalStatus` ran out of time; `lastSeen` is the payment as it last was. */
export class OpenpisTimeoutError<T = unknown> extends OpenpisError {
  readonly lastSeen: T | undefined;
  constructor(message: string, lastSeen: T | undefined) {
    super(message);
    this.lastSeen = lastSeen;
  }
}

/** A webhook whose signature or timestamp did not verify: answer it with 400 and do not act on it. */
export class OpenpisWebhookVerificationError extends OpenpisError {}

/** The error class for an error answer of `statusCode`. */
export function apiErrorFor(details: ApiErrorDetails): OpenpisApiError {
  const status = details.statusCode;
  if (status === 400) return new OpenpisValidationError(details);
  if (status === 401) return new OpenpisAuthenticationError(details);
  if (status === 403) return new OpenpisPermissionError(details);
  if (status === 404) return new OpenpisNotFoundError(details);
  if (status === 409) return new OpenpisConflictError(details);
  if (status === 429) return new OpenpisRateLimitError(details);
  if (status >= 500) return new OpenpisServerError(details);
  return new OpenpisApiError(details);
}
