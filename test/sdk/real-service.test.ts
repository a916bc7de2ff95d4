/**
 * The SDK against the real service (SQLite and PostgreSQL): a creation whose answer is lost resolves through the
 * real payment list to the payment it made, a duplicate endToEndId is a typed conflict, and the payment list and
 * event feed iterate across pages; a refund is created, and resolved after a lost answer, like a payment.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  OpenpisClient,
  OpenpisConflictError,
  OpenpisNotFoundError,
  OpenpisValidationError,
  type FeedEvent,
  type PaymentCreationRequest,
} from '../../packages/sdk/src/index.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

for (const kind of await testDatabaseKinds()) {
  describe(`SDK against the service [${kind.name}]`, () => {
    let service: TestApp;
    let openpis: OpenpisClient;
    /** POSTs whose answer the network "loses" after the service has processed them. */
    let answersToLose = 0;
    let clientId: string;
    before(async () => {
      service = await startTestApp(kind);
      const client = await service.createClient({ name: 'sdk' });
      clientId = client.clientId;
      openpis = new OpenpisClient({
        baseUrl: service.baseUrl,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        retry: { baseDelayMs: 10 },
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          const url = input instanceof Request ? input.url : String(input);
          if (init?.method === 'POST' && (url.endsWith('/api/v1/ob/payments') || url.endsWith('/refunds')) && answersToLose > 0) {
            answersToLose--;
            await response.body?.cancel();
            throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
          }
          return response;
        },
      });
    });
    after(() => service.close());

    const request = (): PaymentCreationRequest => paymentRequest() as PaymentCreationRequest;

    it('a creation whose answer was lost is retried, and its 409 resolves to the payment the first attempt made', async () => {
      const body = request();
      answersToLose = 1;
      const created = await openpis.createPayment(body);
      assert.equal(answersToLose, 0, 'the first answer was lost');
      const page = await openpis.listPayments({ endToEndId: body.metadata.endToEndId });
      assert.equal(page.items.length, 1, 'exactly one payment exists for the endToEndId');
      assert.equal(created.paymentId, page.items[0]?.paymentId);
      assert.equal(created.status, 'PENDING');
      assert.match(created.redirectUrl, /\/pay\//);
    });

    it('sending the same endToEndId again is the caller’s duplicate: a conflict error with title, status, message and request id', async () => {
      const body = request();
      await openpis.createPayment(body);
      await assert.rejects(openpis.createPayment(body), (error: unknown) => {
        assert.ok(error instanceof OpenpisConflictError);
        assert.equal(error.statusCode, 409);
        assert.equal(error.title, 'Conflict');
        assert.match(error.message, /endToEndId/);
        assert.match(error.requestId ?? '', /\S/);
        return true;
      });
    });

    it('validation and unknown payments are typed errors', async () => {
      await assert.rejects(openpis.createPayment({ ...request(), amount: 0 }), (error: unknown) => {
        assert.ok(error instanceof OpenpisValidationError);
        assert.match(error.message, /amount must not be less than 0\.01/);
        return true;
      });
      await assert.rejects(openpis.getPayment('00000000-0000-4000-8000-000000000000'), OpenpisNotFoundError);
    });

    it('payments() and events() walk every page of the real list and feed', async () => {
      const made: string[] = [];
      for (let index = 0; index < 3; index++) made.push((await openpis.createPayment(request())).paymentId);
      const listed: string[] = [];
      for await (const payment of openpis.payments({ limit: 2, status: ['PENDING'] })) listed.push(payment.paymentId);
      // Newest first, and every payment of this client (including the ones of the tests above).
      assert.deepEqual(listed.slice(0, 3), [...made].reverse());
      assert.equal(listed.length, 5, 'the two payments of the tests above and these three');

      const events: FeedEvent[] = [];
      for await (const event of openpis.events({ limit: 2 })) events.push(event);
      assert.ok(
        events.length >= listed.length,
        `every payment has at least its first status as an event (${events.length} events, ${listed.length} payments)`,
      );
      for (const event of events) {
        assert.equal(event.type, 'payment.status.updated');
        assert.equal(event.data.type, 'payment.status.updated');
      }
      assert.ok(made.every((paymentId) => events.some((event) => event.data.data.paymentId === paymentId)));
      assert.equal(new Set(events.map((event) => event.id)).size, events.length, 'no event twice across pages');
    });

    it('refunds.create: a refund of a completed payment, safe to retry after a lost answer; its 409s are conflict errors', async () => {
      const original = storedPaymentRow(clientId, new Date().toISOString(), {
        detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
        amount: '10.00',
        payer: JSON.stringify({ account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' }),
      });
      await service.database.db.insertInto('payments').values(original).execute();
      const body = {
        amount: '4.00',
        reference: 'Refund order 1001',
        metadata: { redirectUri: 'https://merchant.example/r', endToEndId: `refund-${original.id}` },
      };
      answersToLose = 1;
      const refund = await openpis.refunds.create(original.id, body);
      assert.equal(answersToLose, 0, 'the first answer was lost');
      assert.equal(refund.refundOf, original.id);
      assert.equal(refund.amount, 4);
      assert.equal(refund.status, 'PENDING');
      assert.deepEqual((await openpis.getPayment(original.id)).refunds, [{ paymentId: refund.paymentId, amount: 4, status: 'PENDING' }]);
      await assert.rejects(openpis.refunds.create(original.id, body), OpenpisConflictError);
      await assert.rejects(
        openpis.refunds.create(original.id, { ...body, amount: 7, metadata: { ...body.metadata, endToEndId: `more-${original.id}` } }),
        (error: unknown) => {
          assert.ok(error instanceof OpenpisConflictError);
          assert.match(error.message, /^REFUND_EXCEEDS_REMAINING: 6\.00 EUR is left/);
          return true;
        },
      );
    });
  });
}
