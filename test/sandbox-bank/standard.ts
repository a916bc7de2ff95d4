/**
 * Checks requests and responses against the Berlin Group NextGenPSD2 1.3.12 OpenAPI file itself, loaded at test
 * time from the shared standards folder beside the repository (never copied into the project).
 *
 * The file is read as published, with three readings where it cannot be taken literally, each noted where applied:
 * `oneOf` over variants that all admit extra properties (they overlap, so "exactly one" can never hold) is read as
 * `anyOf`; boolean `exclusiveMinimum` (OpenAPI 3.0) becomes its numeric form; the empty schema `{}` among request-body variants means "empty body"; and `tppMessageGeneric.code`, which
 * points at the category enum (ERROR/WARNING) instead of a message code, is read as a message code string.
 * Payment products outside the path enum (the domestic ones the catalogue names) are ASPSP-published products, as
 * the parameter's description allows, so path parameters are not checked against that enum.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { adaptOpenApi, berlinGroupReadings, isJsonObject, type Json, type JsonObject } from '../../scripts/openapi-readings.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const STANDARD_PATH = path.resolve(repoRoot, '../shared/standards/berlin-group/psd2-api-1.3.12.yaml');

export type { Json, JsonObject };

const isObject = isJsonObject;
const adapt = adaptOpenApi;

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly node: JsonObject;
}

export interface Exchange {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
}

export class Standard {
  private readonly document: JsonObject;
  private readonly ajv: Ajv;
  private readonly operations = new Map<string, Operation>();
  private readonly compiled = new Map<string, ValidateFunction>();

  /**
   * `file` defaults to the Berlin Group definition with its readings; another standard's definition (the UK Open
   * Banking one, test/sandbox-bank/uk-open-banking/standard.ts) brings its own `readings`, applied after `adapt`.
   */
  constructor(file = STANDARD_PATH, readings: (document: JsonObject) => void = berlinGroupReadings) {
    const raw = parse(readFileSync(file, 'utf8')) as Json;
    const document = adapt(raw);
    if (!isObject(document)) throw new Error('The standard is not a YAML mapping');
    readings(document);
    this.document = document;
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
    const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
    addFormats(this.ajv);
    this.ajv.addFormat('url', (value: string) => URL.canParse(value) || value.startsWith('/'));
    this.ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
    this.ajv.addSchema(document, 'bg');
    const paths = document['paths'] as JsonObject;
    for (const [pathName, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      for (const [method, node] of Object.entries(item)) {
        if (isObject(node) && typeof node['operationId'] === 'string') {
          this.operations.set(node['operationId'], { method: method.toUpperCase(), path: pathName, node });
        }
      }
    }
  }

  operation(operationId: string): Operation {
    const operation = this.operations.get(operationId);
    if (operation === undefined) throw new Error(`No operation ${operationId} in the standard`);
    return operation;
  }

  private resolve(node: Json | undefined): JsonObject | undefined {
    if (!isObject(node)) return undefined;
    const ref = node['$ref'];
    if (typeof ref !== 'string') return node;
    let target: Json | undefined = this.document;
    for (const part of ref.replace(/^#\//, '').split('/')) target = isObject(target) ? target[part] : undefined;
    return this.resolve(target);
  }

  private validator(schema: JsonObject, key: string): ValidateFunction {
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      // Rewrites local refs so they point into the document registered as "bg".
      const rebased = JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"bg#/')) as object;
      validate = this.ajv.compile(rebased);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private check(schema: JsonObject, key: string, value: unknown, where: string): string[] {
    const validate = this.validator(schema, key);
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 8).map((error) => `${where}${error.instancePath} ${error.message ?? ''}`.trim());
  }

  private parameters(operation: Operation): JsonObject[] {
    const list = operation.node['parameters'];
    return Array.isArray(list) ? list.map((item) => this.resolve(item)).filter((item): item is JsonObject => item !== undefined) : [];
  }

  /** Problems of a request: required headers and their formats, query parameters, and the JSON body. */
  validateRequest(operationId: string, request: Exchange & { readonly query?: Readonly<Record<string, string>> }): string[] {
    const operation = this.operation(operationId);
    const problems: string[] = [];
    const lowerHeaders = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    for (const parameter of this.parameters(operation)) {
      const name = parameter['name'];
      if (typeof name !== 'string') throw new Error(`${operationId}: a parameter without a name in the standard's document`);
      const where = parameter['in'];
      const schema = this.resolve(parameter['schema']);
      let value: string | undefined;
      if (where === 'header') value = lowerHeaders.get(name.toLowerCase());
      else if (where === 'query') value = request.query?.[name];
      else continue;
      if (value === undefined) {
        if (parameter['required'] === true) problems.push(`header/query ${name} is required`);
        continue;
      }
      if (schema !== undefined && schema['type'] !== 'boolean') {
        problems.push(...this.check(schema, `${operationId}:param:${name}`, value, `${name}`));
      } else if (schema !== undefined && value !== 'true' && value !== 'false') {
        problems.push(`${name} must be true or false`);
      }
    }
    const requestBody = this.resolve(operation.node['requestBody']);
    if (requestBody !== undefined && request.body !== undefined) {
      const json = this.resolve(this.resolve(requestBody['content'])?.['application/json']);
      const schema = json?.['schema'];
      if (!isObject(schema)) problems.push('the operation takes no JSON body');
      else problems.push(...this.check(schema, `${operationId}:request`, request.body, 'body'));
    } else if (requestBody !== undefined && requestBody['required'] === true && request.body === undefined) {
      problems.push('a request body is required');
    }
    return problems;
  }

  /** Problems of a JSON request body alone, against the operation's request schema. */
  validateRequestBody(operationId: string, body: unknown): string[] {
    const requestBody = this.resolve(this.operation(operationId).node['requestBody']);
    const json = this.resolve(this.resolve(requestBody?.['content'])?.['application/json']);
    const schema = json?.['schema'];
    if (!isObject(schema)) return ['the operation takes no JSON body'];
    return this.check(schema, `${operationId}:request`, body, 'body');
  }

  /** Problems of a response: the status must be one the operation defines, with its headers and body schema. */
  validateResponse(operationId: string, status: number, response: Exchange): string[] {
    const operation = this.operation(operationId);
    const responses = operation.node['responses'];
    const definition = this.resolve(isObject(responses) ? responses[String(status)] : undefined);
    if (definition === undefined) return [`status ${status} is not defined for ${operationId}`];
    const problems: string[] = [];
    const headers = this.resolve(definition['headers']) ?? {};
    const lowerHeaders = new Map(Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]));
    for (const [name, node] of Object.entries(headers)) {
      const header = this.resolve(node);
      if (header === undefined) continue;
      const value = lowerHeaders.get(name.toLowerCase());
      if (value === undefined) {
        if (header['required'] === true) problems.push(`response header ${name} is required`);
        continue;
      }
      const schema = this.resolve(header['schema']);
      if (schema !== undefined && schema['type'] === 'string') {
        problems.push(...this.check(schema, `${operationId}:${status}:header:${name}`, value, name));
      }
    }
    const content = this.resolve(definition['content']);
    const json = this.resolve(content?.['application/json']);
    if (json === undefined) {
      if (response.body !== undefined && response.body !== '')
        problems.push(`status ${status} of ${operationId} has no body in the standard`);
      return problems;
    }
    const schema = json['schema'];
    if (response.body === undefined || response.body === '') return [...problems, `status ${status} needs a JSON body`];
    if (isObject(schema)) problems.push(...this.check(schema, `${operationId}:${status}`, response.body, 'body'));
    return problems;
  }
}
