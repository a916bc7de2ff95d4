/**
 * Names shown to payers cannot be spoofed with invisible formatting characters (issue 23 item 6): the API refuses
 * them in a payment's recipient name and address, keeps names in NFC, and the payer's pages show stored names without
 * them (a name stored before the rule, or written to the database by other means).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest, withField } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { get } from './http-payer.js';

const [sqlite] = await testDatabaseKinds();

const RULE =
  'must not contain control characters or invisible formatting characters (such as right-to-left overrides or zero-width spaces)';

describe('names shown to payers', { skip: sqlite === undefined }, () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite);
    token = await (await t.createClient()).token();
  });
  after(() => t.close());

  const create = (body: unknown) => t.request('/api/v1/ob/payments', { method: 'POST', token, json: body });

  it('refuses a recipient name or address with a bidi override, a zero-width or a control character', async () => {
    for (const [field, value] of [
      ['recipient.name', 'Acme \u202EHbmG'],
      ['recipient.name', 'Ac\u200Bme'],
      ['recipient.name', 'Acme\u0007'],
      ['recipient.address.city', 'Ber\u2066lin'],
      ['recipient.address.streetName', 'Unter den Linden\u200F'],
      // A format character beyond the Basic Multilingual Plane (a tag character).
      ['recipient.name', 'Acme\u{E0041}'],
    ] as const) {
      const response = await create(withField(paymentRequest(), field, value));
      assert.equal(response.status, 400, `${field} ${JSON.stringify(value)}`);
      assert.equal(((await response.json()) as { message: string }).message, `${field} ${RULE}`);
    }
  });

  it('stores the recipient name in NFC', async () => {
    const response = await create(withField(paymentRequest(), 'recipient.name', 'Cafe\u0301 GmbH'));
    assert.equal(response.status, 201, await response.clone().text());
    const { paymentId } = (await response.json()) as { paymentId: string };
    const row = await t.database.db.selectFrom('payments').select('recipient').where('id', '=', paymentId).executeTakeFirstOrThrow();
    assert.equal((JSON.parse(row.recipient) as { name: string }).name, 'Caf\u00e9 GmbH');
  });

  it("shows a stored name on the payer's pages without formatting characters, in NFC", async () => {
    const response = await create(withField(paymentRequest(), 'recipient.name', 'Acme GmbH'));
    const { paymentId, redirectUrl } = (await response.json()) as { paymentId: string; redirectUrl: string };
    const row = await t.database.db.selectFrom('payments').select('recipient').where('id', '=', paymentId).executeTakeFirstOrThrow();
    const recipient = JSON.parse(row.recipient) as { name: string };
    // As a row written before the rule could hold it.
    recipient.name = 'Cafe\u0301 \u202EHbmG';
    await t.database.db
      .updateTable('payments')
      .set({ recipient: JSON.stringify(recipient) })
      .where('id', '=', paymentId)
      .execute();
    const page = await get(redirectUrl);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.html, /[\p{Cf}]/u);
    assert.match(page.html, /Caf\u00e9 HbmG/);
  });
});
