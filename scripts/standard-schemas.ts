/**
 * The compact schema set `openpis banks check` validates bank answers with (docs/adr/0010-bank-check-schemas.md):
 * from each standard's OpenAPI file, the operations the check calls, each answer's JSON body schema and required
 * headers by status, and the component schemas they reach — read with the readings of openapi-readings.ts.
 * `npm run standards:schemas` writes it to src/bank-onboarding/standard-schemas.json; a test regenerates it from the
 * files and fails when the committed copy differs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { adaptOpenApi, berlinGroupReadings, isJsonObject, type Json, type JsonObject } from './openapi-readings.js';

/** The operations each standard's check calls, by operationId. */
const OPERATIONS = {
  'berlin-group': {
    file: 'berlin-group/psd2-api-1.3.12.yaml',
    readings: berlinGroupReadings,
    operationIds: ['initiatePayment', 'getPaymentInformation', 'getPaymentInitiationStatus', 'cancelPayment'],
  },
  'uk-open-banking': {
    file: 'uk-open-banking/payment-initiation-openapi-4.0.0.yaml',
    readings: (_document: JsonObject): void => undefined,
    operationIds: [
      'CreateDomesticPaymentConsents',
      'GetDomesticPaymentConsentsConsentId',
      'GetDomesticPaymentConsentsConsentIdFundsConfirmation',
      'CreateDomesticPayments',
      'GetDomesticPaymentsDomesticPaymentId',
      'GetDomesticPaymentsDomesticPaymentIdPaymentDetails',
    ],
  },
} as const;

export interface CompactAnswer {
  /** The body's schema (refs into `components.schemas`); null: the standard defines no body. */
  readonly schema: Json;
  readonly requiredHeaders: readonly string[];
}

export interface CompactOperation {
  readonly operationId: string;
  readonly method: string;
  /** The path template below the API's base (`/v1/{payment-service}/{payment-product}`). */
  readonly path: string;
  readonly answers: Readonly<Record<string, CompactAnswer>>;
}

export interface CompactStandard {
  readonly source: string;
  readonly operations: readonly CompactOperation[];
  readonly components: { readonly schemas: JsonObject };
}

export type CompactSchemaSet = Readonly<Record<keyof typeof OPERATIONS, CompactStandard>>;

export function generateStandardSchemas(standardsDir: string): CompactSchemaSet {
  const entries = Object.entries(OPERATIONS).map(([standard, definition]) => {
    const document = adaptOpenApi(parse(readFileSync(path.join(standardsDir, definition.file), 'utf8')) as Json);
    if (!isJsonObject(document)) throw new Error(`${definition.file} is not a YAML mapping`);
    definition.readings(document);
    return [standard, compact(document, definition.file, definition.operationIds)] as const;
  });
  return Object.fromEntries(entries) as unknown as CompactSchemaSet;
}

function compact(document: JsonObject, source: string, operationIds: readonly string[]): CompactStandard {
  const resolve = (node: Json | undefined): JsonObject | undefined => {
    if (!isJsonObject(node)) return undefined;
    const ref = node['$ref'];
    if (typeof ref !== 'string') return node;
    let target: Json | undefined = document;
    for (const part of ref.replace(/^#\//, '').split('/')) target = isJsonObject(target) ? target[part] : undefined;
    return resolve(target);
  };
  const operations: CompactOperation[] = [];
  for (const [pathName, item] of Object.entries(document['paths'] as JsonObject)) {
    if (!isJsonObject(item)) continue;
    for (const [method, node] of Object.entries(item)) {
      if (!isJsonObject(node) || typeof node['operationId'] !== 'string' || !operationIds.includes(node['operationId'])) continue;
      const answers: Record<string, CompactAnswer> = {};
      for (const [status, response] of Object.entries(resolve(node['responses']) ?? {})) {
        const definition = resolve(response);
        if (definition === undefined) continue;
        const headers = resolve(definition['headers']) ?? {};
        const requiredHeaders = Object.entries(headers)
          .filter(([, header]) => resolve(header)?.['required'] === true)
          .map(([name]) => name.toLowerCase());
        const json = resolve(resolve(definition['content'])?.['application/json']);
        answers[status] = { schema: json?.['schema'] ?? null, requiredHeaders };
      }
      operations.push({ operationId: node['operationId'], method: method.toUpperCase(), path: pathName, answers });
    }
  }
  const missing = operationIds.filter((id) => !operations.some((operation) => operation.operationId === id));
  if (missing.length > 0) throw new Error(`${source} has no operation ${missing.join(', ')}`);
  // The component schemas the answers reach, and the ones those reach.
  const schemas = (document['components'] as JsonObject)['schemas'] as JsonObject;
  const kept: JsonObject = {};
  const visit = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isJsonObject(node)) return;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      if (name === undefined) throw new Error(`${source}: a reference outside components.schemas: ${ref}`);
      if (kept[name] === undefined) {
        kept[name] = schemas[name] ?? null;
        visit(schemas[name] ?? null);
      }
    }
    Object.values(node).forEach(visit);
  };
  operations.forEach((operation) => Object.values(operation.answers).forEach((answer) => visit(answer.schema)));
  const sorted = Object.fromEntries(Object.entries(kept).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { source: path.basename(source), operations, components: { schemas: sorted } };
}
