import { VISIBLE_TEXT_MESSAGE, VISIBLE_TEXT_PATTERN } from '../domain/display-text.js';
import { COUNTRY_CODES, CURRENCY_CODES } from '../domain/reference-data.js';

/**
 * Rules on strings that a JSON Schema `pattern` can say, so that any validator reading our OpenAPI document enforces
 * what the service does (decisions §2), each with the message the service words its violation with. Only what a
 * pattern cannot say stays a custom format (the IBAN's checksum, src/http/ajv.ts).
 */
export interface StringRule {
  /** ECMA-262 regular expression, as JSON Schema and OpenAPI 3.1 read it. */
  readonly pattern: string;
  /** `<field path> <this>` is the validation message. */
  readonly message: string;
}

/** Remittance information: `A–Z a–z 0–9 / + -` and space (spec). */
export const REMITTANCE_TEXT: StringRule = {
  pattern: '^[A-Za-z0-9/+\\- ]*$',
  message: 'must contain only letters, digits, /, +, - and spaces',
};

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';

/** IPv4 with four octets 0–255, or IPv6 written out in eight groups without `::` (decisions §2). */
export const PSU_IP_ADDRESS: StringRule = {
  pattern: `^(?:(?:${OCTET}\\.){3}${OCTET}|(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4})$`,
  message: 'must be an IPv4 address (four octets) or a full IPv6 address (eight groups, no ::)',
};

/**
 * An id a client gives and later looks up by (`endToEndId`): printable ASCII (0x20–0x7E) that neither starts nor ends
 * with a space, so never blank. `" "` or `"order-1 "` is a client's bug that would surface later as a failed lookup.
 */
export const CLIENT_ID_TEXT: StringRule = {
  pattern: '^[!-~](?:[ -~]*[!-~])?$',
  message: 'must contain only printable ASCII characters, without leading or trailing spaces',
};

/**
 * The shape of an IBAN (ISO 13616): country code, check digits, 11–30 letters or digits, single spaces between
 * groups allowed. The country's length and the mod-97 checksum are the `iban` format's part.
 */
export const IBAN_SHAPE: StringRule = { pattern: '^[A-Za-z]{2}[0-9]{2}(?: ?[A-Za-z0-9]){11,30}$', message: 'must be a valid IBAN' };

/**
 * Names and addresses (shown to payers, sent to banks): no control characters and no invisible format characters
 * such as bidi overrides or zero-width spaces (src/domain/display-text.ts). Names are stored in NFC.
 */
export const VISIBLE_TEXT: StringRule = { pattern: VISIBLE_TEXT_PATTERN, message: VISIBLE_TEXT_MESSAGE };

const RULES = [REMITTANCE_TEXT, PSU_IP_ADDRESS, CLIENT_ID_TEXT, IBAN_SHAPE, VISIBLE_TEXT];

/** The message for a violated pattern of ours; undefined for any other pattern. */
export function patternMessage(pattern: string): string | undefined {
  return RULES.find((rule) => rule.pattern === pattern)?.message;
}

/** A code list (a JSON Schema `enum` too long to quote in a message) and how its violation is worded. */
export interface CodeListRule {
  readonly values: readonly string[];
  readonly message: string;
}

/**
 * Country and currency codes, in every field that takes one. The lists are upper case only, and a client sending
 * `de` or `eur` is told so rather than that the code is unknown (issue 23).
 */
export const COUNTRY_CODE: CodeListRule = {
  values: COUNTRY_CODES,
  message: 'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
};
export const CURRENCY_CODE: CodeListRule = {
  values: CURRENCY_CODES,
  message: 'must be an ISO 4217 currency code in upper case (e.g. EUR)',
};

const CODE_LISTS = [COUNTRY_CODE, CURRENCY_CODE];

/** The message for a violated enum that is one of our code lists; undefined for any other enum. */
export function codeListMessage(allowed: readonly unknown[]): string | undefined {
  return CODE_LISTS.find((rule) => rule.values.length === allowed.length && rule.values.every((value, index) => allowed[index] === value))
    ?.message;
}
