/**
 * Checks the requests a connector sends against the Berlin Group's own OpenAPI definition (read from the shared
 * standards folder at test time, never copied into the project): path template, path parameters, header
 * parameters (required ones present, values valid) and the JSON body.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
export const BERLIN_GROUP_YAML = path.resolve(repoRoot, '../shared/standards/berlin-group/psd2-api-1.3.11.yaml');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A request as seen on the wire, with the path relative to the bank's base URL (starting `/v1/`). */
export interface RecordedRequest {
  readonly method: string;
  /** Path relative to the bank's API root, e.g. `/v1/payments/sepa-credit-transfers`, without query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, undefined without body. */
  readonly body: unknown;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}

interface Operation {
  parameters?: Json[];
  requestBody?: Json;
}

/** Options of the check. */
export interface OpenApiOptions {
  /**
   * Accept payment initiations without `debtorAccount`. The definition makes it mandatory, but ASPSPs that let
   * the PSU pick the account during SCA accept initiations without it (catalogue: `requiresDebtorAccount: false`),
   * and the connector omits it when the sender is unknown.
   */
  readonly debtorAccountOptional?: boolean;
}

/**
 * OpenAPI 3.0 writes `exclusiveMinimum: true` beside `minimum`; JSON Schema (ajv) wants the bound as a number.
 * Rewrites those (and drops `false`), and leaves everything else as is.
 */
function toJsonSchemaDialect(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchemaDialect);
  if (node === null || typeof node !== 'object') return node;
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    // The authorisation bodies are `oneOf: [{}, updatePsuAuthentication, ...]`: the empty schema matches every
    // body, so a literal oneOf could never pass. The intent is "an empty body, or exactly one of these".
    if (key === 'oneOf' && Array.isArray(value)) {
      result[key] = value.map((branch) =>
        branch !== null && typeof branch === 'object' && !Array.isArray(branch) && Object.keys(branch).length === 0
          ? { type: 'object', maxProperties: 0 }
          : toJsonSchemaDialect(branch),
      );
      continue;
    }
    if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
      const bound = node[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
      if (value && typeof bound === 'number') result[key] = bound;
      continue;
    }
    result[key] = toJsonSchemaDialect(value);
  }
  return result;
}

export class BerlinGroupOpenApi {
  private readonly document: JsonObject;
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; literalSegments: number; names: string[] }[];

  constructor(options: OpenApiOptions = {}, file = BERLIN_GROUP_YAML) {
    this.document = parse(readFileSync(file, 'utf8')) as JsonObject;
    if (options.debtorAccountOptional === true) {
      const schemas = (this.document['components'] as JsonObject)['schemas'] as JsonObject;
      const payment = schemas['paymentInitiation_json'] as JsonObject;
      payment['required'] = (payment['required'] as Json[]).filter((name) => name !== 'debtorAccount');
    }
    const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
    this.ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    addFormats(this.ajv);
    // The definition uses `format: url` (not a JSON Schema format); accept any string as ajv-formats has no `url`.
    this.ajv.addFormat('url', true);
    this.ajv.addSchema({ $id: 'psd2', components: toJsonSchemaDialect(this.document['components'] ?? {}) });
    const paths = this.document['paths'] as JsonObject;
    this.templates = Object.keys(paths).map((template) => {
      const names: string[] = [];
      const source = template
        .trim()
        .split('/')
        .map((segment) => {
          const match = /^\{(.+)\}$/.exec(segment);
          if (match?.[1] === undefined) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(match[1]);
          return '([^/]+)';
        })
        .join('/');
      return {
        template,
        pattern: new RegExp(`^${source}$`),
        literalSegments: template.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length,
        names,
      };
    });
    // Most literal first, so `/v1/consents/{consentId}` wins over `/v1/{payment-service}/{payment-product}`.
    this.templates.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** Every problem of one request; empty when it follows the standard. */
  validate(request: RecordedRequest): string[] {
    const method = request.method.toLowerCase();
    const paths = this.document['paths'] as JsonObject;
    const candidates = this.templates.filter((entry) => entry.pattern.test(request.path));
    if (candidates.length === 0) return [`${request.method} ${request.path}: no such path in the standard`];
    let firstProblems: string[] | undefined;
    for (const candidate of candidates) {
      const operation = (paths[candidate.template] as JsonObject | undefined)?.[method] as Operation | undefined;
      if (operation === undefined) continue;
      const problems = this.validateOperation(request, candidate, operation);
      if (problems.length === 0) return [];
      firstProblems ??= problems;
    }
    return firstProblems ?? [`${request.method} ${request.path}: method not defined for this path`];
  }

  private validateOperation(
    request: RecordedRequest,
    candidate: { template: string; pattern: RegExp; names: string[] },
    operation: Operation,
  ): string[] {
    const label = `${request.method} ${candidate.template}`;
    const problems: string[] = [];
    const pathValues = candidate.pattern.exec(request.path)?.slice(1) ?? [];
    const lowerHeaders = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    for (const raw of operation.parameters ?? []) {
      const parameter = this.resolve(raw) as unknown as Parameter;
      let value: string | undefined;
      if (parameter.in === 'path') {
        const index = candidate.names.indexOf(parameter.name);
        value = index < 0 ? undefined : decodeURIComponent(pathValues[index] ?? '');
      } else if (parameter.in === 'header') {
        value = lowerHeaders.get(parameter.name.toLowerCase());
      } else {
        continue;
      }
      if (value === undefined) {
        if (parameter.required === true) problems.push(`${label}: missing required ${parameter.in} ${parameter.name}`);
        continue;
      }
      if (parameter.schema !== undefined) {
        const schema = this.resolve(parameter.schema) as JsonObject;
        const typed: unknown = schema['type'] === 'boolean' ? (value === 'true' ? true : value === 'false' ? false : value) : value;
        const validate = this.compile(`param:${parameter.in}:${parameter.name}:${JSON.stringify(parameter.schema)}`, parameter.schema);
        if (!validate(typed)) {
          problems.push(`${label}: ${parameter.in} ${parameter.name} ${this.ajv.errorsText(validate.errors)}`);
        }
      }
    }
    if (request.body !== undefined) {
      const requestBody = operation.requestBody === undefined ? undefined : (this.resolve(operation.requestBody) as JsonObject);
      const content = (requestBody?.['content'] as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
      const schema = content?.['schema'];
      if (schema === undefined) {
        problems.push(`${label}: the standard defines no JSON body here`);
      } else {
        const validate = this.compile(`body:${candidate.template}:${request.method}`, schema);
        if (!validate(request.body)) problems.push(`${label}: body ${this.ajv.errorsText(validate.errors)}`);
      }
    }
    return problems;
  }

  /** Validates a value against `#/components/schemas/<name>`. */
  validateSchema(name: string, value: unknown): string[] {
    const validate = this.compile(`schema:${name}`, { $ref: `#/components/schemas/${name}` });
    return validate(value) ? [] : [`${name}: ${this.ajv.errorsText(validate.errors)}`];
  }

  private compile(key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(rebase(toJsonSchemaDialect(schema)) as object);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Follows a local `$ref` in the document (for parameters and request bodies). */
  private resolve(node: Json): Json {
    let current = node;
    for (let depth = 0; depth < 10; depth += 1) {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return current;
      const ref = current['$ref'];
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return current;
      current = ref
        .slice(2)
        .split('/')
        .reduce<Json>((value, key) => (value as JsonObject)[key] ?? null, this.document);
    }
    return current;
  }
}

/** Points `#/components/...` references at the schema registered as `psd2`. */
function rebase(node: Json): Json {
  if (Array.isArray(node)) return node.map(rebase);
  if (node === null || typeof node !== 'object') return node;
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    result[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `psd2${value}` : rebase(value);
  }
  return result;
}

const shared = new Map<boolean, BerlinGroupOpenApi>();

/** One parsed definition per option and test process (parsing the 530 KB YAML takes a moment). */
export function berlinGroupOpenApi(options: OpenApiOptions = {}): BerlinGroupOpenApi {
  const key = options.debtorAccountOptional === true;
  let api = shared.get(key);
  if (api === undefined) {
    api = new BerlinGroupOpenApi(options);
    shared.set(key, api);
  }
  return api;
}
