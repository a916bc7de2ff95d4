/**
 * Every JSON body the API takes goes through one parser (src/http/json-body.ts), which judges the body on its text
 * (issue 23, items 7 and 8): a number is kept exactly as the client wrote it or refused, a key appears once per
 * object, and ids have no blank or padded forms.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseJsonBody } from '../../src/http/json-body.js';
import { ValidationError } from '../../src/http/errors.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest, withField } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const [sqlite] = await testDatabaseKinds();

function violationsOf(text: string): readonly string[] {
  try {
    parseJsonBody(text);
  } catch (error) {
    if (error instanceof ValidationError) return error.violations;
    throw error;
  }
  return assert.fail(`${text} was accepted`);
}

describe('the JSON body parser', () => {
  it('keeps numbers whose value a double holds exactly, whatever their notation', () => {
    assert.deepEqual(parseJsonBody('{"a":10.50,"b":1.05e1,"c":-0.01,"d":0,"e":999999999.99,"f":123456789012345,"g":1e21}'), {
      a: 10.5,
      b: 10.5,
      c: -0.01,
      d: 0,
      e: 999999999.99,
      f: 123456789012345,
      g: 1e21,
    });
  });

  it('refuses a number a double would change, naming its field', () => {
    assert.deepEqual(violationsOf('{"amount":0.0100000000000000001}'), ['amount must have at most 15 significant digits']);
    assert.deepEqual(violationsOf('{"a":{"b":[1,12345678901234567890]}}'), ['a.b.1 must have at most 15 significant digits']);
    assert.deepEqual(violationsOf('{"amount":1e400}'), ['amount must be zero or between 1e-300 and 1e300 in magnitude']);
    assert.deepEqual(violationsOf('{"amount":1e-400}'), ['amount must be zero or between 1e-300 and 1e300 in magnitude']);
  });

  it('counts violations past the first 10 instead of listing them', () => {
    const error = new ValidationError(Array.from({ length: 12 }, (_, index) => `field${index} must be a string`));
    assert.equal(error.message, `${Array.from({ length: 10 }, (_, index) => `field${index} must be a string`).join(', ')}, and 2 more`);
    assert.equal(new ValidationError(['a must be a string'], 3).message, 'a must be a string, and 3 more');
  });

  it('refuses a key repeated in one object, anywhere, even with the same value', () => {
    assert.deepEqual(violationsOf('{"amount":0.001,"amount":10.5}'), ['amount must appear only once']);
    assert.deepEqual(violationsOf('{"amount":10.5,"amount":10.5}'), ['amount must appear only once']);
    assert.deepEqual(violationsOf('{"metadata":{"endToEndId":"a","endToEndId":"b"}}'), ['metadata.endToEndId must appear only once']);
    assert.deepEqual(violationsOf('{"list":[{"x":1},{"x":1,"x":2}]}'), ['list.1.x must appear only once']);
    // The same key written with an escape is the same key.
    assert.deepEqual(violationsOf('{"amount":1,"amoun\\u0074":2}'), ['amount must appear only once']);
    // The same name in different objects is no repetition.
    assert.deepEqual(parseJsonBody('{"a":{"id":1},"b":{"id":1}}'), { a: { id: 1 }, b: { id: 1 } });
  });
});

describe('JSON bodies of the API', { skip: sqlite === undefined }, () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite);
    token = await (await t.createClient()).token();
  });
  after(() => t.close());

  const post = (body: string) =>
    t.request('/api/v1/ob/payments', { method: 'POST', token, headers: { 'content-type': 'application/json' }, body });

  /** A valid creation request as text, with the amount written as given. */
  const withAmountText = (amount: string, overrides: Record<string, unknown> = {}) =>
    JSON.stringify({ ...paymentRequest(overrides), amount: 0 }).replace('"amount":0', `"amount":${amount}`);

  async function expect400(body: string, message: string): Promise<void> {
    const response = await post(body);
    assert.equal(response.status, 400, body.slice(0, 200));
    assert.deepEqual(await response.json(), { title: 'Bad Request', statusCode: 400, message });
  }

  it('stores exactly the amount the client wrote, or answers 400', async () => {
    await expect400(withAmountText('0.0100000000000000001'), 'amount must have at most 15 significant digits');
    await expect400(withAmountText('999999999.9900000001'), 'amount must have at most 15 significant digits');
    const created = await post(withAmountText('1.05e1'));
    assert.equal(created.status, 201, await created.clone().text());
    const { paymentId } = (await created.json()) as { paymentId: string };
    const stored = await t.database.db.selectFrom('payments').select('amount').where('id', '=', paymentId).executeTakeFirstOrThrow();
    assert.equal(stored.amount, '10.50');
  });

  it('refuses a body with a repeated key, naming it', async () => {
    await expect400(withAmountText('0.001,"amount":10.5'), 'amount must appear only once');
    const text = JSON.stringify(paymentRequest()).replace('"endToEndId":', '"endToEndId":"first","endToEndId":');
    await expect400(text, 'metadata.endToEndId must appear only once');
  });

  it('refuses a blank endToEndId or one with leading or trailing spaces, in the body and in the list filter', async () => {
    const rule = 'must contain only printable ASCII characters, without leading or trailing spaces';
    for (const endToEndId of [' ', '   ', ' order-1', 'order-1 ']) {
      await expect400(JSON.stringify(withField(paymentRequest(), 'metadata.endToEndId', endToEndId)), `metadata.endToEndId ${rule}`);
      const listed = await t.request(`/api/v1/ob/payments?endToEndId=${encodeURIComponent(endToEndId)}`, { token });
      assert.equal(listed.status, 400, JSON.stringify(endToEndId));
      assert.equal(((await listed.json()) as { message: string }).message, `endToEndId ${rule}`);
    }
    const inner = await post(JSON.stringify(withField(paymentRequest(), 'metadata.endToEndId', `order 1 ${Date.now()}`)));
    assert.equal(inner.status, 201);
  });

  it('lists the first 10 violations and counts the rest, however many there are (issue 23 item 9)', async () => {
    const unknownKeys = Object.fromEntries(Array.from({ length: 50_000 }, (_, index) => [`k${index}`, index]));
    const unknown = await post(JSON.stringify({ ...paymentRequest(), ...unknownKeys }));
    assert.equal(unknown.status, 400);
    const { message } = (await unknown.json()) as { message: string };
    assert.ok(message.length < 1000, `${message.length} characters`);
    assert.equal(message.match(/ should not exist/g)?.length, 10, message);
    assert.match(message, /^k0 should not exist, k1 should not exist, .*, and 49990 more$/);

    // The parser's own rules are capped the same way.
    const repeated = `{${Array.from({ length: 40_000 }, (_, index) => `"k${index}":1,"k${index}":1`).join(',')}}`;
    const duplicates = await post(repeated);
    assert.equal(duplicates.status, 400);
    const duplicateMessage = ((await duplicates.json()) as { message: string }).message;
    assert.equal(duplicateMessage.match(/ must appear only once/g)?.length, 10, duplicateMessage);
    assert.match(duplicateMessage, /^k0 must appear only once, .*, and 39990 more$/);
  });

  it('reads a page size only when written as digits', async () => {
    for (const limit of ['20.0000000000000001', '1e1', '2.0', ' 2']) {
      for (const path of ['/api/v1/ob/payments', '/api/v1/events']) {
        const response = await t.request(`${path}?limit=${encodeURIComponent(limit)}`, { token });
        assert.equal(response.status, 400, `${path} limit=${limit}`);
        assert.equal(((await response.json()) as { message: string }).message, 'limit must be an integer number', `${path} limit=${limit}`);
      }
    }
    assert.equal((await t.request('/api/v1/ob/payments?limit=2', { token })).status, 200);
  });
});
