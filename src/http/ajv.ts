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

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6_FULL = /^(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}$/;

/** IPv4 with four octets 0–255, or IPv6 written out in eight groups without `::` (decisions §2). */
export function isPsuIpAddress(value: string): boolean {
  return IPV4.test(value) || IPV6_FULL.test(value);
}

/** IBAN with the right length for its country and a valid mod-97 checksum; spaces are allowed for grouping. */
export function isIban(value: string): boolean {
  return isValidIBAN(electronicFormatIBAN(value) ?? '');
}

/** `A–Z a–z 0–9 / + -` and space (spec, remittance information). */
export const REMITTANCE_PATTERN = /^[A-Za-z0-9/+\- ]*$/;

/** Registers the formats our schemas use on an ajv instance. */
export function addOpenpisFormats(ajv: Ajv): Ajv {
  addFormats(ajv, ['uuid', 'uri', 'date-time']);
  ajv.addFormat('iban', { type: 'string', validate: isIban });
  ajv.addFormat('psu-ip-address', { type: 'string', validate: isPsuIpAddress });
  ajv.addFormat('remittance', { type: 'string', validate: (value: string) => REMITTANCE_PATTERN.test(value) });
  ajv.addFormat('printable-ascii', { type: 'string', validate: (value: string) => /^[\x20-\x7e]*$/.test(value) });
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
