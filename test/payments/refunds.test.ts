/**
 * Refunds through the real HTTP app on SQLite and PostgreSQL (docs/api-decisions.md, "Refunds"): a refund of a
 * payment completed at a sandbox bank, the resource's `refundOf` and `refunds`, a refund's `recipient` (a UK payer's
 * sort code and account number, or an IBAN) against the OpenAPI schema, the refund's events, the 409 reasons,
 * 404 for another client's payment, and the sum rule under 30 concurrent requests.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateOpenApiDocument } from '../../scripts/openapi-document.js';
import { startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { paidAtHansa } from '../helpers/sandbox-payments.js';
import type { TestClient } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

interface Resource {
  readonly paymentId: string;
  readonly redirectUrl: string;
  readonly status: string;
  readonly detailedStatus: string;
  readonly endToEndId: string;
  readonly amount: number;
  readonly currency: string;
  readonly refundOf?: string;
  readonly refunds?: { paymentId: string; amount: number; status: string }[];
  readonly payer?: { account: { type: string; value?: string }; name?: string };
  readonly recipient?: { account: { number: { type: string; value: string; rollNumber?: string } }; name: string };
}

interface ErrorBody {
  readonly title: string;
  readonly statusCode: number;
  readonly message: string;
}

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The payment resource's schema as the OpenAPI document describes it, read by a plain JSON Schema validator. */
const paymentSchema = await (async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { iban: true } });
  addFormats(ajv);
  ajv.addSchema(JSON.parse(await generateOpenApiDocument()) as object, 'openapi.json');
  const validate = ajv.getSchema('openapi.json#/components/schemas/Payment');
  assert.ok(validate);
  return validate;
})();

const MERCHANT_IBAN = 'DE89370400440532013000';
const PAYER_IBAN = 'DE54500105171000007919';

function refundRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    reference: 'Refund order 1001',
    metadata: { redirectUri: 'https://merchant.example/refunds/done', endToEndId: `refund-${randomUUID()}` },
    ...overrides,
  };
}

for (const kind of await testDatabaseKinds()) {
  describe(`refunds [${kind.name}]`, () => {
    let flow: FlowHarness;
    let token: string;
    let other: TestClient;

    before(async () => {
      flow = await startFlowHarness(kind, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
      token = await flow.client.token();
      other = await flow.app.createClient({ name: 'another merchant' });
    });
    after(async () => {
      await flow?.close();
    });

    const refund = (paymentId: string, body: unknown, bearer = token) =>
      flow.app.request(`/api/v1/ob/payments/${paymentId}/refunds`, { method: 'POST', token: bearer, json: body });

    async function resource(paymentId: string): Promise<Resource> {
      const response = await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token });
      assert.equal(response.status, 200);
      return (await response.json()) as Resource;
    }

    async function refused(response: Response, reason: string): Promise<string> {
      const body = (await response.json()) as ErrorBody;
      assert.equal(response.status, 409, body.message);
      assert.deepEqual(Object.keys(body).sort(), ['message', 'statusCode', 'title']);
      assert.equal(body.title, 'Conflict');
      assert.ok(body.message.startsWith(`${reason}: `), body.message);
      return body.message;
    }

    /** A payment of the client stored as completed (or as `changes` say), with the payer's account the bank told. */
    async function storedPayment(changes: Record<string, unknown> = {}, clientId = flow.client.clientId): Promise<string> {
      const row = storedPaymentRow(clientId, new Date().toISOString(), {
        detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
        amount: '10.00',
        recipient: JSON.stringify({
          account: { number: { type: 'IBAN', value: MERCHANT_IBAN } },
          name: 'Acme GmbH',
          address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
        }),
        payer: JSON.stringify({ account: { type: 'IBAN', value: PAYER_IBAN }, name: 'Alice Happy' }),
        ...changes,
      });
      await flow.app.database.db.insertInto('payments').values(row).execute();
      return row.id;
    }

    it('refunds a payment completed at a sandbox bank: the refund is a hosted-mode payment with refundOf, listed on the original', async () => {
      const paymentId = await paidAtHansa(flow.app, flow.client, 10, 'PAYMENT_EXECUTION_COMPLETED');
      const original = await waitFor('the payer known', async () => {
        const read = await resource(paymentId);
        return read.payer === undefined ? undefined : read;
      });
      assert.equal(original.payer?.account.type, 'IBAN');

      const request = refundRequest({ amount: '4.00' });
      const response = await refund(paymentId, request);
      const body = await response.text();
      assert.equal(response.status, 201, body);
      const created = JSON.parse(body) as Resource;
      assert.equal(created.status, 'PENDING');
      assert.equal(created.detailedStatus, 'PROVIDER_SELECTION_REDIRECT_PENDING');
      assert.equal(created.refundOf, paymentId);
      assert.equal(created.amount, 4);
      assert.equal(created.currency, 'EUR');
      assert.equal(created.endToEndId, (request.metadata as { endToEndId: string }).endToEndId);
      assert.ok(created.redirectUrl.startsWith(`${flow.app.baseUrl}/pay/`));
      assert.deepEqual(await resource(created.paymentId), { ...created });

      // From the merchant's account the original was paid into, to the payer's account and name as the bank told them.
      const row = await flow.app.database.db
        .selectFrom('payments')
        .select(['sender', 'recipient', 'mode', 'payment_scheme', 'remittance', 'refund_of', 'amount_scaled'])
        .where('id', '=', created.paymentId)
        .executeTakeFirstOrThrow();
      const originalRow = await flow.app.database.db
        .selectFrom('payments')
        .select(['recipient'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      const merchantAccount = (JSON.parse(originalRow.recipient) as { account: { number: { value: string } } }).account.number;
      assert.deepEqual(JSON.parse(row.sender ?? 'null'), { account: { number: merchantAccount, currency: 'EUR' } });
      assert.deepEqual(JSON.parse(row.recipient), {
        account: { number: { type: 'IBAN', value: original.payer?.account.value } },
        name: original.payer?.name ?? 'unknown',
      });
      assert.equal(row.mode, 'hosted');
      assert.equal(row.payment_scheme, 'SEPA');
      assert.equal(JSON.parse(row.remittance).value, 'Refund order 1001');
      assert.equal(Number(row.amount_scaled), 40000);

      // The approver's browser, on its first visit, is the PSU the bank will be told of (not the merchant's server).
      const page = await fetch(created.redirectUrl, { headers: { 'user-agent': 'Approver browser/1.0' } });
      assert.equal(page.status, 200);
      await page.body?.cancel();
      const psu = await flow.app.database.db
        .selectFrom('payments')
        .select(['psu_ip_address', 'psu_user_agent'])
        .where('id', '=', created.paymentId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(psu, { psu_ip_address: '127.0.0.1', psu_user_agent: 'Approver browser/1.0' });

      const refunded = await resource(paymentId);
      assert.deepEqual(refunded.refunds, [{ paymentId: created.paymentId, amount: 4, status: 'PENDING' }]);
      assert.equal(refunded.status, 'COMPLETED');

      // The refund's events carry refundOf; the original's never do.
      const feed = await flow.app.request('/api/v1/events?limit=100', { token });
      const events = ((await feed.json()) as { items: { data: { data: Record<string, unknown> } }[] }).items.map((item) => item.data.data);
      const ofRefund = events.filter((event) => event.paymentId === created.paymentId);
      assert.deepEqual(
        ofRefund.map((event) => [event.detailedStatus, event.refundOf]),
        [['PROVIDER_SELECTION_REDIRECT_PENDING', paymentId]],
      );
      assert.ok(events.filter((event) => event.paymentId === paymentId).every((event) => !('refundOf' in event)));

      // Without an amount: what is left. Then nothing is left.
      const rest = await refund(paymentId, refundRequest());
      assert.equal(rest.status, 201);
      assert.equal(((await rest.json()) as Resource).amount, 6);
      const message = await refused(await refund(paymentId, refundRequest({ amount: 0.01 })), 'REFUND_EXCEEDS_REMAINING');
      assert.match(message, /^REFUND_EXCEEDS_REMAINING: 0\.00 EUR is left to refund/);
      assert.deepEqual(
        (await resource(paymentId)).refunds?.map((entry) => entry.amount),
        [4, 6],
      );
    });

    it('answers 409 with the reason when the payment cannot be refunded', async () => {
      const pending = await storedPayment({ detailed_status: 'PAYMENT_EXECUTION_PENDING' });
      assert.match(
        await refused(await refund(pending, refundRequest()), 'PAYMENT_NOT_COMPLETED'),
        /is PENDING \(PAYMENT_EXECUTION_PENDING\); only a COMPLETED payment can be refunded/,
      );
      const failed = await storedPayment({ detailed_status: 'PAYMENT_REGISTRATION_FAILED' });
      await refused(await refund(failed, refundRequest()), 'PAYMENT_NOT_COMPLETED');

      const withoutPayer = await storedPayment({ payer: null });
      await refused(await refund(withoutPayer, refundRequest()), 'PAYER_ACCOUNT_UNKNOWN');

      const original = await storedPayment();
      const first = await refund(original, refundRequest({ amount: 1 }));
      assert.equal(first.status, 201);
      const firstRefund = (await first.json()) as Resource;
      await flow.app.database.db
        .updateTable('payments')
        .set({ detailed_status: 'PAYMENT_EXECUTION_COMPLETED' })
        .where('id', '=', firstRefund.paymentId)
        .execute();
      await refused(await refund(firstRefund.paymentId, refundRequest()), 'PAYMENT_IS_A_REFUND');

      assert.equal(
        await refused(await refund(original, refundRequest({ amount: '9.01' })), 'REFUND_EXCEEDS_REMAINING'),
        `REFUND_EXCEEDS_REMAINING: 9.00 EUR is left to refund of payment ${original} (10.00 EUR less its refunds not failed)`,
      );

      // A name is never made up: without the bank's, the request's payerName, else 409.
      const nameless = await storedPayment({ payer: JSON.stringify({ account: { type: 'IBAN', value: PAYER_IBAN } }) });
      await refused(await refund(nameless, refundRequest()), 'PAYER_NAME_UNKNOWN');
      const named = await refund(nameless, refundRequest({ payerName: 'Alice Happy' }));
      assert.equal(named.status, 201);
      const namedRow = await flow.app.database.db
        .selectFrom('payments')
        .select('recipient')
        .where('id', '=', ((await named.json()) as Resource).paymentId)
        .executeTakeFirstOrThrow();
      assert.equal(JSON.parse(namedRow.recipient).name, 'Alice Happy');

      // The end-to-end id is unique per client among all its payments, refunds included.
      const endToEndId = `refund-${randomUUID()}`;
      const once = await refund(
        original,
        refundRequest({ amount: 1, metadata: { redirectUri: 'https://merchant.example/r', endToEndId } }),
      );
      assert.equal(once.status, 201);
      const twice = await refund(
        original,
        refundRequest({ amount: 1, metadata: { redirectUri: 'https://merchant.example/r', endToEndId } }),
      );
      assert.equal(twice.status, 409);
      assert.equal(((await twice.json()) as ErrorBody).message, `A payment with endToEndId ${JSON.stringify(endToEndId)} already exists`);
    });

    it('refunds a UK payer known by sort code and account number: the refund is paid to that account, shown as its recipient', async () => {
      const original = await storedPayment({
        currency: 'GBP',
        payment_scheme: 'DOMESTIC',
        recipient: JSON.stringify({
          account: { number: { type: 'IBAN', value: 'GB29NWBK60161331926819' } },
          name: 'Acme Ltd',
          address: { country: 'GB', city: 'London', streetName: 'High Street', buildingNumber: '1', postCode: 'EC1A 1AA' },
        }),
        payer: JSON.stringify({
          account: { type: 'SORT_CODE_ACCOUNT_NUMBER', sortCode: '040004', accountNumber: '10001001', rollNumber: 'ROLL-0042' },
          name: 'Bob Saver',
        }),
      });
      const response = await refund(original, refundRequest({ amount: '2.50' }));
      const body = await response.text();
      assert.equal(response.status, 201, body);
      const created = JSON.parse(body) as Resource;
      assert.equal(created.refundOf, original);
      assert.equal(created.currency, 'GBP');
      assert.deepEqual(created.recipient, {
        account: { number: { type: 'SORT_CODE_ACCOUNT_NUMBER', value: '04000410001001', rollNumber: 'ROLL-0042' } },
        name: 'Bob Saver',
      });
      assert.equal(paymentSchema(created), true, JSON.stringify(paymentSchema.errors));
      const read = await resource(created.paymentId);
      assert.deepEqual(read, created);
      assert.equal(paymentSchema(read), true, JSON.stringify(paymentSchema.errors));

      // Stored as the union's UK variant; paid from the merchant's GB IBAN the original was paid into.
      const row = await flow.app.database.db
        .selectFrom('payments')
        .select(['sender', 'recipient', 'payment_scheme'])
        .where('id', '=', created.paymentId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.recipient), {
        account: { number: { type: 'SORT_CODE_ACCOUNT_NUMBER', value: '04000410001001', rollNumber: 'ROLL-0042' } },
        name: 'Bob Saver',
      });
      assert.deepEqual(JSON.parse(row.sender ?? 'null'), {
        account: { number: { type: 'IBAN', value: 'GB29NWBK60161331926819' }, currency: 'GBP' },
      });
      assert.equal(row.payment_scheme, 'DOMESTIC');

      // An IBAN refund shows its recipient the same way, and validates too; the original shows none.
      const byIban = await refund(await storedPayment(), refundRequest({ amount: '1.00' }));
      const ibanRefund = (await byIban.json()) as Resource;
      assert.deepEqual(ibanRefund.recipient, { account: { number: { type: 'IBAN', value: PAYER_IBAN } }, name: 'Alice Happy' });
      assert.equal(paymentSchema(ibanRefund), true, JSON.stringify(paymentSchema.errors));
      assert.equal('recipient' in (await resource(original)), false);
    });

    it('answers 400 for a malformed request, every rule in one message', async () => {
      const original = await storedPayment();
      const response = await refund(original, { amount: '1.234', metadata: { redirectUri: 'ftp://x', endToEndId: ' x' }, extra: 1 });
      assert.equal(response.status, 400);
      const { message } = (await response.json()) as ErrorBody;
      for (const expected of [
        'reference should not be empty',
        'extra should not exist',
        'metadata.endToEndId must contain only printable ASCII',
      ]) {
        assert.ok(message.includes(expected), message);
      }
      const decimals = await refund(original, refundRequest({ amount: '1.234' }));
      assert.equal(decimals.status, 400);
      assert.equal(((await decimals.json()) as ErrorBody).message, 'amount must not have more decimals than EUR has');
      const zero = await refund(original, refundRequest({ amount: '0.00' }));
      assert.equal(zero.status, 400);
      assert.match(((await zero.json()) as ErrorBody).message, /^amount must be a number or a decimal string/);
    });

    it("answers 404 for another client's payment and for an unknown one, and needs payments:write", async () => {
      const theirs = await storedPayment({}, other.clientId);
      const response = await refund(theirs, refundRequest());
      assert.equal(response.status, 404);
      assert.equal(((await response.json()) as ErrorBody).message, `Payment ${theirs} not found`);
      assert.equal((await refund(randomUUID(), refundRequest())).status, 404);
      const malformed = await refund('not-a-payment', refundRequest());
      assert.equal(malformed.status, 400);
      assert.match(((await malformed.json()) as ErrorBody).message, /paymentId must be a UUID/);
      const mine = await storedPayment();
      assert.equal((await refund(mine, refundRequest(), await flow.client.token('payments:read'))).status, 403);
      const theirToken = await other.token();
      assert.equal((await refund(mine, refundRequest(), theirToken)).status, 404);
    });

    it('keeps the sum of refunds not failed within the amount under 30 concurrent requests; a failed refund frees its amount', async () => {
      const original = await storedPayment({ amount: '10.00' });
      const answers = await Promise.all(Array.from({ length: 30 }, () => refund(original, refundRequest({ amount: '1.00' }))));
      const statuses = answers.map((answer) => answer.status);
      assert.equal(statuses.filter((status) => status === 201).length, 10, statuses.join(','));
      assert.equal(statuses.filter((status) => status === 409).length, 20, statuses.join(','));
      for (const answer of answers.filter((candidate) => candidate.status === 409)) {
        await refused(answer, 'REFUND_EXCEEDS_REMAINING');
      }
      const stored = await flow.app.database.db.selectFrom('payments').select(['id', 'amount']).where('refund_of', '=', original).execute();
      assert.equal(stored.length, 10);
      assert.ok(stored.every((row) => row.amount === '1.00'));
      assert.equal((await resource(original)).refunds?.length, 10);

      // A refund that fails no longer counts: its amount can be refunded again, once.
      const [first] = stored;
      assert.ok(first !== undefined);
      await flow.app.database.db
        .updateTable('payments')
        .set({ detailed_status: 'PAYMENT_REGISTRATION_FAILED' })
        .where('id', '=', first.id)
        .execute();
      const again = await Promise.all(Array.from({ length: 5 }, () => refund(original, refundRequest({ amount: '1.00' }))));
      assert.deepEqual(again.map((answer) => answer.status).sort(), [201, 409, 409, 409, 409]);
      const refunds = (await resource(original)).refunds ?? [];
      assert.equal(refunds.length, 11);
      assert.equal(refunds.filter((entry) => entry.status === 'FAILED').length, 1);
      // The list shows the same as the resource.
      const list = await flow.app.request(`/api/v1/ob/payments?endToEndId=${original.slice(0, 20)}`, { token });
      const items = ((await list.json()) as { items: Resource[] }).items;
      assert.deepEqual(items[0]?.refunds, refunds);
    });
  });
}
