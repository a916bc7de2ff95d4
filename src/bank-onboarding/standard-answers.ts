/**
 * Bank answers checked against the standard's OpenAPI file, through the compact schema set generated from it
 * (standard-schemas.json, scripts/standard-schemas.ts; docs/adr/0010-bank-check-schemas.md): the operation is found
 * by method and path below the API's base, then the status must be one it defines, with its required headers and
 * its body's schema.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

export type CheckedStandard = 'berlin-group' | 'uk-open-banking';

interface CompactAnswer {
  readonly schema: unknown;
  readonly requiredHeaders: readonly string[];
}

interface CompactOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly answers: Readonly<Record<string, CompactAnswer>>;
}

interface CompactStandard {
  readonly source: string;
  readonly operations: readonly CompactOperation[];
  readonly components: { readonly schemas: Record<string, unknown> };
}

/** One answer as it came from the bank. */
export interface BankAnswer {
  readonly method: string;
  /** The path below the API's base (the Berlin Group `baseUrl`, the UK resource base). */
  readonly path: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body text ('' for none). */
  readonly body: string;
}

export interface AnswerValidation {
  readonly operationId: string | undefined;
  /** Empty: the answer is as the standard defines it. */
  readonly problems: readonly string[];
}

let loaded: Record<CheckedStandard, CompactStandard> | undefined;

function schemaSet(): Record<CheckedStandard, CompactStandard> {
  loaded ??= JSON.parse(readFileSync(new URL('./standard-schemas.json', import.meta.url), 'utf8')) as Record<
    CheckedStandard,
    CompactStandard
  >;
  return loaded;
}

export class StandardAnswers {
  private readonly standard: CompactStandard;
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly name: CheckedStandard) {
    this.standard = schemaSet()[name];
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
    (addFormatsModule as unknown as (ajv: Ajv) => Ajv)(this.ajv);
    this.ajv.addFormat('url', (value: string) => URL.canParse(value) || value.startsWith('/'));
    this.ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
    this.ajv.addSchema({ components: this.standard.components }, 'standard');
  }

  /** Which file the schemas come from (for the operator's report). */
  get source(): string {
    return this.standard.source;
  }

  validate(answer: BankAnswer): AnswerValidation {
    const operation = this.standard.operations.find(
      (candidate) => candidate.method === answer.method && templateMatches(candidate.path, answer.path),
    );
    if (operation === undefined) return { operationId: undefined, problems: [] };
    const definition = operation.answers[String(answer.status)];
    if (definition === undefined)
      return {
        operationId: operation.operationId,
        problems: [`HTTP ${answer.status} is not an answer the standard defines for ${operation.operationId}`],
      };
    const problems = definition.requiredHeaders
      .filter((name) => answer.headers[name] === undefined)
      .map((name) => `the ${name} header is missing`);
    if (definition.schema === null) {
      if (answer.body.trim() !== '') problems.push(`HTTP ${answer.status} has no body in the standard, but the bank sent one`);
      return { operationId: operation.operationId, problems };
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.body) as unknown;
    } catch {
      return { operationId: operation.operationId, problems: [...problems, 'the body is not JSON'] };
    }
    const validate = this.validator(`${operation.operationId}:${answer.status}`, definition.schema);
    if (!validate(body)) {
      problems.push(...(validate.errors ?? []).slice(0, 5).map((error) => `body${error.instancePath} ${error.message ?? 'is invalid'}`));
    }
    return { operationId: operation.operationId, problems };
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      // Local refs point into the components registered as "standard".
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"standard#/')) as object);
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

/** `/v1/{payment-service}/{payment-product}` matches `/v1/payments/sepa-credit-transfers`. */
function templateMatches(template: string, path: string): boolean {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}/?$`).test(path.split('?')[0] ?? path);
}
