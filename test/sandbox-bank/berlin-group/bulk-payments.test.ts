/**
 * Bulk payments (`/v1/bulk-payments/{payment-product}`) at the sandbox banks whose catalogue entry says
 * `bulkPayments`: strict initiation checks, the redirect authorisation through the bank's pages in plain HTTP (the
 * page lists every payment and the total), the embedded and decoupled approaches, settlement with the ledger moved
 * exactly (one booking per payment, all or nothing), cancellation, fault rules that name the bulk service, and
 * SERVICE_INVALID at banks without them. Every exchange is checked against the Berlin Group OpenAPI file.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/wait.js';
import {
  catalogueWith,
  getPage,
  OPERATOR_TOKEN,
  readForm,
  scaStatusAt,
  SEPA_PAYMENT,
  startHarness,
  submit,
  transactionStatusAt,
  walkPages,
  xs2aHeaders,
  type Harness,
} from '../harness.js';

const TPP_OK = 'https://tpp.example/bulk/ok';
const TPP_NOK = 'https://tpp.example/bulk/nok';
const ALICE = 'DE54500105171000007919';
const BOB_MAIN = 'DE29500105171000015838';
const CARLA = 'DE04500105171000023757';
const ERIK = 'DE51500105171000039595';
const OUTSIDE = 'NL91ABNA0417164300';

/** Banks that offer bulk payments here besides the catalogue's own (Rheinland, Hansa): Nemunas (account information) and Midi (decoupled). */
const ALSO_BULK = new Set(['Nemunas Sandbox Bank', 'Crédit Sandbox du Midi']);

let bank: Harness;
before(async () => {
  bank = await startHarness({
    catalogue: catalogueWith((entry) => {
      if (ALSO_BULK.has(entry['name'])) entry['connector'].bulkPayments = true;
      // Midi notifies too, for the bulk's notifications.
      if (entry['name'] === 'Crédit Sandbox du Midi') entry['connector'].statusNotifications = true;
    }),
  });
});
after(async () => {
  await bank.close();
});

function element(creditorName: string, iban: string, amount: string, remittance: string, endToEnd: string) {
  return {
    instructedAmount: { currency: 'EUR', amount },
    creditorAccount: { iban },
    creditorName,
    remittanceInformationUnstructured: remittance,
    endToEndIdentification: endToEnd,
  };
}

function bulk(debtorIban: string, payments: readonly Record<string, unknown>[]) {
  return { batchBookingPreferred: false, debtorAccount: { iban: debtorIban, currency: 'EUR' }, payments };
}

const THREE_REFUNDS = bulk(ALICE, [
  element('Refund <One> & Co', BOB_MAIN, '0.10', 'Refund order 1', 'REFUND-1'),
  element('Carla Choice', CARLA, '0.20', 'Refund order 2', 'REFUND-2'),
  element('Merchant outside', OUTSIDE, '19.99', 'Refund order 3', 'REFUND-3'),
]);

async function initiateBulk(slug: string, body: unknown, headers: Record<string, string> = {}, invalidRequest = false) {
  return bank.call('initiatePayment', 'POST', `/${slug}/v1/bulk-payments/sepa-credit-transfers`, {
    headers: xs2aHeaders(headers),
    body,
    invalidRequest,
  });
}

const transactionStatus = (href: string): Promise<string> => transactionStatusAt(bank, href);
const scaStatus = (href: string): Promise<string> => scaStatusAt(bank, href);

/** The balance of one of a payer's accounts, read through an account information consent at Nemunas. */
async function balance(psuId: string, accountId: string): Promise<string> {
  const created = await bank.call('createConsent', 'POST', '/nemunas/v1/consents', {
    headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
    body: {
      access: { availableAccountsWithBalance: 'allAccounts' },
      recurringIndicator: false,
      validUntil: '2026-03-05',
      frequencyPerDay: 1,
      combinedServiceIndicator: false,
    },
  });
  assert.equal(created.status, 201);
  await walkPages(bank.local(created.body._links.scaRedirect.href), [
    ['Log in', { psuId, password: 'sandbox', action: 'approve' }],
    ['Share your accounts', { accountId: [accountId], action: 'approve' }],
    // Carla has several SCA methods to choose from.
    ...(psuId === 'carla' ? [['How do you want to confirm', { methodId: 'sms-carla', action: 'approve' }] as const] : []),
    ['one-time code', { otp: '123456', action: 'approve' }],
  ]);
  const accounts = await bank.call('getAccountList', 'GET', '/nemunas/v1/accounts?withBalance=true', {
    headers: xs2aHeaders({ 'Consent-ID': created.body.consentId }),
  });
  assert.equal(accounts.status, 200);
  return accounts.body.accounts[0].balances[0].balanceAmount.amount;
}

/** A two-decimal amount as whole cents, so balances compare exactly. */
function cents(amount: string): bigint {
  const match = /^(\d+)\.(\d{2})$/.exec(amount);
  assert.ok(match?.[1] !== undefined && match[2] !== undefined, `${amount} has two decimals`);
  return BigInt(match[1]) * 100n + BigInt(match[2]);
}

describe('bulk payment initiation', () => {
  it('refuses a body the standard or the bank does not accept, naming the field', async () => {
    const first = element('A', BOB_MAIN, '1.00', 'r', 'E1');
    const second = element('B', CARLA, '2.00', 'r', 'E2');
    const two = [first, second];
    const cases: Array<[string, unknown, string | undefined]> = [
      ['no debtorAccount', { payments: two }, 'debtorAccount'],
      ['no payments', { debtorAccount: { iban: ALICE } }, 'payments'],
      ['an empty list of payments', bulk(ALICE, []), 'payments'],
      [
        '101 payments',
        bulk(
          ALICE,
          Array.from({ length: 101 }, (_, index) => element('A', BOB_MAIN, '1.00', 'r', `E${index}`)),
        ),
        'payments',
      ],
      [
        'a creditor IBAN with a wrong checksum',
        bulk(ALICE, [first, element('B', 'DE00500105171000023757', '2.00', 'r', 'E2')]),
        'payments[1].creditorAccount.iban',
      ],
      ['a debtor IBAN with a wrong checksum', bulk('DE00500105171000007919', two), 'debtorAccount.iban'],
      ['a zero amount', bulk(ALICE, [element('A', BOB_MAIN, '0.00', 'r', 'E1'), second]), 'payments[0].instructedAmount.amount'],
      [
        'an amount with 3 decimals in EUR',
        bulk(ALICE, [first, element('B', CARLA, '1.005', 'r', 'E2')]),
        'payments[1].instructedAmount.amount',
      ],
      [
        'a currency other than the product',
        bulk(ALICE, [first, { ...element('B', CARLA, '2.00', 'r', 'E2'), instructedAmount: { currency: 'USD', amount: '2.00' } }]),
        'payments[1].instructedAmount.currency',
      ],
      [
        'no creditorName',
        bulk(ALICE, [first, { instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorAccount: { iban: CARLA } }]),
        'payments[1].creditorName',
      ],
      ['a debtorAccount in a payment', bulk(ALICE, [{ ...first, debtorAccount: { iban: ALICE } }, second]), 'payments[0].debtorAccount'],
      [
        'a remittance longer than the bank takes',
        bulk(ALICE, [first, element('B', CARLA, '2.00', 'x'.repeat(141), 'E2')]),
        'payments[1].remittanceInformationUnstructured',
      ],
    ];
    for (const [what, body, path] of cases) {
      const answer = await initiateBulk('rheinland', body, { 'TPP-Redirect-URI': TPP_OK }, true);
      assert.equal(answer.status, 400, what);
      assert.equal(answer.body.tppMessages[0].code, 'FORMAT_ERROR', what);
      if (path !== undefined) {
        assert.ok(
          answer.body.tppMessages.some((message: { path?: string }) => message.path === path),
          `${what}: expected a message on ${path}, got ${answer.text}`,
        );
      }
    }
  });

  it('a bank without bulk payments answers SERVICE_INVALID on every bulk path; periodic payments nowhere', async () => {
    const refused = await initiateBulk('polder', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.tppMessages[0].code, 'SERVICE_INVALID');
    for (const [operationId, method, path] of [
      ['getPaymentInitiationStatus', 'GET', '/polder/v1/bulk-payments/sepa-credit-transfers/some-id/status'],
      ['getPaymentInformation', 'GET', '/polder/v1/bulk-payments/sepa-credit-transfers/some-id'],
      ['startPaymentAuthorisation', 'POST', '/polder/v1/bulk-payments/sepa-credit-transfers/some-id/authorisations'],
      ['cancelPayment', 'DELETE', '/polder/v1/bulk-payments/sepa-credit-transfers/some-id'],
    ] as const) {
      const answer = await bank.call(operationId, method, path, { headers: xs2aHeaders(), invalidRequest: true });
      assert.equal(answer.status, 400, path);
      assert.equal(answer.body.tppMessages[0].code, 'SERVICE_INVALID', path);
    }
    const periodic = await bank.call('initiatePayment', 'POST', '/rheinland/v1/periodic-payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
      body: SEPA_PAYMENT,
      invalidRequest: true,
    });
    assert.equal(periodic.status, 400);
    assert.equal(periodic.body.tppMessages[0].code, 'SERVICE_INVALID');
  });

  it("the sandbox's index says which banks make bulk payments", async () => {
    const index = await getPage(`${bank.address}/`);
    assert.match(index.html, /<th>Bulk payments<\/th>/);
    assert.match(index.html, /<code>rheinland<\/code><\/td><td>REDIRECT<\/td><td>[^<]*<\/td><td>yes<\/td>/);
    assert.match(index.html, /<code>polder<\/code><\/td><td>REDIRECT<\/td><td>[^<]*<\/td><td>no<\/td>/);
  });

  it('a single payment is not found under the bulk service, nor a bulk under the single one', async () => {
    const single = await bank.call('initiatePayment', 'POST', '/rheinland/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
      body: SEPA_PAYMENT,
      debtorAccountOptional: true,
    });
    const asBulk = await bank.call(
      'getPaymentInitiationStatus',
      'GET',
      `/rheinland/v1/bulk-payments/sepa-credit-transfers/${single.body.paymentId}/status`,
      { headers: xs2aHeaders() },
    );
    assert.equal(asBulk.status, 403);
    assert.equal(asBulk.body.tppMessages[0].code, 'RESOURCE_UNKNOWN');
    const created = await initiateBulk('rheinland', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK });
    const asSingle = await bank.call(
      'getPaymentInitiationStatus',
      'GET',
      `/rheinland/v1/payments/sepa-credit-transfers/${created.body.paymentId}/status`,
      { headers: xs2aHeaders() },
    );
    assert.equal(asSingle.body.tppMessages[0].code, 'RESOURCE_UNKNOWN');
  });
});

describe('bulk payment authorisation', () => {
  it('redirect: the bank page lists every payment and the total; approved once, settled, the resource shows the bulk', async () => {
    const created = await initiateBulk('rheinland', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK });
    assert.equal(created.status, 201);
    assert.equal(created.body.transactionStatus, 'RCVD');
    for (const name of ['self', 'status', 'scaStatus']) {
      assert.match(created.body._links[name].href, /^http:\/\/sandbox-bank\.test\/rheinland\/v1\/bulk-payments\/sepa-credit-transfers\//);
    }
    assert.equal(created.headers.get('location'), created.body._links.self.href);
    const url = bank.local(created.body._links.scaRedirect.href);
    const login = await getPage(url);
    assert.match(login.html, /approve 3 payments/);
    await submit(readForm(login.html, url), { psuId: 'alice', password: 'sandbox', action: 'approve' });
    const review = await getPage(url);
    assert.match(review.html, /Approve these 3 payments\?/);
    assert.match(review.html, /Refund &lt;One&gt; &amp; Co/);
    assert.ok(!review.html.includes('<One>'));
    for (const text of [
      BOB_MAIN,
      CARLA,
      OUTSIDE,
      'Carla Choice',
      '0.10 EUR',
      '0.20 EUR',
      '19.99 EUR',
      'Refund order 1',
      'Refund order 3',
    ]) {
      assert.ok(review.html.includes(text), `the review page shows ${text}`);
    }
    assert.match(review.html, /Total<\/dt><dd>20\.29 EUR/);
    const location = await walkPages(url, [
      ['Approve these 3 payments', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(location, TPP_OK);
    assert.equal(await scaStatus(created.body._links.scaStatus.href), 'finalised');
    assert.equal(await transactionStatus(created.body._links.status.href), 'ACSC');
    const resource = await bank.call('getPaymentInformation', 'GET', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(resource.status, 200);
    assert.equal(resource.body.transactionStatus, 'ACSC');
    assert.equal(resource.body.batchBookingPreferred, false);
    assert.deepEqual(resource.body.debtorAccount, { iban: ALICE, currency: 'EUR' });
    assert.deepEqual(
      resource.body.payments.map((payment: { instructedAmount: { amount: string }; endToEndIdentification: string }) => [
        payment.endToEndIdentification,
        payment.instructedAmount.amount,
      ]),
      [
        ['REFUND-1', '0.10'],
        ['REFUND-2', '0.20'],
        ['REFUND-3', '19.99'],
      ],
    );
    const list = await bank.call('getPaymentInitiationAuthorisation', 'GET', `${created.body._links.self.href}/authorisations`, {
      headers: xs2aHeaders(),
    });
    assert.equal(list.body.authorisationIds.length, 1);
  });

  it('the ledger moves exactly: the debtor once per payment, each creditor held here credited', async () => {
    const before = await Promise.all([
      balance('alice', 'acc-alice-eur'),
      balance('bob', 'acc-bob-eur-main'),
      balance('carla', 'acc-carla-eur'),
    ]);
    const created = await initiateBulk('nemunas', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK });
    assert.equal(created.status, 201);
    await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'alice', password: 'sandbox', action: 'approve' }],
      ['Approve these 3 payments', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(await transactionStatus(created.body._links.status.href), 'ACSC');
    const after = await Promise.all([
      balance('alice', 'acc-alice-eur'),
      balance('bob', 'acc-bob-eur-main'),
      balance('carla', 'acc-carla-eur'),
    ]);
    // 20.29 out of Alice's account (0.10 + 0.20 + 19.99, no floating point), 0.10 to Bob and 0.20 to Carla.
    assert.deepEqual(
      after.map((amount, index) => cents(amount) - cents(before[index] ?? '')),
      [-2029n, 10n, 20n],
    );
  });

  it('a bulk the balance does not cover is rejected whole: nothing booked', async () => {
    const created = await initiateBulk(
      'nemunas',
      bulk(ERIK, [element('A', BOB_MAIN, '15.00', 'r', 'E1'), element('B', CARLA, '15.00', 'r', 'E2')]),
      { 'TPP-Redirect-URI': TPP_OK },
    );
    await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'erik', password: 'sandbox', action: 'approve' }],
      ['Approve these 2 payments', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    const status = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(status.body.transactionStatus, 'RJCT');
    assert.equal(status.body.tppMessages[0].code, 'FUNDS_NOT_AVAILABLE');
    assert.equal(await balance('erik', 'acc-erik-eur'), '25.00');
  });

  it('embedded: password and one-time code through the API, on the bulk paths', async () => {
    const created = await initiateBulk('hansa', THREE_REFUNDS, { 'PSU-ID': 'alice' });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('aspsp-sca-approach'), 'EMBEDDED');
    const startLink: string = created.body._links.startAuthorisationWithPsuAuthentication.href;
    assert.match(startLink, /\/hansa\/v1\/bulk-payments\/sepa-credit-transfers\/[^/]+\/authorisations$/);
    const start = await bank.call('startPaymentAuthorisation', 'POST', startLink, {
      headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
      body: { psuData: { password: 'sandbox' } },
    });
    assert.equal(start.status, 201);
    assert.equal(start.body.scaStatus, 'scaMethodSelected');
    const done = await bank.call('updatePaymentPsuData', 'PUT', start.body._links.authoriseTransaction.href, {
      headers: xs2aHeaders(),
      body: { scaAuthenticationData: '123456' },
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.scaStatus, 'finalised');
    assert.equal(await transactionStatus(created.body._links.status.href), 'ACSC');
  });

  it('decoupled: the payer approves the payments in the "app"', async () => {
    const created = await initiateBulk('midi', THREE_REFUNDS);
    assert.equal(created.status, 201);
    const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuIdentification.href, {
      headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
    });
    assert.equal(start.body.scaStatus, 'started');
    const appUrl = bank.local(start.body._links.sandboxDecoupledApp.href);
    const page = await getPage(appUrl);
    assert.match(page.html, /Approve these 3 payments/);
    const result = await submit(readForm(page.html, appUrl), { action: 'approve' });
    assert.match(result.html, /You have approved the payments/);
    assert.equal(await transactionStatus(created.body._links.status.href), 'ACSC');
  });

  it("status notifications name the bulk's path", async () => {
    const received: Array<Record<string, unknown>> = [];
    const tpp = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        received.push(JSON.parse(text) as Record<string, unknown>);
        response.statusCode = 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => tpp.listen(0, '127.0.0.1', resolve));
    try {
      const uri = `http://127.0.0.1:${(tpp.address() as { port: number }).port}/notify`;
      const created = await initiateBulk('midi', THREE_REFUNDS, { 'TPP-Notification-URI': uri });
      assert.equal(created.headers.get('aspsp-notification-support'), 'true');
      const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuIdentification.href, {
        headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
      });
      const appUrl = bank.local(start.body._links.sandboxDecoupledApp.href);
      const page = await getPage(appUrl);
      await submit(readForm(page.html, appUrl), { action: 'approve' });
      const settled = await waitFor('the settlement notification', () =>
        received.find((notification) => notification['transactionStatus'] === 'ACSC'),
      );
      assert.equal(settled['resource'], `/v1/bulk-payments/sepa-credit-transfers/${created.body.paymentId}`);
    } finally {
      await new Promise<void>((resolve) => tpp.close(() => resolve()));
    }
  });

  it('the TPP cancels a bulk before it is authorised', async () => {
    const created = await initiateBulk('rheinland', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK });
    const cancelled = await bank.call('cancelPayment', 'DELETE', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(cancelled.status, 204);
    assert.equal(await transactionStatus(created.body._links.status.href), 'CANC');
    assert.equal(await scaStatus(created.body._links.scaStatus.href), 'failed');
  });
});

describe('fault rules on bulk payments', () => {
  it('a rule naming the bulk service hits bulk calls only', async () => {
    const single = await bank.call('initiatePayment', 'POST', '/rheinland/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': TPP_OK }),
      body: SEPA_PAYMENT,
      debtorAccountOptional: true,
    });
    const created = await initiateBulk('rheinland', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK });
    const id = bank.faults.inject({
      bank: 'rheinland',
      operations: ['getPaymentStatus'],
      paymentService: 'bulk-payments',
      fault: { kind: 'error', status: 503 },
    });
    try {
      const failing = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
      assert.equal(failing.status, 503);
      assert.equal(await transactionStatus(single.body._links.status.href), 'RCVD');
    } finally {
      bank.faults.remove(id);
    }
    assert.equal(await transactionStatus(created.body._links.status.href), 'RCVD');
  });

  it('over HTTP too: the operator sets a rule on the bulk initiation', async () => {
    const headers = { Authorization: `Bearer ${OPERATOR_TOKEN}`, 'Content-Type': 'application/json' };
    const add = await fetch(`${bank.address}/rheinland/sandbox/faults`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        operations: ['initiatePayment'],
        paymentService: 'bulk-payments',
        fault: { kind: 'error', status: 500 },
        times: 1,
      }),
    });
    assert.equal(add.status, 201);
    const failed = await initiateBulk('rheinland', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK });
    assert.equal(failed.status, 500);
    const next = await initiateBulk('rheinland', THREE_REFUNDS, { 'TPP-Redirect-URI': TPP_OK });
    assert.equal(next.status, 201);
    const wrong = await fetch(`${bank.address}/rheinland/sandbox/faults`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ paymentService: 'periodic-payments', fault: { kind: 'error', status: 500 } }),
    });
    assert.equal(wrong.status, 400);
  });
});
