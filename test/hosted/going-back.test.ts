/**
 * Changing one's mind: a hosted-mode payer goes back from a bank's page to the bank list, recorded as a status
 * change (history and webhook event together), with everything the first bank left forgotten; also when the bank
 * could not be reached. Never once the bank holds the payment, and never in custom mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BANKS, HOSTED_PREFIX, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { injectSandboxFault } from '../helpers/test-app.js';
import { csrfToken } from '../../src/hosted/security.js';
import { get, headingOf, post, submit, submitAndFollow } from './http-payer.js';

const kinds = await testDatabaseKinds();

for (const kind of kinds)
  describe(`going back to the bank list (${kind.name})`, () => {
    let flow: FlowHarness;
    before(async () => {
      flow = await startFlowHarness(kind);
    });
    after(() => flow?.close());

    async function stored(
      paymentId: string,
    ): Promise<{ providerId: string | null; sender: string | null; flowState: Record<string, unknown> }> {
      const row = await flow.app.database.db
        .selectFrom('payments')
        .select(['provider_id', 'sender', 'flow_state'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      const state = row.flow_state as unknown;
      return {
        providerId: row.provider_id,
        sender: row.sender,
        flowState: (typeof state === 'string' ? JSON.parse(state) : (state ?? {})) as Record<string, unknown>,
      };
    }

    async function webhookStatuses(paymentId: string): Promise<string[]> {
      const rows = await flow.app.database.db
        .selectFrom('webhook_events')
        .select(['body', 'sequence'])
        .where('subject_id', '=', paymentId)
        .orderBy('sequence')
        .execute();
      return rows.map((row) => (JSON.parse(String(row.body)) as { data: { detailedStatus: string } }).data.detailedStatus);
    }

    it('from the embedded login form: back to the list, the first bank forgotten, another bank chosen', async () => {
      const metadata = {
        redirectUri: 'https://merchant.example/return',
        psuIpAddress: '203.0.113.7',
        psuUserAgent: 'Mozilla/5.0',
        endToEndId: `back-${Date.now()}`,
      };
      const { paymentId, redirectUrl } = await flow.create({
        provider: {},
        metadata: { ...metadata, webhookUrl: 'https://merchant.example/hooks' },
      });
      const list = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(list.html), 'Choose your bank');
      assert.doesNotMatch(list.html, /\/back"/, 'no way back from the list itself');
      const login = await submitAndFollow(redirectUrl, list.html, 'select-bank', { providerId: BANKS.hansa }, flow.seen);
      assert.equal(login.status, 200);
      assert.match(login.html, /name="password"/);
      assert.match(login.html, /Choose another bank/);
      assert.equal((await stored(paymentId)).providerId, BANKS.hansa);

      const back = await submit(redirectUrl, login.html, 'back', {}, flow.seen);
      assert.equal(back.status, 303);
      assert.equal(back.location, new URL(redirectUrl).pathname);
      const again = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(again.html), 'Choose your bank');

      const history = statuses(await flow.history(paymentId));
      assert.deepEqual(history, [
        ...HOSTED_PREFIX,
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
        'PROVIDER_SELECTION_REDIRECT_PENDING',
      ]);
      // Each status change has its webhook event, the way back included.
      assert.deepEqual(await webhookStatuses(paymentId), history);
      const afterBack = await stored(paymentId);
      assert.equal(afterBack.providerId, null);
      assert.deepEqual(Object.keys(afterBack.flowState), ['pageKey']);

      // A second bank starts clean: a redirect bank goes straight to its pages.
      const toBank = await submit(redirectUrl, again.html, 'select-bank', { providerId: BANKS.rheinland }, flow.seen);
      assert.equal(toBank.status, 303);
      assert.ok(toBank.location?.includes('/sandbox-bank/rheinland/'), toBank.location);
      assert.equal((await stored(paymentId)).providerId, BANKS.rheinland);

      // Once the bank holds the payment there is no way back: the page has no button and a stale post changes nothing.
      const atBank = await get(redirectUrl, {}, flow.seen);
      assert.doesNotMatch(atBank.html, /\/back"/);
      const stale = await submit(redirectUrl, login.html, 'back', {}, flow.seen);
      assert.equal(stale.status, 303);
      assert.equal((await flow.history(paymentId)).at(-1)?.detailedStatus, 'PAYMENT_CONSENT_REDIRECT_PENDING');
    });

    it('when the chosen bank cannot be reached: the notice, and the way back to the list', async () => {
      const fault = await injectSandboxFault(flow.app, 'polder', {
        operations: ['initiatePayment'],
        fault: { kind: 'error', status: 503 },
      });
      assert.equal(fault.status, 201, await fault.text());
      const { paymentId, redirectUrl } = await flow.create({ provider: {} });
      const list = await get(redirectUrl, {}, flow.seen);
      const polder = /name="providerId" value="([^"]+)" aria-label="Pay with Polder[^"]*"/.exec(list.html)?.[1];
      assert.ok(polder !== undefined, 'Polder is on the list');
      const unavailable = await submit(redirectUrl, list.html, 'select-bank', { providerId: polder }, flow.seen);
      assert.equal(unavailable.status, 200);
      assert.match(unavailable.html, /could not be reached/);
      assert.equal((await flow.history(paymentId)).at(-1)?.detailedStatus, 'PAYMENT_REGISTRATION_PENDING');
      const back = await submitAndFollow(redirectUrl, unavailable.html, 'back', {}, flow.seen);
      assert.equal(headingOf(back.html), 'Choose your bank');
      assert.equal((await flow.history(paymentId)).at(-1)?.detailedStatus, 'PROVIDER_SELECTION_REDIRECT_PENDING');
      assert.equal((await stored(paymentId)).providerId, null);
    });

    it('never in custom mode: the client chose the bank', async () => {
      const { paymentId, redirectUrl } = await flow.create({ provider: { id: BANKS.hansa } });
      const page = await get(redirectUrl, {}, flow.seen);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.html, /\/back"/);
      // A forged "back" with a valid token for that action (made from the payment's page key) changes nothing.
      const pageKey = String((await stored(paymentId)).flowState['pageKey']);
      const forced = await post(`${redirectUrl}/back`, { csrf: csrfToken(pageKey, 'back') }, {}, flow.seen);
      assert.equal(forced.status, 303);
      assert.deepEqual(statuses(await flow.history(paymentId)), ['FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING']);
    });
  });
