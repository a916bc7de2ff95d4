/**
 * The request bodies the UK sandbox banks accept, as JSON Schema (TypeBox): `OBWriteDomesticConsent4` (consent) and
 * `OBWriteDomestic2` (payment) of the Payment Initiation API 4.0.0, restricted to the parts a domestic FPS payment
 * uses. They are written here, not read from the standard's YAML, so the sandbox runs without the standards folder;
 * test/sandbox-bank/uk-open-banking/request-schemas.test.ts checks them against the YAML on a corpus of bodies:
 * everything these schemas accept, the standard accepts too, and what the standard forbids, these refuse.
 *
 * Where the standard allows more than the sandbox offers, the sandbox refuses it as unexpected (U005), naming the
 * field: the creditor agent, postal addresses, ultimate parties, regulatory reporting, structured remittance,
 * `Authorisation`, `SCASupportData`, account proxies, and the Risk's purpose codes, account type and delivery
 * address. Bounds and lists are the standard's own (lengths, the amount and currency patterns, the
 * `PaymentContextCode` list); `SchemeName` and `LocalInstrument` are plain strings there (their lists are OBL
 * extensions), and the routes answer unsupported values with the profile's own codes (U027, U026).
 */
import { Type, type TSchema } from 'typebox';
import { ObFormatError, type ObFieldError } from './errors.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

const text = (maxLength: number): TSchema => Type.String({ minLength: 1, maxLength });
const closed = { additionalProperties: false } as const;
/** A code list as the standard writes it (`enum`), so that a wrong value is one error, not one per code. */
const oneOf = <Code extends string>(codes: readonly Code[]): TSchema => Type.Unsafe<Code>({ type: 'string', enum: [...codes] });

function account(nameRequired: boolean): TSchema {
  const name = text(350);
  return Type.Object(
    {
      SchemeName: Type.String(),
      Identification: text(256),
      Name: nameRequired ? name : Type.Optional(name),
      SecondaryIdentification: Type.Optional(text(34)),
    },
    closed,
  );
}

const Initiation = Type.Object(
  {
    InstructionIdentification: text(35),
    EndToEndIdentification: text(35),
    LocalInstrument: Type.Optional(Type.String()),
    InstructedAmount: Type.Object(
      {
        Amount: Type.String({ pattern: '^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$' }),
        Currency: Type.String({ pattern: '^[A-Z]{3,3}$' }),
      },
      closed,
    ),
    DebtorAccount: Type.Optional(account(false)),
    CreditorAccount: account(true),
    // v4 has Unstructured (and Structured, not offered); Reference is v3.1's, which v4's open object still allows.
    RemittanceInformation: Type.Optional(
      Type.Object({ Unstructured: Type.Optional(Type.Array(text(140))), Reference: Type.Optional(text(35)) }, closed),
    ),
    SupplementaryData: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  closed,
);

/** `OBRisk1`, without the purpose codes, account type and delivery address. */
const Risk = Type.Object(
  {
    PaymentContextCode: Type.Optional(
      oneOf([
        'BillingGoodsAndServicesInAdvance',
        'BillingGoodsAndServicesInArrears',
        'EcommerceMerchantInitiatedPayment',
        'FaceToFacePointOfSale',
        'TransferToSelf',
        'TransferToThirdParty',
      ]),
    ),
    MerchantCategoryCode: Type.Optional(Type.String({ minLength: 3, maxLength: 4 })),
    MerchantCustomerIdentification: Type.Optional(text(70)),
    ContractPresentIndicator: Type.Optional(Type.Boolean()),
    BeneficiaryPrepopulatedIndicator: Type.Optional(Type.Boolean()),
  },
  closed,
);

/** `OBWriteDomesticConsent4` as the sandbox accepts it. */
export const DomesticConsentRequestSchema = Type.Object(
  {
    Data: Type.Object({ ReadRefundAccount: Type.Optional(oneOf(['No', 'Yes'])), Initiation }, closed),
    Risk,
  },
  closed,
);

/** `OBWriteDomestic2` as the sandbox accepts it. */
export const DomesticPaymentRequestSchema = Type.Object({ Data: Type.Object({ ConsentId: text(128), Initiation }, closed), Risk }, closed);

// Every problem at once (the answer lists them), nothing removed, coerced or defaulted: the body is judged as sent. The
// schemas use no `format`, so no format plugin is needed.
const ajv = new Ajv({ allErrors: true, removeAdditional: false, coerceTypes: false, useDefaults: false, strict: false });
const validators = {
  consent: ajv.compile(DomesticConsentRequestSchema),
  payment: ajv.compile(DomesticPaymentRequestSchema),
} satisfies Record<string, ValidateFunction>;

/** How many of the body's problems one answer lists (the rest follow once these are mended). */
const MAX_ERRORS = 10;

/** The standard's dotted path of a JSON pointer: `/Data/Initiation/RemittanceInformation/Unstructured/0` → `Data.Initiation.RemittanceInformation.Unstructured[0]`. */
function dottedPath(pointer: string, child?: string): string {
  const parts =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

function fieldError(error: ErrorObject): ObFieldError {
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
      return { name: 'UK.OBIE.Field.Missing', path: dottedPath(error.instancePath, missing), text: `${missing} is required` };
    }
    case 'additionalProperties': {
      const extra = String((error.params as { additionalProperty?: unknown }).additionalProperty);
      return {
        name: 'UK.OBIE.Field.Unexpected',
        path: dottedPath(error.instancePath, extra),
        text: `${extra} is not expected here (or not offered by the sandbox)`,
      };
    }
    case 'format':
      return {
        name: error.params['format'] === 'date-time' ? 'UK.OBIE.Field.InvalidDate' : 'UK.OBIE.Field.Invalid',
        path: dottedPath(error.instancePath),
        text: error.message ?? 'invalid',
      };
    default:
      return { name: 'UK.OBIE.Field.Invalid', path: dottedPath(error.instancePath) || 'body', text: error.message ?? 'invalid' };
  }
}

/**
 * Checks a consent or payment request body against its schema; throws the standard's 400 (OBErrorResponse1 with one
 * entry per problem: U004 missing, U005 unexpected, U002 invalid, U003 bad date) when it does not conform.
 */
export function checkRequestBody(kind: keyof typeof validators, body: unknown): void {
  const validate = validators[kind];
  if (validate(body)) return;
  const errors = (validate.errors ?? []).map(fieldError);
  const unique = [...new Map(errors.map((error) => [`${error.name}|${error.path}`, error])).values()].slice(0, MAX_ERRORS);
  throw new ObFormatError(
    unique.length > 0 ? unique : [{ name: 'UK.OBIE.Field.Invalid', path: 'body', text: 'The body does not conform' }],
  );
}
