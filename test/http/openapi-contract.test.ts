/**
 * The OpenAPI document says what the service does (issue 11, section 1):
 * - its shape: operationIds, named schemas, a described response and an example for every request and response;
 * - its examples work: the creation example, sent as it is, creates a payment;
 * - its headers and bodies are true: for answers provoked on every operation, each header the document marks
 *   required is sent, and the body validates against the documented schema;
 * - its rules are the service's: a plain JSON Schema validator reading the document refuses what the service
 *   refuses (the patterns), knowing nothing of our code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateOpenApiDocument } from '../../scripts/openapi-document.js';
import { completeDocument } from '../../src/http/openapi.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest, withField } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type JsonObject = Record<string, unknown>;
interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: JsonObject; example?: unknown }> };
  responses: Record<
    string,
    { description: string; headers?: Record<string, JsonObject>; content?: Record<string, { schema: JsonObject; example?: unknown }> }
  >;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonObject>; headers: Record<string, JsonObject> };
}

const document = JSON.parse(await generateOpenApiDocument()) as OpenApiDocument;
const [sqlite] = await testDatabaseKinds();

function operations(items: Record<string, Record<string, Operation>>): [string, string, Operation][] {
  return Object.entries(items).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, Operation] => [method, path, operation]),
  );
}

/** A validator that knows only JSON Schema 2020-12 and the standard formats: an unknown format (`iban`) passes. */
function plainValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { iban: true } });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  return ajv;
}

const pointer = (...parts: string[]): string => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

describe('the OpenAPI document', () => {
  it('names every operation, describes every response, and has an example for every request and response body', () => {
    const all = [...operations(document.paths), ...operations(document.webhooks)];
    assert.ok(all.length >= 9);
    const ids = all.map(([, , operation]) => operation.operationId);
    assert.ok(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      ids.join(', '),
    );
    assert.equal(new Set(ids).size, ids.length);
    for (const [method, path, operation] of all) {
      for (const [status, response] of Object.entries(operation.responses)) {
        assert.notEqual(response.description, 'Default Response', `${method} ${path} ${status}`);
        for (const media of Object.values(response.content ?? {}))
          assert.notEqual(media.example, undefined, `${method} ${path} ${status} has an example`);
      }
      for (const media of Object.values(operation.requestBody?.content ?? {}))
        assert.notEqual(media.example, undefined, `${method} ${path} request example`);
    }
  });

  it('names the schemas of every request, response, record and error body', () => {
    const names = Object.keys(document.components.schemas);
    for (const name of [
      'PaymentCreationRequest',
      'PaymentCreationResponse',
      'Payment',
      'PaymentList',
      'PaymentStatusRecord',
      'PaymentStatusHistory',
      'Event',
      'EventFeed',
      'PaymentStatusUpdatedWebhook',
      'ErrorBody',
      'OAuthError',
      'AccessToken',
      'TokenRequest',
      'ProviderList',
      'Provider',
    ]) {
      assert.ok(names.includes(name), name);
    }
    const created = document.paths['/api/v1/ob/payments']?.post;
    assert.deepEqual(created?.requestBody?.content['application/json']?.schema, { $ref: '#/components/schemas/PaymentCreationRequest' });
    assert.deepEqual(created?.responses['409']?.content?.['application/json']?.schema, { $ref: '#/components/schemas/ErrorBody' });
  });

  it('uses no custom format but iban, and documents it', () => {
    const formats = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (typeof node === 'object' && node !== null) {
        const object = node as JsonObject;
        if (typeof object.format === 'string' && typeof object.type === 'string') formats.add(object.format);
        Object.values(object).forEach(visit);
      }
    };
    visit(document);
    assert.deepEqual([...formats].sort(), ['date-time', 'iban', 'uri', 'uuid']);
    const iban = (document.components.schemas.AccountNumber?.properties as Record<string, JsonObject>).value;
    assert.equal(iban?.format, 'iban');
    assert.match(String(iban?.['x-format-iban']), /mod-97/);
    assert.match(String(iban?.description), /custom format/);
  });

  it('documents statuses and failure codes in answers as open lists, and closed where they are inputs', () => {
    for (const name of ['PaymentStatus', 'DetailedStatus', 'FailureCode']) {
      const schema = document.components.schemas[name];
      assert.ok(schema);
      assert.equal(schema.enum, undefined, name);
      assert.ok(Array.isArray(schema['x-extensible-enum']), name);
      assert.match(String(schema.description), /accept values you do not know/);
    }
    const filter = (
      document.paths['/api/v1/ob/payments']?.get as unknown as { parameters: { name: string; schema: { items?: { enum?: string[] } } }[] }
    ).parameters.find((parameter) => parameter.name === 'status');
    assert.deepEqual(filter?.schema.items?.enum, ['PENDING', 'COMPLETED', 'FAILED']);
  });

  it('has a webhooks section for payment.status.updated with the Standard Webhooks headers', () => {
    const webhook = document.webhooks['payment.status.updated']?.post as unknown as {
      parameters: { name: string; in: string; required: boolean }[];
      requestBody: { content: Record<string, { schema: JsonObject }> };
    };
    assert.ok(webhook);
    assert.deepEqual(
      webhook.parameters.map((parameter) => `${parameter.in}:${parameter.name}:${String(parameter.required)}`),
      ['header:webhook-id:true', 'header:webhook-timestamp:true', 'header:webhook-signature:true'],
    );
    assert.deepEqual(webhook.requestBody.content['application/json']?.schema, { $ref: '#/components/schemas/PaymentStatusUpdatedWebhook' });
  });

  it('names schemas by their title, leaves examples alone, and refuses two different schemas under one title', () => {
    const schema = (extra: JsonObject) => ({ title: 'Thing', type: 'object', properties: { name: { type: 'string' } }, ...extra });
    const operation = (responseSchema: JsonObject) => ({
      operationId: 'getThing',
      responses: {
        '200': {
          description: 'A thing',
          content: { 'application/json': { schema: responseSchema, example: { title: 'An example', type: 'object' } } },
        },
      },
    });
    const complete = (input: unknown) => completeDocument(input as Parameters<typeof completeDocument>[0]) as unknown as OpenApiDocument;
    const completed = complete({ openapi: '3.1.0', paths: { '/thing': { get: operation(schema({})) } } });
    const media = completed.paths['/thing']?.get?.responses['200']?.content?.['application/json'];
    assert.deepEqual(media?.schema, { $ref: '#/components/schemas/Thing' });
    assert.deepEqual(media?.example, { title: 'An example', type: 'object' });
    assert.equal(completed.components.schemas.Thing?.type, 'object');
    assert.throws(
      () =>
        complete({
          openapi: '3.1.0',
          paths: { '/a': { get: operation(schema({})) }, '/b': { get: operation(schema({ required: ['name'] })) } },
        }),
      /Two different schemas are titled Thing/,
    );
  });

  it('refuses with a plain validator what the service refuses (patterns, not custom formats)', () => {
    const validate = plainValidator().getSchema('openapi.json#/components/schemas/PaymentCreationRequest');
    assert.ok(validate);
    assert.equal(validate(paymentRequest()), true, JSON.stringify(validate.errors));
    for (const [path, value] of [
      ['remittanceInformation.value', 'Invoice #1'],
      ['metadata.psuIpAddress', '::1'],
      ['metadata.psuIpAddress', '256.1.1.1'],
      ['metadata.endToEndId', 'order-é'],
      ['recipient.account.number.value', 'DE89-3704'],
    ] as const) {
      assert.equal(validate(withField(paymentRequest(), path, value)), false, `${path}=${value}`);
    }
  });
});

describe('the OpenAPI document against the service', { skip: sqlite === undefined }, () => {
  let t: TestApp;
  let client: TestClient;
  let token: string;
  const ajv = plainValidator();

  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite);
    client = await t.createClient();
    token = await client.token();
  });
  after(() => t.close());

  /** The answer has every header the document requires for it, and a body its schema accepts. */
  async function assertDocumented(method: string, path: string, response: Response): Promise<void> {
    const operation = document.paths[path]?.[method];
    assert.ok(operation, `${method} ${path} is documented`);
    const status = String(response.status);
    const documented = operation.responses[status];
    assert.ok(documented, `${method} ${path} documents ${status}`);
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const resolved = typeof header.$ref === 'string' ? document.components.headers[header.$ref.split('/').pop() ?? ''] : header;
      if (resolved?.required === true) assert.ok(response.headers.has(name), `${method} ${path} ${status} sends ${name}`);
    }
    const text = await response.text();
    if (documented.content === undefined) {
      assert.equal(text, '', `${method} ${path} ${status} has no content`);
      return;
    }
    const validate = ajv.getSchema(
      `openapi.json#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`,
    );
    assert.ok(validate);
    assert.equal(validate(JSON.parse(text)), true, `${method} ${path} ${status}: ${JSON.stringify(validate.errors)} ${text}`);
  }

  const call = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => t.request(path, init);

  it('creates a payment from the creation example, sent as it is', async () => {
    const example = document.paths['/api/v1/ob/payments']?.post?.requestBody?.content['application/json']?.example;
    assert.ok(example);
    const response = await call('/api/v1/ob/payments', { method: 'POST', token, json: example });
    assert.equal(response.status, 201, await response.clone().text());
    await assertDocumented('post', '/api/v1/ob/payments', response);
    const again = await call('/api/v1/ob/payments', { method: 'POST', token, json: example });
    assert.equal(again.status, 409);
    await assertDocumented('post', '/api/v1/ob/payments', again);
  });

  it('sends the documented headers and bodies on the token endpoint', async () => {
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    await assertDocumented(
      'post',
      '/api/v1/auth/token',
      await call('/api/v1/auth/token', {
        method: 'POST',
        headers: { ...form, authorization: basic },
        body: 'grant_type=client_credentials',
      }),
    );
    await assertDocumented(
      'post',
      '/api/v1/auth/token',
      await call('/api/v1/auth/token', { method: 'POST', headers: { ...form, authorization: basic }, body: 'grant_type=password' }),
    );
    await assertDocumented(
      'post',
      '/api/v1/auth/token',
      await call('/api/v1/auth/token', { method: 'POST', headers: form, body: 'grant_type=client_credentials' }),
    );
  });

  it('sends the documented headers and bodies on the providers list, 304 included', async () => {
    const path = '/api/v1/capabilities/providers';
    const listed = await call(path, { token });
    const etag = listed.headers.get('etag');
    await assertDocumented('get', path, listed);
    assert.ok(etag);
    await assertDocumented('get', path, await call(path, { token, headers: { 'if-none-match': etag } }));
    await assertDocumented('get', path, await call(`${path}?countryCode=XX`, { token }));
    await assertDocumented('get', path, await call(path));
    const writer = await t.createClient({ scopes: ['payments:write'] });
    await assertDocumented('get', path, await call(path, { token: await writer.token() }));
  });

  it('sends the documented headers and bodies on the payment operations', async () => {
    const created = await call('/api/v1/ob/payments', { method: 'POST', token, json: paymentRequest() });
    const { paymentId } = (await created.clone().json()) as { paymentId: string };
    await assertDocumented('post', '/api/v1/ob/payments', created);
    await assertDocumented(
      'post',
      '/api/v1/ob/payments',
      await call('/api/v1/ob/payments', { method: 'POST', token, json: withField(paymentRequest(), 'amount', 0) }),
    );
    await assertDocumented(
      'post',
      '/api/v1/ob/payments',
      await call('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: paymentRequest({ provider: { id: '00000000-0000-4000-8000-000000000000' } }),
      }),
    );
    await assertDocumented(
      'post',
      '/api/v1/ob/payments',
      await call('/api/v1/ob/payments', { method: 'POST', token, headers: { 'content-type': 'text/csv' }, body: 'a,b' }),
    );
    await assertDocumented(
      'post',
      '/api/v1/ob/payments',
      await call('/api/v1/ob/payments', { method: 'POST', token, json: { pad: 'x'.repeat(1024 * 1024 + 1) } }),
    );
    await assertDocumented('post', '/api/v1/ob/payments', await call('/api/v1/ob/payments', { method: 'POST', json: paymentRequest() }));
    const reader = await t.createClient({ scopes: ['payments:read'] });
    await assertDocumented(
      'post',
      '/api/v1/ob/payments',
      await call('/api/v1/ob/payments', { method: 'POST', token: await reader.token(), json: paymentRequest() }),
    );

    await assertDocumented('get', '/api/v1/ob/payments', await call('/api/v1/ob/payments?limit=1', { token }));
    await assertDocumented('get', '/api/v1/ob/payments', await call('/api/v1/ob/payments?limit=0', { token }));
    await assertDocumented('get', '/api/v1/ob/payments/{paymentId}', await call(`/api/v1/ob/payments/${paymentId}`, { token }));
    await assertDocumented(
      'get',
      '/api/v1/ob/payments/{paymentId}',
      await call('/api/v1/ob/payments/00000000-0000-4000-8000-000000000000', { token }),
    );
    await assertDocumented('get', '/api/v1/ob/payments/{paymentId}', await call('/api/v1/ob/payments/not-a-uuid', { token }));
    await assertDocumented(
      'get',
      '/api/v1/archive/payment-statuses',
      await call(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token }),
    );
    await assertDocumented(
      'get',
      '/api/v1/archive/payment-statuses/latest',
      await call(`/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`, { token }),
    );
    await assertDocumented('get', '/api/v1/events', await call('/api/v1/events', { token }));
    await assertDocumented('get', '/api/v1/events', await call('/api/v1/events?after=nope', { token }));
  });

  it('documents list filters as comma-separated values (style form, explode false), as the service reads them (issue 23 item 11)', async () => {
    interface QueryParameter {
      in: string;
      name: string;
      style?: string;
      explode?: boolean;
      schema: { type?: string; items?: { enum?: string[] } };
    }
    let checked = 0;
    for (const [method, path, operation] of operations(document.paths)) {
      const parameters = ((operation as { parameters?: QueryParameter[] }).parameters ?? []).filter(
        (parameter) => parameter.in === 'query' && parameter.schema.type === 'array',
      );
      for (const parameter of parameters) {
        assert.equal(parameter.style, 'form', `${method} ${path} ${parameter.name}`);
        assert.equal(parameter.explode, false, `${method} ${path} ${parameter.name}`);
        // Serialised as the document says: one parameter, values joined by commas.
        const values = (parameter.schema.items?.enum ?? []).slice(0, 2);
        assert.equal(values.length, 2);
        const response = await call(`${path}?${parameter.name}=${values.join(',')}`, { token });
        assert.equal(response.status, 200, `${method} ${path}?${parameter.name}=${values.join(',')}: ${await response.text()}`);
        checked += 1;
      }
    }
    assert.ok(checked >= 2);
  });

  it('sends the documented headers on 429', async () => {
    const limited = await startTestApp(sqlite ?? assert.fail('no database'), {
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' },
    });
    try {
      const limitedToken = await (await limited.createClient()).token();
      assert.equal((await limited.request('/api/v1/events', { token: limitedToken })).status, 200);
      const refused = await limited.request('/api/v1/events', { token: limitedToken });
      assert.equal(refused.status, 429);
      await assertDocumented('get', '/api/v1/events', refused);
    } finally {
      await limited.close();
    }
  });
});
