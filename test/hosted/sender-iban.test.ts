/**
 * Phase 2 for a bank that needs the sender's IBAN and offers no account list (Banco Sol): our form asks for it,
 * a wrong IBAN is refused on the page without any status change, a valid one goes to the bank with the payment.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { get, submit, type Answer } from './http-payer.js';

const [sqlite] = await testDatabaseKinds();
const ALICE_IBAN = 'DE54500105171000007919';

describe('sender IBAN collected on our page', () => {
  let flow: FlowHarness;
  before(async () => {
    assert.ok(sqlite);
    flow = await startFlowHarness(sqlite);
  });
  after(() => flow?.close());

  /** Follows our own 303s from a page answer until a page (200) or a redirect away from our pages. */
  async function follow(answer: Answer, base: string): Promise<{ page: Answer; url: string }> {
    let current = answer;
    let url = base;
    for (let hops = 0; current.status === 303 && current.location !== undefined && hops < 5; hops += 1) {
      url = new URL(current.location, url).href;
      if (!url.includes('/pay/')) break;
      current = await get(url, {}, flow.seen);
    }
    return { page: current, url };
  }

  it('asks for the IBAN, refuses a bad one, and pays from the good one', async () => {
    const created = await flow.create({ provider: { id: BANKS.sol } });
    let { page, url } = await follow(await get(created.redirectUrl, {}, flow.seen), created.redirectUrl);
    if (page.html.includes('/continue"'))
      ({ page, url } = await follow(await submit(created.redirectUrl, page.html, 'continue', {}, flow.seen), created.redirectUrl));
    assert.equal(page.status, 200);
    assert.match(page.html, /name="iban"/);
    assert.equal((await flow.history(created.paymentId)).at(-1)?.detailedStatus, 'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING');

    const refused = await submit(created.redirectUrl, page.html, 'details', { iban: 'ES00 0000 0000 0000 0000 0000' }, flow.seen);
    assert.ok(refused.status === 200 || refused.status === 400 || refused.status === 422, String(refused.status));
    assert.match(refused.html, /name="iban"/);
    assert.equal((await flow.history(created.paymentId)).at(-1)?.detailedStatus, 'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING');

    const accepted = await submit(created.redirectUrl, refused.html, 'details', { iban: ALICE_IBAN }, flow.seen);
    assert.equal(accepted.status, 303);
    const toBank = await follow(accepted, url);
    assert.ok(toBank.url.includes('/sandbox-bank/sol/'), toBank.url);
    const atBank = await completeBankPages(toBank.url, { psuId: 'alice', password: TEST_PASSWORD, otp: '123456' });
    assert.ok(atBank.redirectedTo?.includes(`/pay/return/${created.paymentId}/`), atBank.redirectedTo);
    await get(atBank.redirectedTo ?? '', {}, flow.seen);
    await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');

    const statuses = (await flow.history(created.paymentId)).map((record) => record.detailedStatus);
    assert.deepEqual(statuses.slice(0, 3), [
      'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
      'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
      'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
    ]);
    assert.equal(statuses.at(-1), 'PAYMENT_EXECUTION_COMPLETED');
    const stored = await flow.app.database.db
      .selectFrom('payments')
      .select('sender')
      .where('id', '=', created.paymentId)
      .executeTakeFirstOrThrow();
    assert.equal((JSON.parse(stored.sender ?? '{}') as { account?: { number: { value: string } } }).account?.number.value, ALICE_IBAN);
  });
});
