/**
 * The OpenAPI 3.1 document (served at /openapi.json, committed as openapi.json): the contract integrators generate
 * code from. Routes declare their own operation, schemas, examples and route-specific headers; this file adds what
 * holds for every operation alike, so that it is said once and said everywhere:
 * - named schemas: every schema with a `title` becomes `components.schemas[title]`, referenced by `$ref`;
 * - list parameters of query strings as comma-separated values (`style: form, explode: false`);
 * - the headers every answer carries (`X-Request-ID`; the rate limit's on every answer that passed authentication;
 *   `WWW-Authenticate` on 401, `Retry-After` on 429), and the `X-Request-ID` request header;
 * - media-type examples taken from the schemas' own `examples`;
 * - the `webhooks` section (the body is the event feed's `data`, so one schema serves both).
 * test/http/openapi-contract.test.ts checks the document against what the service really answers.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import { AUTH_REALM } from './errors.js';

type Json = null | boolean | number | string | Json[] | JsonObject;
interface JsonObject {
  [key: string]: Json;
}

const SCHEMAS = '#/components/schemas/';
const HEADERS = '#/components/headers/';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Headers the service sends; described once, referenced from every response that carries them. */
const RESPONSE_HEADERS: JsonObject = {
  'X-Request-ID': {
    description:
      "The request's id: the one the client sent in `X-Request-ID` when well-formed (1–128 of `A–Z a–z 0–9 . _ : -`), otherwise a new UUID. It is in the service's logs and is sent on to the banks; quote it when reporting a problem.",
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128, examples: ['4f2a1c9e-8b7d-4e6f-9a3b-2c1d0e9f8a7b'] },
  },
  'RateLimit-Policy': {
    description: 'The per-client rate limit (IETF RateLimit headers): `q` requests in a burst, refilled over `w` seconds.',
    required: true,
    schema: { type: 'string', examples: ['"per-client";q=200;w=2'] },
  },
  RateLimit: {
    description: 'Requests `r` left in the burst now, and `t` seconds until it is full again.',
    required: true,
    schema: { type: 'string', examples: ['"per-client";r=199;t=1'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', minimum: 1, examples: [1] },
  },
  'WWW-Authenticate-Bearer': {
    description: `The bearer challenge (RFC 6750): \`Bearer realm="${AUTH_REALM}"\` when no bearer token was sent, with \`error="invalid_token"\` for a malformed, unknown, expired or revoked one.`,
    required: true,
    schema: { type: 'string', examples: [`Bearer realm="${AUTH_REALM}", error="invalid_token"`] },
  },
};

/** Response header name → component, for the headers added to every operation. */
const RATE_LIMITED = { 'RateLimit-Policy': { $ref: `${HEADERS}RateLimit-Policy` }, RateLimit: { $ref: `${HEADERS}RateLimit` } };

const WEBHOOK_HEADER_PARAMETERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's id, the same on every retry and the `id` of the event in `GET /api/v1/events`: deduplicate on it.",
    schema: { type: 'string', examples: ['9b1e4c7a-2d3f-4a5b-8c6d-7e8f9a0b1c2d'] },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix time (seconds) of this attempt; changes on every retry. Reject it when it is more than 5 minutes off (replays).',
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['1740823530'] },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks v1 signatures, space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed with your `whsec_…` secret; two during a secret rotation. Verify the raw body bytes with a Standard Webhooks library.',
    schema: { type: 'string', examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] },
  },
];

const WEBHOOKS: JsonObject = {
  'payment.status.updated': {
    post: {
      operationId: 'paymentStatusUpdatedWebhook',
      // Not an OpenAPI security scheme: each request is signed (Standard Webhooks), see the headers below.
      security: [],
      tags: ['Webhooks'],
      summary: 'A payment changed status',
      description:
        "Sent to the payment's `metadata.webhookUrl` for every status record, in order per payment, at least once (docs/webhooks.md). The same events, with the same ids and bodies, are in `GET /api/v1/events`. New fields and new event types may appear: ignore what you do not know.",
      parameters: WEBHOOK_HEADER_PARAMETERS,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `${SCHEMAS}PaymentStatusUpdatedWebhook` } } },
      },
      responses: {
        '200': { description: 'Received. Any 2xx within 15 seconds counts; the body is ignored.' },
        '410': { description: 'Gone: no further events of this payment are sent to this URL.' },
        '500': {
          description:
            'Any other answer, a timeout or a connection error is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (with jitter; `Retry-After` honoured within bounds).',
        },
      },
    },
  },
  'payment_link.*': {
    post: {
      operationId: 'paymentLinkWebhook',
      security: [],
      tags: ['Webhooks'],
      summary: 'A payment link was paid, expired or was deactivated',
      description:
        "Sent to the link's `metadata.webhookUrl` when it enters a final status: `payment_link.paid`, `payment_link.expired` or `payment_link.deactivated` (docs/webhooks.md). Signed and retried as payments' webhooks; the same events are in `GET /api/v1/events`.",
      parameters: WEBHOOK_HEADER_PARAMETERS,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `${SCHEMAS}PaymentLinkWebhook` } } },
      },
      responses: {
        '200': { description: 'Received. Any 2xx within 15 seconds counts; the body is ignored.' },
        '410': { description: 'Gone: no further events of this link are sent to this URL.' },
        '500': { description: "Retried as payments' webhooks are." },
      },
    },
  },
};

/** `X-Request-ID` as the client may send it. */
const REQUEST_ID_PARAMETER: JsonObject = {
  name: 'X-Request-ID',
  in: 'header',
  required: false,
  description:
    'Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one.',
  schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]{1,128}$', examples: ['order-1001-attempt-1'] },
};

export function openApiDocumentation(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'openpis: payment initiation API',
        version: '1.0.0',
        description:
          'Open-banking payment initiation: create a payment, send the payer to `redirectUrl`, then follow the status by the status endpoints, the event feed or webhooks. A redirect back to you never proves success: check the final status.\n\nStatuses, detailed statuses, failure codes and event types are open lists: new values may appear, so accept values you do not know (treat an unknown status as not final).',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        contact: { name: 'openpis maintainers' },
      },
      // Relative: the service that serves this document (the committed copy names no machine).
      servers: [{ url: '/', description: 'The service serving this document' }],
      tags: [
        { name: 'Authentication', description: 'OAuth 2.0 client credentials' },
        { name: 'Payments', description: 'Create payments, read them, list them' },
        { name: 'Payment links', description: 'Links payers open to pay: create them, read them, list them, deactivate them' },
        { name: 'Refunds', description: "Pay a completed payment back to the payer's account, authorised by the merchant" },
        { name: 'Payment statuses', description: 'The status history of a payment' },
        { name: 'Events', description: 'The event feed: the webhooks, to read at your own pace' },
        { name: 'Providers', description: 'Banks available to the caller' },
        { name: 'Webhooks', description: 'What openpis sends to your `webhookUrl`' },
      ],
      components: {
        securitySchemes: {
          basicAuth: {
            type: 'http',
            scheme: 'basic',
            description:
              'clientId:clientSecret, token endpoint only (OAuth `client_secret_basic`). The token endpoint equally takes `client_id` and `client_secret` in its form body instead (`client_secret_post`, RFC 6749 §2.3.1; OpenAPI has no scheme type for credentials in a body): one method per request, never both.',
          },
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from POST /api/v1/auth/token' },
        },
        headers: RESPONSE_HEADERS as never,
        parameters: {
          RequestId: REQUEST_ID_PARAMETER,
        } as never,
      },
      webhooks: WEBHOOKS as never,
    },
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? completeDocument(documentObject.openapiObject as unknown as JsonObject)
        : documentObject.swaggerObject,
  };
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The document with the additions above; pure, so the served and the committed documents are the same. */
export function completeDocument(document: JsonObject): JsonObject {
  const completed = structuredClone(document);
  const components = isObject(completed.components) ? completed.components : {};
  completed.components = components;
  for (const operation of operationsOf(completed.paths)) addCommonParametersAndHeaders(operation);
  const schemas: JsonObject = isObject(components.schemas) ? components.schemas : {};
  completed.paths = hoistNamedSchemas(completed.paths ?? {}, schemas);
  if (completed.webhooks !== undefined) completed.webhooks = hoistNamedSchemas(completed.webhooks, schemas);
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  for (const operation of [...operationsOf(completed.paths), ...operationsOf(completed.webhooks)]) addMediaExamples(operation, schemas);
  return completed;
}

function operationsOf(pathItems: Json | undefined): JsonObject[] {
  if (!isObject(pathItems)) return [];
  return Object.values(pathItems).flatMap((item) => (isObject(item) ? HTTP_METHODS.map((method) => item[method]).filter(isObject) : []));
}

function addCommonParametersAndHeaders(operation: JsonObject): void {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  // A list in the query string is one comma-separated value, as the service reads it (src/http/query-string.ts).
  const described = parameters.map((parameter) =>
    isObject(parameter) && parameter.in === 'query' && isObject(parameter.schema) && parameter.schema.type === 'array'
      ? { ...parameter, style: 'form', explode: false }
      : parameter,
  );
  operation.parameters = [...described, { $ref: '#/components/parameters/RequestId' }];
  const bearer =
    Array.isArray(operation.security) && operation.security.some((requirement) => isObject(requirement) && 'bearerAuth' in requirement);
  const responses = isObject(operation.responses) ? operation.responses : {};
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    const headers: JsonObject = { 'X-Request-ID': { $ref: `${HEADERS}X-Request-ID` } };
    // Authentication and scope come before the rate limit (docs/api-decisions.md): 401 and 403 have no budget to show,
    // and a 500 may come from before it too.
    if (bearer && !['401', '403', '500'].includes(status)) Object.assign(headers, RATE_LIMITED);
    if (bearer && status === '401') headers['WWW-Authenticate'] = { $ref: `${HEADERS}WWW-Authenticate-Bearer` };
    if (status === '429') headers['Retry-After'] = { $ref: `${HEADERS}Retry-After` };
    // A route declares only headers it always sends (src/http/error-schemas.ts, `jsonResponse`).
    const declared = Object.fromEntries(
      Object.entries(isObject(response.headers) ? response.headers : {}).map(([name, header]) => [
        name,
        isObject(header) ? { ...header, required: true } : header,
      ]),
    );
    response.headers = { ...headers, ...declared };
  }
}

/** A media type without an example gets its schema's first `examples` entry (Swagger UI and Prism use it). */
function addMediaExamples(operation: JsonObject, schemas: JsonObject): void {
  const bodies = [operation.requestBody, ...Object.values(isObject(operation.responses) ? operation.responses : {})];
  for (const body of bodies) {
    if (!isObject(body) || !isObject(body.content)) continue;
    for (const media of Object.values(body.content)) {
      if (!isObject(media) || media.example !== undefined || media.examples !== undefined || !isObject(media.schema)) continue;
      const reference = media.schema.$ref;
      const schema =
        typeof reference === 'string' && reference.startsWith(SCHEMAS) ? schemas[reference.slice(SCHEMAS.length)] : media.schema;
      const examples = isObject(schema) ? schema.examples : undefined;
      if (Array.isArray(examples) && examples[0] !== undefined) media.example = examples[0];
    }
  }
}

/**
 * Replaces every schema with a `title` by a `$ref` to `components.schemas[title]`, depth first, so named schemas
 * inside named schemas are references too. Two different schemas under one title are a mistake in our schemas.
 */
function hoistNamedSchemas(node: Json, schemas: JsonObject): Json {
  if (Array.isArray(node)) return node.map((item) => hoistNamedSchemas(item, schemas));
  if (!isObject(node)) return node;
  // Examples are data, not schemas: an example that happens to have a `title` stays as it is.
  const inner: JsonObject = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === 'example' || key === 'examples' ? value : hoistNamedSchemas(value, schemas)]),
  );
  const name = inner.title;
  const isSchema = typeof name === 'string' && ('type' in inner || 'properties' in inner || 'anyOf' in inner || 'enum' in inner);
  if (!isSchema) return inner;
  const existing = schemas[name];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(inner)) {
    throw new Error(`Two different schemas are titled ${name}: give one another title`);
  }
  schemas[name] = inner;
  return { $ref: `${SCHEMAS}${name}` };
}
