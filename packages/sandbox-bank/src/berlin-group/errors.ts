/**
 * Errors in the shape of the NextGenPSD2 standard: `{ tppMessages: [{ category, code, text }] }`, with the HTTP
 * status the Implementation Guidelines assign to each message code.
 */

/** Message codes the sandbox bank answers with, and their status as the Implementation Guidelines define it. */
export const MESSAGE_CODE_STATUS = {
  FORMAT_ERROR: 400,
  PARAMETER_NOT_SUPPORTED: 400,
  SERVICE_INVALID: 400,
  SCA_METHOD_UNKNOWN: 400,
  /** The authorisation resource is in status failed; nothing more can be applied to it. */
  SCA_INVALID: 400,
  PAYMENT_FAILED: 400,
  /** Consent-ID in a header that the bank does not know (403 when addressed in the path). */
  CONSENT_UNKNOWN: 400,
  PSU_CREDENTIALS_INVALID: 401,
  /** A missing or wrong bearer token (here: the operator token of the fault-injection routes). */
  TOKEN_INVALID: 401,
  CONSENT_INVALID: 401,
  CONSENT_EXPIRED: 401,
  CERTIFICATE_INVALID: 401,
  CERTIFICATE_EXPIRED: 401,
  CERTIFICATE_MISSING: 401,
  SIGNATURE_INVALID: 401,
  SIGNATURE_MISSING: 401,
  PRODUCT_INVALID: 403,
  /** A resource addressed in the path that the bank does not know (404 when it is an account-id). */
  RESOURCE_UNKNOWN: 403,
  RESOURCE_EXPIRED: 403,
  PRODUCT_UNKNOWN: 404,
  CANCELLATION_INVALID: 405,
  STATUS_INVALID: 409,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type MessageCode = keyof typeof MESSAGE_CODE_STATUS;

export interface TppMessage {
  readonly category: 'ERROR' | 'WARNING';
  readonly code: string;
  readonly text?: string;
  readonly path?: string;
}

export class Xs2aError extends Error {
  readonly status: number;
  readonly path: string | undefined;
  constructor(
    readonly code: MessageCode,
    readonly text: string,
    options: { status?: number; path?: string } = {},
  ) {
    super(`${code}: ${text}`);
    this.name = 'Xs2aError';
    this.status = options.status ?? MESSAGE_CODE_STATUS[code];
    this.path = options.path;
  }

  body(): { tppMessages: TppMessage[] } {
    const message: TppMessage = { category: 'ERROR', code: this.code, text: this.text.slice(0, 500) };
    return { tppMessages: [this.path === undefined ? message : { ...message, path: this.path }] };
  }
}

/** A request body that does not conform: FORMAT_ERROR, one `tppMessages` entry per problem, each with its path. */
export class Xs2aFormatError extends Xs2aError {
  constructor(readonly problems: ReadonlyArray<{ readonly path: string | undefined; readonly text: string }>) {
    const first = problems[0] ?? { path: undefined, text: 'The body is invalid' };
    super('FORMAT_ERROR', first.text, first.path === undefined ? {} : { path: first.path });
    this.name = 'Xs2aFormatError';
  }

  override body(): { tppMessages: TppMessage[] } {
    return {
      tppMessages: this.problems.map(({ path, text }): TppMessage => {
        const message: TppMessage = { category: 'ERROR', code: 'FORMAT_ERROR', text: text.slice(0, 500) };
        return path === undefined ? message : { ...message, path };
      }),
    };
  }
}
