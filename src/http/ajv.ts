/**
 * The JSON-Schema validator used for every request: Fastify's route validation and the payment validator
 * share these options and formats, so a rule is defined once.
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isValidIBAN, electronicFormatIBAN } from 'ibantools';

// ajv-formats is CommonJS with a default export; under NodeNext its callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const AJV_OPTIONS: Options = {
  // Every violation is reported at once (decisions §2: one message lists them all).
  allErrors: true,
  // Unknown properties are errors, never silently dropped (decisions §1).
  removeAdditional: false,
  // "10" is not a number: no type coercion on JSON bodies.
  coerceTypes: false,
  useDefaults: false,
  strict: false,
};

/** IBAN with the right length for its country and a valid mod-97 checksum; spaces are allowed for grouping. */
export function isIban(value: string): boolean {
  return isValidIBAN(electronicFormatIBAN(value) ?? '');
}

/**
 * The one custom format left: `iban`, the checksum no pattern can compute (the IBAN's shape is a pattern,
 * src/http/string-rules.ts). Every other rule on strings is a `pattern`, which any JSON Schema validator enforces.
 */
export const IBAN_FORMAT_NOTE = "ISO 13616 IBAN: the country's length and valid mod-97 check digits (spaces between groups allowed)";

/** Registers the formats our schemas use on an ajv instance. */
export function addOpenpisFormats(ajv: Ajv): Ajv {
  addFormats(ajv, ['uuid', 'uri', 'date-time']);
  ajv.addFormat('iban', { type: 'string', validate: isIban });
  return ajv;
}

export function createAjv(): Ajv {
  return addOpenpisFormats(new Ajv(AJV_OPTIONS));
}

/**
 * Query strings carry text only: `limit=20` is the number 20, and one `status=PENDING` is a list of one. Routes
 * whose query has numbers or lists validate it with this instance (the JSON bodies never coerce).
 */
export function createQueryStringAjv(): Ajv {
  return addOpenpisFormats(new Ajv({ ...AJV_OPTIONS, coerceTypes: 'array' }));
}
