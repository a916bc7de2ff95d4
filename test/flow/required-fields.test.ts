/**
 * `requiredPaymentFields` says what the flow really asks for (issue 8, item 9), checked against the flow itself for
 * every bank of the sandbox catalogue: with every listed field sent up front the payer is asked for none of them;
 * with none sent, the payer is asked for each (and for nothing else). A login id sent alone is used (the password
 * is asked, the login id is not); credentials that cannot be used are refused at creation (hosted mode, a password
 * without its login id). Over plain HTTP; the password is shown to be nowhere at the end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { fieldsAsked, headingOf, openFlow, submit, submitAndFollow, continueLinkOf } from '../hosted/http-payer.js';

const [sqlite] = await testDatabaseKinds();

interface Provider {
  readonly id: string;
  readonly name: string;
  readonly paymentSchemes: string[];
  readonly requiredPaymentFields: string[];
  readonly subsidiaries?: Provider[];
}

/** The form field our pages use for each value of `requiredPaymentFields`. */
const FIELD_OF: Readonly<Record<string, string>> = {
  SENDER_PROVIDER_CREDENTIALS_ID: 'loginId',
  SENDER_PROVIDER_CREDENTIALS_PASSWORD: 'password',
  SENDER_ACCOUNT: 'iban',
};

/** A test payer (and their account) per currency: who can pay at a bank of that currency. */
const PAYER_BY_CURRENCY: Readonly<Record<string, { psuId: string; iban: string }>> = {
  EUR: { psuId: 'alice', iban: 'DE54500105171000007919' },
  PLN: { psuId: 'kasia', iban: 'PL61109010140000071219812874' },
  GBP: { psuId: 'tom', iban: 'GB29NWBK60161331926819' },
  SEK: { psuId: 'sven', iban: 'SE4550000000058398257466' },
  CZK: { psuId: 'petr', iban: 'CZ6508000000192000145399' },
};

/** Every bank of the built-in sandbox catalogue: one test each. */
const CATALOGUE_BANKS = loadCatalogue(undefined, 'http://127.0.0.1/sandbox-bank')
  .banks('sandbox')
  .map((bank) => ({ id: bank.id, name: bank.name }));

/** Statuses where our pages ask the payer for credentials or the sender IBAN. */
const ASKING = ['FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING', 'SENDER_AUTHORIZATION_REDIRECT_PENDING'];

describe('requiredPaymentFields matches what the flow asks for, bank by bank', () => {
  let flow: FlowHarness;
  let banks: Provider[];
  let token: string;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    flow = await startFlowHarness(sqlite);
    token = await flow.client.token();
    const listed = (await (await flow.app.request('/api/v1/capabilities/providers', { token })).json()) as Provider[];
    banks = listed.flatMap((provider) => provider.subsidiaries ?? [provider]);
  });
  after(async () => {
    await flow?.close();
  });

  /** A payment this bank can take, from the payer of its currency, with the listed fields set as `send` says. */
  function requestFor(bank: Provider, send: readonly string[]): Record<string, unknown> {
    const catalogued = flow.app.catalogue.find(bank.id, 'sandbox');
    assert.equal(catalogued.kind, 'bank');
    const currency = catalogued.kind === 'bank' ? (catalogued.bank.currencies[0] ?? 'EUR') : 'EUR';
    const payer = PAYER_BY_CURRENCY[currency];
    assert.ok(payer, `a test payer for ${currency}`);
    const credentials = {
      ...(send.includes('SENDER_PROVIDER_CREDENTIALS_ID') ? { id: payer.psuId } : {}),
      ...(send.includes('SENDER_PROVIDER_CREDENTIALS_PASSWORD') ? { password: TEST_PASSWORD } : {}),
    };
    return {
      provider: { id: bank.id },
      currency,
      paymentScheme: { name: currency === 'EUR' && bank.paymentSchemes.includes('SEPA') ? 'SEPA' : 'DOMESTIC' },
      amount: 1,
      ...(send.length === 0
        ? {}
        : {
            sender: {
              ...(Object.keys(credentials).length === 0 ? {} : { credentials }),
              ...(send.includes('SENDER_ACCOUNT') ? { account: { number: { type: 'IBAN', value: payer.iban }, currency } } : {}),
            },
          }),
      ...(currency === 'EUR'
        ? {}
        : {
            recipient: { ...(paymentRequest().recipient as object), account: { number: { type: 'IBAN', value: recipientIban(currency) } } },
          }),
    };
  }

  it('the catalogue has banks of every kind: redirect, embedded, decoupled, sender IBAN, account information', () => {
    const all = new Set(banks.flatMap((bank) => bank.requiredPaymentFields));
    assert.deepEqual([...all].sort(), ['SENDER_ACCOUNT', 'SENDER_PROVIDER_CREDENTIALS_ID', 'SENDER_PROVIDER_CREDENTIALS_PASSWORD']);
    assert.equal(banks.length, CATALOGUE_BANKS.length);
    assert.ok(banks.length >= 15, `${banks.length} banks`);
  });

  for (const { id, name } of CATALOGUE_BANKS) {
    it(`${name}: with nothing sent up front each listed field is asked (nothing else); with all of them sent, none`, async () => {
      const bank = banks.find((candidate) => candidate.id === id);
      assert.ok(bank, `${name} is in the providers list`);
      const expected = bank.requiredPaymentFields.map((field) => FIELD_OF[field] ?? field).sort();

      const bare = await flow.create(requestFor(bank, []));
      const firstPage = await openFlow(bare.redirectUrl, flow.seen);
      const asked = firstPage.status === 200 ? fieldsAsked(firstPage.html) : [];
      assert.deepEqual(
        asked,
        expected,
        `asked ${asked.join(', ') || 'nothing'}; lists ${bank.requiredPaymentFields.join(', ') || 'nothing'}`,
      );
      const bareHistory = statuses(await flow.history(bare.paymentId));
      assert.equal(bareHistory.includes('FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING'), expected.length > 0, bareHistory.join(' → '));

      const complete = await flow.create(requestFor(bank, bank.requiredPaymentFields));
      assert.equal((JSON.parse(complete.body) as { status: string }).status, 'PENDING');
      const page = await openFlow(complete.redirectUrl, flow.seen);
      // Where the flow stops now: the bank's page (a redirect), or ours for the next step (code, method, waiting).
      const askedAgain = page.status === 200 ? fieldsAsked(page.html).filter((field) => field !== 'otp') : [];
      assert.deepEqual(askedAgain, [], `asks again for ${askedAgain.join(', ')} (${headingOf(page.html)})`);
      const history = statuses(await flow.history(complete.paymentId));
      assert.ok(!history.some((status) => ASKING.includes(status)), history.join(' → '));
      // The flow went on to the bank: the payment (or the account consent) is there.
      assert.ok(
        history.includes('PAYMENT_REGISTRATION_PENDING') || history.includes('SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING'),
        history.join(' → '),
      );
    });
  }

  it('a login id sent alone is used: the payer is asked for the password only (again after a wrong one), and pays', async () => {
    for (const providerId of [BANKS.hansa, BANKS.italia, BANKS.lietuva]) {
      const created = await flow.create({ provider: { id: providerId }, sender: { credentials: { id: 'alice' } } });
      // The login id went to the bank within the creation request (decisions §7): the bank holds the payment.
      assert.ok((JSON.parse(created.body) as { providerPaymentId?: string }).providerPaymentId);
      const form = await openFlow(created.redirectUrl, flow.seen);
      assert.deepEqual(fieldsAsked(form.html), ['password']);
      // A wrong password: the bank keeps the payment it registered with the login id; the password alone is asked again.
      const refused = await submit(created.redirectUrl, form.html, 'details', { password: `${TEST_PASSWORD}-wrong` }, flow.seen);
      assert.equal(refused.status, 422);
      assert.match(refused.html, /Your bank did not accept these login details\. Attempts left: 2\./);
      assert.deepEqual(fieldsAsked(refused.html), ['password']);
      assert.deepEqual(statuses(await flow.history(created.paymentId)), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
      ]);
      const codePage = await submitAndFollow(created.redirectUrl, refused.html, 'details', { password: TEST_PASSWORD }, flow.seen);
      assert.equal(headingOf(codePage.html), 'Enter your one-time code');
      const paid = await submitAndFollow(created.redirectUrl, codePage.html, 'code', { otp: '123456' }, flow.seen);
      assert.equal(continueLinkOf(paid), `https://merchant.example/return?paymentId=${created.paymentId}`);
      await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      const history = statuses(await flow.history(created.paymentId));
      assert.deepEqual(history.slice(0, 3), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
        'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
      ]);
      assert.deepEqual(history.slice(-3), [
        'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
        'PAYMENT_EXECUTION_PENDING',
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
    }
  });

  it('refuses credentials it could not use: in hosted mode (no bank yet), and a password without its login id', async () => {
    const hosted = await flow.app.request('/api/v1/ob/payments', {
      method: 'POST',
      token,
      json: paymentRequest({ sender: { credentials: { id: 'alice', password: TEST_PASSWORD } } }),
    });
    const hostedBody = await hosted.text();
    flow.seen.push(hostedBody);
    assert.equal(hosted.status, 400);
    assert.deepEqual(JSON.parse(hostedBody), {
      title: 'Bad Request',
      statusCode: 400,
      message: 'sender.credentials must only be sent with provider.id',
    });
    const passwordOnly = await flow.app.request('/api/v1/ob/payments', {
      method: 'POST',
      token,
      json: paymentRequest({ provider: { id: BANKS.italia }, sender: { credentials: { password: TEST_PASSWORD } } }),
    });
    const passwordOnlyBody = await passwordOnly.text();
    flow.seen.push(passwordOnlyBody);
    assert.equal(passwordOnly.status, 400);
    assert.equal(
      (JSON.parse(passwordOnlyBody) as { message: string }).message,
      'sender.credentials.id must be sent with sender.credentials.password',
    );
    // Reported with every other violation in one message.
    const both = await flow.app.request('/api/v1/ob/payments', {
      method: 'POST',
      token,
      json: paymentRequest({ amount: 0, sender: { credentials: { password: TEST_PASSWORD } } }),
    });
    const bothBody = await both.text();
    flow.seen.push(bothBody);
    assert.equal(both.status, 400);
    const message = (JSON.parse(bothBody) as { message: string }).message;
    assert.ok(message.includes('amount must not be less than 0.01'), message);
    assert.ok(message.includes('sender.credentials must only be sent with provider.id'), message);
    assert.ok(message.includes('sender.credentials.id must be sent with sender.credentials.password'), message);
  });

  it('the test password is nowhere: not in any table, log line or response', async () => {
    await flow.assertPasswordNowhere();
  });
});

/** A valid recipient IBAN in the country of a non-euro currency. */
function recipientIban(currency: string): string {
  const ibans: Readonly<Record<string, string>> = {
    PLN: 'PL27114020040000300201355387',
    GBP: 'GB33BUKB20201555555555',
    SEK: 'SE3550000000054910000003',
    CZK: 'CZ5508000000001234567899',
  };
  const iban = ibans[currency];
  assert.ok(iban, currency);
  return iban;
}
