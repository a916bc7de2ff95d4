/**
 * Errors in the standard's `OBErrorResponse1` shape: `{ Code, Message, Errors: [{ ErrorCode, Message, Path? }] }`.
 *
 * The v4 `ErrorCode` is a four-character code of OBL's external code set (not part of the published files). The
 * profile names some of them: U003 (badly formatted date), U004 (`UK.OBIE.Field.Missing`), U009 (funds confirmation
 * on a consent that is not AUTH), U027 (`UK.OBIE.Unsupported.Scheme`); they line up with the v3 `UK.OBIE.*` codes in
 * alphabetical order, which this table follows for the rest. Each message starts with the `UK.OBIE.*` name, as the
 * profile's own error example does.
 */
export const OB_ERROR_CODES = {
  'UK.OBIE.Field.Expected': 'U001',
  'UK.OBIE.Field.Invalid': 'U002',
  'UK.OBIE.Field.InvalidDate': 'U003',
  'UK.OBIE.Field.Missing': 'U004',
  'UK.OBIE.Field.Unexpected': 'U005',
  'UK.OBIE.Header.Invalid': 'U006',
  'UK.OBIE.Header.Missing': 'U007',
  'UK.OBIE.Reauthenticate': 'U008',
  'UK.OBIE.Resource.ConsentMismatch': 'U009',
  'UK.OBIE.Resource.InvalidConsentStatus': 'U010',
  'UK.OBIE.Resource.InvalidFormat': 'U011',
  'UK.OBIE.Resource.NotFound': 'U012',
  'UK.OBIE.Rules.AfterCutOffDateTime': 'U013',
  'UK.OBIE.Rules.DuplicateReference': 'U014',
  'UK.OBIE.Signature.Invalid': 'U015',
  'UK.OBIE.Signature.InvalidClaim': 'U016',
  'UK.OBIE.Signature.Malformed': 'U017',
  'UK.OBIE.Signature.Missing': 'U018',
  'UK.OBIE.Signature.MissingClaim': 'U019',
  'UK.OBIE.Signature.Unexpected': 'U020',
  'UK.OBIE.UnexpectedError': 'U021',
  'UK.OBIE.Unsupported.AccountIdentifier': 'U022',
  'UK.OBIE.Unsupported.AccountSecondaryIdentifier': 'U023',
  'UK.OBIE.Unsupported.Currency': 'U024',
  'UK.OBIE.Unsupported.Frequency': 'U025',
  'UK.OBIE.Unsupported.LocalInstrument': 'U026',
  'UK.OBIE.Unsupported.Scheme': 'U027',
} as const;

export type ObErrorName = keyof typeof OB_ERROR_CODES;

export interface ObErrorBody {
  readonly Id: string;
  readonly Code: string;
  readonly Message: string;
  readonly Errors: ReadonlyArray<{ readonly ErrorCode: string; readonly Message: string; readonly Path?: string }>;
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 400: 'BadRequest', 403: 'Forbidden', 404: 'NotFound', 500: 'InternalServerError' };

export class ObError extends Error {
  constructor(
    readonly name_: ObErrorName,
    readonly text: string,
    readonly status: 400 | 403 | 404 | 500 = 400,
    readonly path?: string,
  ) {
    super(`${name_}: ${text}`);
    this.name = 'ObError';
  }

  body(id: string): ObErrorBody {
    const error = { ErrorCode: OB_ERROR_CODES[this.name_], Message: `${this.name_} - ${this.text}`.slice(0, 500) };
    return {
      Id: id.slice(0, 40),
      Code: `${this.status} ${STATUS_TEXT[this.status] ?? 'Error'}`,
      Message: this.text.slice(0, 500),
      Errors: [this.path === undefined ? error : { ...error, Path: this.path }],
    };
  }
}

/** One problem of a request body: its `UK.OBIE.*` name, the field's dotted path, and what is wrong. */
export interface ObFieldError {
  readonly name: ObErrorName;
  readonly path: string;
  readonly text: string;
}

/**
 * A request body that does not conform to the standard's schema: 400 with one `Errors[]` entry per problem (the
 * profile allows several), each with its `ErrorCode` and `Path`.
 */
export class ObFormatError extends ObError {
  constructor(readonly problems: readonly ObFieldError[]) {
    const first = problems[0] ?? { name: 'UK.OBIE.Field.Invalid', path: 'body', text: 'The body does not conform' };
    super(
      first.name,
      problems.length === 1 ? first.text : `The body does not conform to the standard (${problems.length} problems)`,
      400,
      first.path,
    );
    this.name = 'ObFormatError';
  }

  override body(id: string): ObErrorBody {
    return {
      ...super.body(id),
      Errors: this.problems.map((problem) => ({
        ErrorCode: OB_ERROR_CODES[problem.name],
        Message: `${problem.name} - ${problem.text}`.slice(0, 500),
        Path: problem.path,
      })),
    };
  }
}

/** A 401 without a body: no token, or an unknown or expired one (read-write-data-api-profile, "401"). */
export class Unauthenticated extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'Unauthenticated';
  }
}

/** OAuth 2.0 / OIDC errors of the authorisation server (`{ error, error_description }`). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: 400 | 401 | 403 = 400,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }
}
