/**
 * The SDK's payment links against the real service (SQLite and PostgreSQL): create, get, list and deactivate, a
 * duplicate reference as a typed conflict, and a creation whose answer was lost resolving to the link it made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  OpenpisClient,
  OpenpisConflictError,
  OpenpisNotFoundError,
  type PaymentLinkCreationRequest,
} from '../../packages/sdk/src/index.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentLinkRequest } from '../helpers/payment-link-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

for (const kind of await testDatabaseKinds()) {
  describe(`SDK payment links [${kind.name}]`, () => {
    let service: TestApp;
    let openpis: OpenpisClient;
    let answersToLose = 0;
    before(async () => {
      service = await startTestApp(kind);
      const client = await service.createClient({ name: 'sdk-links' });
      openpis = new OpenpisClient({
        baseUrl: service.baseUrl,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        retry: { baseDelayMs: 10 },
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          const url = input instanceof Request ? input.url : String(input);
          if (init?.method === 'POST' && url.endsWith('/api/v1/ob/payment-links') && answersToLose > 0) {
            answersToLose -= 1;
            throw new TypeError('fetch failed');
          }
          return response;
        },
      });
    });
    after(() => service?.close());

    it('creates, reads, lists and deactivates a link', async () => {
      const request = paymentLinkRequest() as PaymentLinkCreationRequest;
      const link = await openpis.paymentLinks.create(request);
      assert.equal(link.status, 'ACTIVE');
      assert.equal(link.reference, request.reference);
      assert.deepEqual(await openpis.paymentLinks.get(link.paymentLinkId), link);
      const page = await openpis.paymentLinks.list({ reference: request.reference });
      assert.deepEqual(
        page.items.map((item) => item.paymentLinkId),
        [link.paymentLinkId],
      );
      const deactivated = await openpis.paymentLinks.deactivate(link.paymentLinkId);
      assert.equal(deactivated.status, 'DEACTIVATED');
      assert.equal((await openpis.paymentLinks.list({ status: ['DEACTIVATED'] })).items[0]?.paymentLinkId, link.paymentLinkId);
      await assert.rejects(openpis.paymentLinks.get('00000000-0000-4000-8000-000000000000'), OpenpisNotFoundError);
    });

    it('a duplicate reference is a conflict; a lost answer resolves to the link the first attempt made', async () => {
      const request = paymentLinkRequest() as PaymentLinkCreationRequest;
      await openpis.paymentLinks.create(request);
      await assert.rejects(openpis.paymentLinks.create(request), OpenpisConflictError);
      const retried = paymentLinkRequest() as PaymentLinkCreationRequest;
      answersToLose = 1;
      const link = await openpis.paymentLinks.create(retried);
      assert.equal(link.reference, retried.reference);
      assert.equal((await openpis.paymentLinks.list({ reference: retried.reference })).items.length, 1);
    });
  });
}
