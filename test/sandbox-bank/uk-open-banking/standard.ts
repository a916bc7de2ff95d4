/**
 * The UK Open Banking Payment Initiation API 4.0.0 OpenAPI definition, read at test time from the shared standards
 * folder (never copied into the project), through the same checker as the Berlin Group one
 * (test/sandbox-bank/standard.ts).
 *
 * Where the definition cannot be taken literally, it is read as follows (each reading is applied here or in the
 * shared checker, and nowhere else):
 * 1. `oneOf` is read as `anyOf`, and boolean `exclusiveMinimum`/`exclusiveMaximum` as their numeric form (shared
 *    checker): OpenAPI 3.0 spellings ajv does not take literally.
 * 2. `x-namespaced-enum` lists (SchemeName, LocalInstrument, …) are an OBL extension, not JSON Schema; ajv ignores
 *    them, so the flow tests assert the values the sandbox uses (UK.OBIE.SortCodeAccountNumber, UK.OBIE.FPS).
 * 3. Answers produced by fault injection (500/503 without a body, delays, dropped connections) are not checked: 503
 *    is not in the definition at all, and a fault's purpose is to break the contract.
 * 4. `Links.Self` is `format: uri`; the sandbox's absolute http URLs satisfy it as they are (no reading needed, noted
 *    because the Berlin Group checker adds a `url` format).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Standard, type JsonObject } from '../standard.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const UK_STANDARD_PATH = path.resolve(repoRoot, '../shared/standards/uk-open-banking/payment-initiation-openapi-4.0.0.yaml');

/** No readings beyond the shared ones (listed above). */
function ukReadings(_document: JsonObject): void {}

let standard: Standard | undefined;
export function ukStandard(): Standard {
  standard ??= new Standard(UK_STANDARD_PATH, ukReadings);
  return standard;
}

/** operationIds of the domestic payment operations, by method and path under `/open-banking/v4.0/pisp`. */
export const OPERATIONS = {
  createConsent: 'CreateDomesticPaymentConsents',
  getConsent: 'GetDomesticPaymentConsentsConsentId',
  fundsConfirmation: 'GetDomesticPaymentConsentsConsentIdFundsConfirmation',
  createPayment: 'CreateDomesticPayments',
  getPayment: 'GetDomesticPaymentsDomesticPaymentId',
  paymentDetails: 'GetDomesticPaymentsDomesticPaymentIdPaymentDetails',
} as const;
