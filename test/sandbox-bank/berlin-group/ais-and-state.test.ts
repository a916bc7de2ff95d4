/**
 * Account information (consent, account list with balances), expiry with an injected clock, and the size bound of
 * the sandbox bank's memory; every exchange checked against the Berlin Group OpenAPI file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SEPA_PAYMENT, startHarness, walkPages, xs2aHeaders, getPage, readForm, submit, type Harness } from '../harness.js';

const TPP_OK = 'https://tpp.example/ais/ok';
const TPP_NOK = 'https://tpp.example/ais/nok';

let bank: Harness;
before(async () => {
  bank = await startHarness();
});
after(async () => {
  await bank.close();
});

const CONSENT = {
  access: { availableAccounts: 'allAccounts' },
  recurringIndicator: false,
  validUntil: '2026-03-05',
  frequencyPerDay: 1,
  combinedServiceIndicator: false,
};

async function validConsent(psuId: string, access: Record<string, unknown>, accountIds: string[]): Promise<string> {
  const created = await bank.call('createConsent', 'POST', '/nemunas/v1/consents', {
    headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK }),
    body: { ...CONSENT, access },
  });
  assert.equal(created.status, 201);
  const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
    ['Log in', { psuId, password: 'sandbox', action: 'approve' }],
    ['Share your accounts', { accountId: accountIds, action: 'approve' }],
    ['one-time code', { otp: '123456', action: 'approve' }],
  ]);
  assert.equal(location, TPP_OK);
  return created.body.consentId;
}

describe('consents and accounts', () => {
  it('allAccounts consent by redirect, then the shared accounts are listed', async () => {
    const created = await bank.call('createConsent', 'POST', '/nemunas/v1/consents', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
      body: CONSENT,
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.consentStatus, 'received');
    assert.equal(created.headers.get('aspsp-sca-approach'), 'REDIRECT');
    const id = created.body.consentId;
    const early = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts', { headers: xs2aHeaders({ 'Consent-ID': id }) });
    assert.equal(early.status, 401);
    assert.equal(early.body.tppMessages[0].code, 'CONSENT_INVALID');

    const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'bob', password: 'sandbox', action: 'approve' }],
      ['Share your accounts', { accountId: ['acc-bob-eur-main', 'acc-bob-chf'], action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(location, TPP_OK);
    const statusResult = await bank.call('getConsentStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(statusResult.body.consentStatus, 'valid');
    const info = await bank.call('getConsentInformation', 'GET', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(info.body.consentStatus, 'valid');
    assert.equal(info.body.access.availableAccounts, 'allAccounts');
    const sca = await bank.call('getConsentScaStatus', 'GET', created.body._links.scaStatus.href, { headers: xs2aHeaders() });
    assert.equal(sca.body.scaStatus, 'finalised');

    const accounts = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts', { headers: xs2aHeaders({ 'Consent-ID': id }) });
    assert.equal(accounts.status, 200);
    assert.deepEqual(
      accounts.body.accounts.map((account: { resourceId: string; iban: string; currency: string }) => [
        account.resourceId,
        account.iban,
        account.currency,
      ]),
      [
        ['acc-bob-eur-main', 'DE29500105171000015838', 'EUR'],
        ['acc-bob-chf', 'CH9300762011623852957', 'CHF'],
      ],
    );
    assert.equal(accounts.body.accounts[0].name, 'Bob main account');
    assert.equal(accounts.body.accounts[0].balances, undefined);
    const noBalances = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts?withBalance=true', {
      headers: xs2aHeaders({ 'Consent-ID': id }),
    });
    assert.equal(noBalances.status, 401);

    const deleted = await bank.call('deleteConsent', 'DELETE', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(deleted.status, 204);
    const after = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts', { headers: xs2aHeaders({ 'Consent-ID': id }) });
    assert.equal(after.status, 401);
  });

  it('dedicated-account consents and unknown consent ids', async () => {
    const id = await validConsent('alice', { accounts: [{ iban: 'DE54500105171000007919' }] }, ['acc-alice-eur']);
    const accounts = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts', { headers: xs2aHeaders({ 'Consent-ID': id }) });
    assert.equal(accounts.body.accounts.length, 1);
    const unknown = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts', { headers: xs2aHeaders({ 'Consent-ID': 'nope' }) });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.tppMessages[0].code, 'CONSENT_UNKNOWN');
    const noAis = await bank.call('createConsent', 'POST', '/rheinland/v1/consents', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
      body: CONSENT,
    });
    assert.equal(noAis.status, 400);
    assert.equal(noAis.body.tppMessages[0].code, 'SERVICE_INVALID');
  });

  it('insufficient funds: RJCT, and the balances are unchanged', async () => {
    const consentId = await validConsent('erik', { availableAccountsWithBalance: 'allAccounts' }, ['acc-erik-eur']);
    const read = async (): Promise<string> => {
      const result = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts?withBalance=true', {
        headers: xs2aHeaders({ 'Consent-ID': consentId }),
      });
      assert.equal(result.status, 200);
      return result.body.accounts[0].balances[0].balanceAmount.amount;
    };
    assert.equal(await read(), '25.00');
    const created = await bank.call('initiatePayment', 'POST', '/nemunas/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK }),
      body: { ...SEPA_PAYMENT, debtorAccount: { iban: 'DE51500105171000039595' }, instructedAmount: { currency: 'EUR', amount: '30.00' } },
    });
    const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'erik', password: 'sandbox', action: 'approve' }],
      ['Approve this payment', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    // SCA succeeded, so the payer returns to the ok URI; the rejection comes with execution.
    assert.equal(location, TPP_OK);
    const status = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(status.body.transactionStatus, 'RJCT');
    assert.equal(status.body.tppMessages[0].code, 'FUNDS_NOT_AVAILABLE');
    assert.equal(await read(), '25.00');

    const small = await bank.call('initiatePayment', 'POST', '/nemunas/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
      body: { ...SEPA_PAYMENT, debtorAccount: { iban: 'DE51500105171000039595' }, instructedAmount: { currency: 'EUR', amount: '0.10' } },
    });
    await walkPages(bank.local(small.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'erik', password: 'sandbox', action: 'approve' }],
      ['Approve this payment', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(await read(), '24.90');
  });

  it('a debtor account of somebody else rejects the payment at login', async () => {
    const created = await bank.call('initiatePayment', 'POST', '/nemunas/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK }),
      body: { ...SEPA_PAYMENT, debtorAccount: { iban: 'DE29500105171000015838' } },
    });
    const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'alice', password: 'sandbox', action: 'approve' }],
    ]);
    assert.equal(location, TPP_NOK);
    const status = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(status.body.transactionStatus, 'RJCT');
  });
});

describe('expiry', () => {
  it('an authorisation not finished within the deadline expires to RJCT', async () => {
    const created = await bank.call('initiatePayment', 'POST', '/rheinland/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK }),
      body: SEPA_PAYMENT,
      debtorAccountOptional: true,
    });
    const url = bank.local(created.body._links.scaRedirect.href);
    const page = await getPage(url);
    bank.clock.advance(14 * 60_000);
    const status = async () =>
      (await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() })).body;
    assert.equal((await status()).transactionStatus, 'RCVD');
    bank.clock.advance(61_000);
    const expired = await status();
    assert.equal(expired.transactionStatus, 'RJCT');
    assert.equal(expired.tppMessages[0].code, 'RESOURCE_EXPIRED');
    const sca = await bank.call('getPaymentInitiationScaStatus', 'GET', created.body._links.scaStatus.href, { headers: xs2aHeaders() });
    assert.equal(sca.body.scaStatus, 'failed');
    // The payer who comes back late is sent to the nok URI.
    const late = await submit(readForm(page.html, url), { psuId: 'alice', password: 'sandbox', action: 'approve' });
    assert.equal(late.location, TPP_NOK);
  });

  it('consents expire the same way', async () => {
    const created = await bank.call('createConsent', 'POST', '/nemunas/v1/consents', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
      body: { ...CONSENT, validUntil: '2027-01-01' },
    });
    bank.clock.advance(16 * 60_000);
    const status = await bank.call('getConsentStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(status.body.consentStatus, 'rejected');
  });
});

describe('size bound', () => {
  it('keeps at most maxResources, evicting the oldest finished first', async () => {
    const small = await startHarness({ maxResources: 3 });
    try {
      const create = async () =>
        small.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', {
          headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
          body: SEPA_PAYMENT,
          debtorAccountOptional: true,
        });
      const statusOf = async (href: string) =>
        (await small.call('getPaymentInitiationStatus', 'GET', href, { headers: xs2aHeaders() })).status;
      const first = await create();
      const second = await create();
      const third = await create();
      // The second is finished (cancelled): it goes before the older, still open, first one.
      await small.call('cancelPayment', 'DELETE', second.body._links.self.href, { headers: xs2aHeaders() });
      const fourth = await create();
      assert.equal(await statusOf(second.body._links.status.href), 403);
      assert.equal(await statusOf(first.body._links.status.href), 200);
      // Nothing finished: the oldest goes.
      await create();
      assert.equal(await statusOf(first.body._links.status.href), 403);
      assert.equal(await statusOf(third.body._links.status.href), 200);
      assert.equal(await statusOf(fourth.body._links.status.href), 200);
    } finally {
      await small.close();
    }
  });
});
