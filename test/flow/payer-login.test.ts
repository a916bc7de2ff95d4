/**
 * The payer's login at embedded banks (issue 8, items 3, 8 and 12), over plain HTTP: a refused user ID or password
 * is answered on our page with the error and the attempts left, and the payer tries again; the limit of the bank
 * (three, as the catalogue says) ends the payment as before. Credentials in the creation request are used there,
 * and a refusal is the payer's to correct on our page: the creation answer is always PENDING. A password lost
 * after an indeterminate bank error is asked for again instead of failing the payment. Every test checks the whole
 * status history and, at the end, that the test password is in no table, log line or response.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import {
  fieldsAsked,
  get,
  headingOf,
  openFlow,
  submit,
  submitAndFollow,
  type Answer,
  continueLinkOf,
  pastWaitingPage,
} from '../hosted/http-payer.js';
import { injectSandboxFault } from '../helpers/test-app.js';

const [sqlite] = await testDatabaseKinds();

const WRONG_PASSWORD = `${TEST_PASSWORD}-wrong`;

/** Statuses of a bank without a login of its own (Italia, Lietuva) from our phase 2 form to the code page. */
const EMBEDDED_FROM_FORM = [
  'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
  'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
  'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
  'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
  'PAYMENT_REGISTRATION_PENDING',
  'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_REDIRECT_PENDING',
];

/** The same for Hansa, whose login (phase 3) comes before the payment is registered. */
const HANSA_FROM_FORM = [
  'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
  'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
  'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
  'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
  'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
  'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
  'PAYMENT_REGISTRATION_PENDING',
  'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_REDIRECT_PENDING',
];

const EXECUTED = ['PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING', 'PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_COMPLETED'];

function assertLoginRefused(page: Answer, attemptsLeft: number, fields: string[]): void {
  assert.equal(page.status, 422, page.html.slice(0, 500));
  assert.match(page.html, /Your bank did not accept these login details\./);
  assert.match(page.html, new RegExp(`Attempts left: ${attemptsLeft}\\.`));
  assert.deepEqual(fieldsAsked(page.html), fields);
}

describe('the payer logs in at an embedded bank (HTTP)', () => {
  let flow: FlowHarness;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    flow = await startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
  });
  after(async () => {
    await flow?.close();
  });

  async function fault(slug: string, rule: Record<string, unknown>): Promise<void> {
    const response = await injectSandboxFault(flow.app, slug, rule);
    assert.equal(response.status, 201);
  }

  /** Types the one-time code on the code page and sees the payer back at the shop, then the payment completed. */
  async function confirmCode(redirectUrl: string, page: Answer, paymentId: string): Promise<void> {
    assert.equal(headingOf(page.html), 'Enter your one-time code');
    const confirmed = await submitAndFollow(redirectUrl, page.html, 'code', { otp: '123456' }, flow.seen);
    assert.equal(continueLinkOf(confirmed), `https://merchant.example/return?paymentId=${paymentId}`);
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
  }

  for (const [name, providerId, path] of [
    ['Hansa (login first)', BANKS.hansa, HANSA_FROM_FORM],
    ['Banca Italia', BANKS.italia, EMBEDDED_FROM_FORM],
    ['Baltic Lietuva', BANKS.lietuva, EMBEDDED_FROM_FORM],
  ] as const) {
    it(`${name}: a wrong password, then a wrong user ID, are shown on our page with the attempts left; the third try pays`, async () => {
      const { paymentId, redirectUrl } = await flow.create({ provider: { id: providerId } });
      const form = await openFlow(redirectUrl, flow.seen);
      assert.deepEqual(fieldsAsked(form.html), ['loginId', 'password']);

      const wrongPassword = await submit(redirectUrl, form.html, 'details', { loginId: 'alice', password: WRONG_PASSWORD }, flow.seen);
      assertLoginRefused(wrongPassword, 2, ['loginId', 'password']);
      // Nothing is recorded for a refused login but the count (in the flow state).
      assert.deepEqual(statuses(await flow.history(paymentId)), path.slice(0, 2));
      // The page says the same when opened again.
      const again = await get(redirectUrl, {}, flow.seen);
      assert.equal(again.status, 200);
      assert.match(again.html, /Attempts left: 2\./);

      const wrongUser = await submit(redirectUrl, again.html, 'details', { loginId: 'nobody-here', password: TEST_PASSWORD }, flow.seen);
      assertLoginRefused(wrongUser, 1, ['loginId', 'password']);
      assert.deepEqual(statuses(await flow.history(paymentId)), path.slice(0, 2));

      const codePage = await submitAndFollow(
        redirectUrl,
        wrongUser.html,
        'details',
        { loginId: 'alice', password: TEST_PASSWORD },
        flow.seen,
      );
      await confirmCode(redirectUrl, codePage, paymentId);
      const history = await flow.history(paymentId);
      assert.deepEqual(statuses(history), [...path, ...EXECUTED]);
      assert.equal(history.at(-1)?.status, 'COMPLETED');
      assert.equal(history.at(-1)?.failureReasons, null);
    });
  }

  it('Hansa: the third refused login fails the payment with PSU_AUTHENTICATION_FAILED, as the bank allows three', async () => {
    const { paymentId, redirectUrl } = await flow.create({ provider: { id: BANKS.hansa } });
    let page = await openFlow(redirectUrl, flow.seen);
    for (const attemptsLeft of [2, 1]) {
      page = await submit(redirectUrl, page.html, 'details', { loginId: 'alice', password: WRONG_PASSWORD }, flow.seen);
      assertLoginRefused(page, attemptsLeft, ['loginId', 'password']);
    }
    const last = await submitAndFollow(redirectUrl, page.html, 'details', { loginId: 'alice', password: WRONG_PASSWORD }, flow.seen);
    assert.equal(continueLinkOf(last), `https://merchant.example/return?paymentId=${paymentId}`);
    const history = await flow.history(paymentId);
    assert.deepEqual(statuses(history), [...HANSA_FROM_FORM.slice(0, 5), 'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED']);
    assert.equal(history.at(-1)?.status, 'FAILED');
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['PSU_AUTHENTICATION_FAILED'],
    );
  });

  it('Banca Italia: the third refused login fails the payment with PSU_AUTHENTICATION_FAILED', async () => {
    const { paymentId, redirectUrl } = await flow.create({ provider: { id: BANKS.italia } });
    let page = await openFlow(redirectUrl, flow.seen);
    for (const attemptsLeft of [2, 1]) {
      page = await submit(redirectUrl, page.html, 'details', { loginId: 'alice', password: WRONG_PASSWORD }, flow.seen);
      assertLoginRefused(page, attemptsLeft, ['loginId', 'password']);
    }
    const last = await submitAndFollow(redirectUrl, page.html, 'details', { loginId: 'alice', password: WRONG_PASSWORD }, flow.seen);
    assert.equal(continueLinkOf(last), `https://merchant.example/return?paymentId=${paymentId}`);
    const history = await flow.history(paymentId);
    assert.deepEqual(statuses(history), [...EMBEDDED_FROM_FORM.slice(0, 7), 'PAYMENT_CONSENT_REDIRECT_FAILED']);
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['PSU_AUTHENTICATION_FAILED'],
    );
  });

  it('a wrong one-time code says how many attempts are left; the third wrong one fails with SCA_FAILED', async () => {
    const created = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'alice', password: TEST_PASSWORD } } });
    let page = await openFlow(created.redirectUrl, flow.seen);
    assert.equal(headingOf(page.html), 'Enter your one-time code');
    for (const attemptsLeft of [2, 1]) {
      page = await submit(created.redirectUrl, page.html, 'code', { otp: '999999' }, flow.seen);
      assert.equal(page.status, 422);
      assert.match(page.html, /The code is not correct\. Please try again\./);
      assert.match(page.html, new RegExp(`Attempts left: ${attemptsLeft}\\.`));
      assert.deepEqual(fieldsAsked(page.html), ['otp']);
    }
    const last = await submitAndFollow(created.redirectUrl, page.html, 'code', { otp: '999999' }, flow.seen);
    assert.equal(continueLinkOf(last), `https://merchant.example/return?paymentId=${created.paymentId}`);
    const history = await flow.history(created.paymentId);
    assert.deepEqual(statuses(history), [
      'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
      ...HANSA_FROM_FORM.slice(3),
      'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
      'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
    ]);
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['SCA_FAILED'],
    );
  });

  it('item 3: a wrong password in the creation request answers PENDING; the payer is asked on our page, with the error, and pays', async () => {
    const created = await flow.create({
      provider: { id: BANKS.hansa },
      sender: { credentials: { id: 'alice', password: WRONG_PASSWORD } },
    });
    const body = JSON.parse(created.body) as { status: string; providerPaymentId?: string };
    assert.equal(body.status, 'PENDING');
    // The bank's payment of the refused login was withdrawn; the payer registers a new one with the right login.
    assert.equal(body.providerPaymentId, undefined);
    assert.deepEqual(statuses(await flow.history(created.paymentId)), HANSA_FROM_FORM.slice(0, 2));
    const form = await get(created.redirectUrl, {}, flow.seen);
    assert.equal(form.status, 200);
    assert.match(form.html, /Your bank did not accept these login details\./);
    assert.match(form.html, /Attempts left: 2\./);
    assert.deepEqual(fieldsAsked(form.html), ['loginId', 'password']);
    const codePage = await submitAndFollow(
      created.redirectUrl,
      form.html,
      'details',
      { loginId: 'alice', password: TEST_PASSWORD },
      flow.seen,
    );
    await confirmCode(created.redirectUrl, codePage, created.paymentId);
    assert.deepEqual(statuses(await flow.history(created.paymentId)), [...HANSA_FROM_FORM, ...EXECUTED]);
  });

  it('item 3: a refusal of the bank within the creation request is recorded in the history, the answer stays PENDING', async () => {
    // Kasia has no EUR account: Hansa refuses to register the payment with her login.
    const created = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'kasia', password: TEST_PASSWORD } } });
    assert.equal((JSON.parse(created.body) as { status: string }).status, 'PENDING');
    const history = await flow.history(created.paymentId);
    assert.deepEqual(statuses(history), [
      'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
      'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
      'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
      'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED',
    ]);
    assert.equal(history.at(-1)?.status, 'FAILED');
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['BANK_REJECTED'],
    );
  });

  for (const [name, providerId, slug] of [
    ['Banca Italia', BANKS.italia, 'italia'],
    ['Baltic Lietuva', BANKS.lietuva, 'baltic-lt'],
  ] as const) {
    it(`item 12: ${name}, the password lost after a bank error on the login is asked for again, not failed`, async () => {
      await fault(slug, { psuId: 'bob', operations: ['startAuthorisation'], fault: { kind: 'error', status: 500 }, times: 1 });
      const created = await flow.create({ provider: { id: providerId }, sender: { credentials: { id: 'bob', password: TEST_PASSWORD } } });
      assert.equal((JSON.parse(created.body) as { status: string }).status, 'PENDING');
      // The bank holds the payment; whether the login reached it is open until it is asked.
      const page = await pastWaitingPage(created.redirectUrl, await get(created.redirectUrl, {}, flow.seen), flow.seen);
      assert.equal(headingOf(page.html), `Log in to ${name === 'Banca Italia' ? 'Banca Sandbox Italia' : 'Baltic Sandbox Bank Lietuva'}`);
      assert.match(page.html, /Please enter your password again\./);
      // The bank knows the user ID from the registration: only the password is asked.
      assert.deepEqual(fieldsAsked(page.html), ['password']);
      const codePage = await submitAndFollow(created.redirectUrl, page.html, 'details', { password: TEST_PASSWORD }, flow.seen);
      // Bob has one method (chip TAN): the code page follows.
      await confirmCode(created.redirectUrl, codePage, created.paymentId);
      const history = await flow.history(created.paymentId);
      assert.deepEqual(statuses(history), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
        'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
        'PAYMENT_REGISTRATION_PENDING',
        'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
        'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
        'PAYMENT_CONSENT_REDIRECT_PENDING',
        ...EXECUTED,
      ]);
      assert.ok(history.every((record) => record.failureReasons === null));
    });
  }

  it('item 12 at Hansa (login first): the password lost after a bank error on the login is asked for on our login page', async () => {
    await fault('hansa', { psuId: 'bob', operations: ['startAuthorisation'], fault: { kind: 'error', status: 500 }, times: 1 });
    const created = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'bob', password: TEST_PASSWORD } } });
    assert.equal((JSON.parse(created.body) as { status: string }).status, 'PENDING');
    const page = await pastWaitingPage(created.redirectUrl, await get(created.redirectUrl, {}, flow.seen), flow.seen);
    assert.equal(headingOf(page.html), 'Log in to Hansa Direktbank Sandbox');
    assert.match(page.html, /Please enter your password again\./);
    assert.deepEqual(fieldsAsked(page.html), ['password']);
    const codePage = await submitAndFollow(created.redirectUrl, page.html, 'details', { password: TEST_PASSWORD }, flow.seen);
    await confirmCode(created.redirectUrl, codePage, created.paymentId);
    const history = await flow.history(created.paymentId);
    assert.deepEqual(statuses(history), [
      'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
      'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
      'SENDER_AUTHORIZATION_REDIRECT_PENDING',
      ...HANSA_FROM_FORM.slice(4),
      ...EXECUTED,
    ]);
    assert.ok(history.every((record) => record.failureReasons === null));
  });

  it('the test password is nowhere: not in any table, log line or response', async () => {
    await flow.assertPasswordNowhere();
  });
});

describe("the attempts are the catalogue's: the sandbox bank and the flow both count to its limit", () => {
  let flow: FlowHarness;
  let dir: string;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    // Hansa allowing two attempts instead of three.
    const catalogue = JSON.parse(readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8')) as {
      providers: Array<{ id: string; connector?: Record<string, unknown> }>;
    };
    const hansa = catalogue.providers.find((provider) => provider.id === BANKS.hansa);
    assert.ok(hansa?.connector);
    hansa.connector['loginAttempts'] = 2;
    hansa.connector['oneTimeCodeAttempts'] = 2;
    dir = mkdtempSync(join(tmpdir(), 'openpis-catalogue-'));
    writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(catalogue));
    flow = await startFlowHarness(sqlite, { PROVIDER_CATALOGUE_FILE: join(dir, 'catalogue.json') });
  });
  after(async () => {
    await flow?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second refused login fails the payment when the bank allows two', async () => {
    const { paymentId, redirectUrl } = await flow.create({ provider: { id: BANKS.hansa } });
    const form = await openFlow(redirectUrl, flow.seen);
    const refused = await submit(redirectUrl, form.html, 'details', { loginId: 'alice', password: WRONG_PASSWORD }, flow.seen);
    assertLoginRefused(refused, 1, ['loginId', 'password']);
    const last = await submitAndFollow(redirectUrl, refused.html, 'details', { loginId: 'alice', password: WRONG_PASSWORD }, flow.seen);
    assert.equal(continueLinkOf(last), `https://merchant.example/return?paymentId=${paymentId}`);
    const history = await flow.history(paymentId);
    assert.deepEqual(statuses(history), [...HANSA_FROM_FORM.slice(0, 5), 'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED']);
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['PSU_AUTHENTICATION_FAILED'],
    );
  });

  it('a second wrong code fails the payment: the bank fails the authorisation at the same count', async () => {
    const created = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'alice', password: TEST_PASSWORD } } });
    const codePage = await openFlow(created.redirectUrl, flow.seen);
    const wrong = await submit(created.redirectUrl, codePage.html, 'code', { otp: '999999' }, flow.seen);
    assert.match(wrong.html, /Attempts left: 1\./);
    const last = await submitAndFollow(created.redirectUrl, wrong.html, 'code', { otp: '999999' }, flow.seen);
    assert.equal(continueLinkOf(last), `https://merchant.example/return?paymentId=${created.paymentId}`);
    const history = await flow.history(created.paymentId);
    assert.deepEqual(statuses(history).slice(-3), [
      'PAYMENT_CONSENT_REDIRECT_PENDING',
      'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
      'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
    ]);
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['SCA_FAILED'],
    );
    // The bank failed it too: its status says so.
    const status = await fetch(
      `${flow.app.baseUrl}/sandbox-bank/hansa/v1/payments/sepa-credit-transfers/${(JSON.parse(created.body) as { providerPaymentId: string }).providerPaymentId}/status`,
      {
        headers: { 'x-request-id': '8b0f3c2e-6f1a-4c55-9b43-2f4d7a9c1e10' },
      },
    );
    assert.equal(((await status.json()) as { transactionStatus: string }).transactionStatus, 'RJCT');
    await flow.assertPasswordNowhere();
  });
});
