/**
 * Payment initiation at the sandbox bank over real HTTP, each SCA approach to its end state, with every request and
 * response checked against the Berlin Group OpenAPI file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  getPage,
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

const TPP_OK = 'https://tpp.example/return?state=ok';
const TPP_NOK = 'https://tpp.example/return?state=nok';

let bank: Harness;
before(async () => {
  bank = await startHarness();
});
after(async () => {
  await bank.close();
});

async function initiate(
  slug: string,
  extraHeaders: Record<string, string> = {},
  body: Record<string, unknown> = SEPA_PAYMENT,
  product = 'sepa-credit-transfers',
) {
  const result = await bank.call('initiatePayment', 'POST', `/${slug}/v1/payments/${product}`, {
    headers: xs2aHeaders(extraHeaders),
    body,
    debtorAccountOptional: !('debtorAccount' in body),
  });
  return result;
}

const status = (href: string): Promise<string> => transactionStatusAt(bank, href);
const scaStatus = (href: string): Promise<string> => scaStatusAt(bank, href);

/** Runs the embedded approach for a payer up to the transaction authorisation. */
async function embeddedUntilCode(slug: string, psuId: string, body: Record<string, unknown> = SEPA_PAYMENT) {
  const created = await initiate(slug, { 'PSU-ID': psuId }, body);
  assert.equal(created.status, 201);
  const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuAuthentication.href, {
    headers: xs2aHeaders({ 'PSU-ID': psuId }),
    body: { psuData: { password: 'sandbox' } },
  });
  assert.equal(start.status, 201);
  return { created, start };
}

describe('redirect approach', () => {
  it('creates the payment with an implicit authorisation and absolute links', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('aspsp-sca-approach'), 'REDIRECT');
    assert.equal(created.body.transactionStatus, 'RCVD');
    assert.equal(created.headers.get('location'), created.body._links.self.href);
    for (const name of ['scaRedirect', 'self', 'status', 'scaStatus']) {
      assert.match(created.body._links[name].href, /^http:\/\/sandbox-bank\.test\/rheinland\//);
    }
    // The redirect link carries an unguessable token, not the payment id.
    assert.ok(!created.body._links.scaRedirect.href.includes(created.body.paymentId));
    assert.equal(await scaStatus(created.body._links.scaStatus.href), 'received');
  });

  it('login, review, code: ends on the TPP redirect URI with ACSC and a debited balance', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK });
    const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'alice', password: 'sandbox', action: 'approve' }],
      ['Approve this payment', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(location, TPP_OK);
    assert.equal(await scaStatus(created.body._links.scaStatus.href), 'finalised');
    assert.equal(await status(created.body._links.status.href), 'ACSC');
    const info = await bank.call('getPaymentInformation', 'GET', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(info.status, 200);
    assert.equal(info.body.debtorAccount.iban, 'DE54500105171000007919');
    assert.equal(info.body.instructedAmount.amount, '123.45');
  });

  it('shows escaped payment data on the review page', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK });
    const url = bank.local(created.body._links.scaRedirect.href);
    const login = await getPage(url);
    await submit(readForm(login.html, url), { psuId: 'alice', password: 'sandbox', action: 'approve' });
    const review = await getPage(url);
    assert.match(review.html, /Merchant &amp; Co &lt;Test&gt;/);
    assert.ok(!review.html.includes('<Test>'));
    assert.match(review.html, /123\.45 EUR/);
    assert.match(review.html, /NL91ABNA0417164300/);
    assert.match(review.html, /Invoice 2026-042/);
  });

  it('the payer chooses among several EUR accounts and an SCA method', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK });
    const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'bob', password: 'sandbox', action: 'approve' }],
      ['Choose the account', { accountId: 'acc-bob-eur-savings', action: 'approve' }],
      ['Approve this payment', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(location, TPP_OK);
    assert.equal(await status(created.body._links.status.href), 'ACCC');

    const second = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK });
    const end = await walkPages(bank.local(second.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'carla', password: 'sandbox', action: 'approve' }],
      ['Approve this payment', { action: 'approve' }],
      ['How do you want to confirm', { methodId: 'push-carla', action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(end, TPP_OK);
    assert.equal(await status(second.body._links.status.href), 'ACSC');
  });

  it('cancel at the bank goes to the nok URI; the payment is CANC', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK });
    const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'alice', password: 'sandbox', action: 'approve' }],
      ['Approve this payment', { action: 'cancel' }],
    ]);
    assert.equal(location, TPP_NOK);
    assert.equal(await scaStatus(created.body._links.scaStatus.href), 'failed');
    assert.equal(await status(created.body._links.status.href), 'CANC');
  });

  it('three wrong passwords fail the authorisation and reject the payment', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK, 'TPP-Nok-Redirect-URI': TPP_NOK });
    const url = bank.local(created.body._links.scaRedirect.href);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const page = await getPage(url);
      if (attempt > 1) assert.match(page.html, new RegExp(`Wrong user ID or password. ${4 - attempt} attempt`));
      const result = await submit(readForm(page.html, url), { psuId: 'alice', password: 'wrong', action: 'approve' });
      assert.equal(result.status, 303);
      assert.equal(result.location, attempt === 3 ? TPP_NOK : url);
    }
    assert.equal(await scaStatus(created.body._links.scaStatus.href), 'failed');
    assert.equal(await status(created.body._links.status.href), 'RJCT');
  });

  it('rejects a forged form (wrong anti-forgery token) and unknown page tokens', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK });
    const url = bank.local(created.body._links.scaRedirect.href);
    const page = await getPage(url);
    const form = readForm(page.html, url);
    const forged = await submit(
      { ...form, fields: { ...form.fields, csrf: 'x'.repeat(32) } },
      { psuId: 'alice', password: 'sandbox', action: 'approve' },
    );
    assert.equal(forged.status, 403);
    const unknown = await getPage(`${bank.address}/rheinland/sca/not-a-token`);
    assert.equal(unknown.status, 404);
    assert.equal(await scaStatus(created.body._links.scaStatus.href), 'received');
  });

  it('with TPP-Explicit-Authorisation-Preferred the TPP starts the authorisation', async () => {
    const created = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK, 'TPP-Explicit-Authorisation-Preferred': 'true' });
    assert.ok(created.body._links.startAuthorisation);
    assert.equal(created.body._links.scaRedirect, undefined);
    const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisation.href, {
      headers: xs2aHeaders(),
    });
    assert.equal(start.status, 201);
    assert.ok(start.body._links.scaRedirect.href);
    const list = await bank.call('getPaymentInitiationAuthorisation', 'GET', created.body._links.startAuthorisation.href, {
      headers: xs2aHeaders(),
    });
    assert.deepEqual(list.body.authorisationIds, [start.body.authorisationId]);
  });

  it('requires TPP-Redirect-URI for the redirect approach', async () => {
    const result = await initiate('rheinland');
    assert.equal(result.status, 400);
    assert.equal(result.body.tppMessages[0].code, 'FORMAT_ERROR');
  });
});

describe('embedded approach', () => {
  it('one SCA method: password, code, finalised, ACSC', async () => {
    const { created, start } = await embeddedUntilCode('hansa', 'alice');
    assert.equal(created.headers.get('aspsp-sca-approach'), 'EMBEDDED');
    assert.equal(start.body.scaStatus, 'scaMethodSelected');
    assert.equal(start.body.chosenScaMethod.authenticationType, 'SMS_OTP');
    // Owner names only after successful SCA (1.3.12).
    const before = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(before.body.ownerNames, undefined);
    const done = await bank.call('updatePaymentPsuData', 'PUT', start.body._links.authoriseTransaction.href, {
      headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
      body: { scaAuthenticationData: '123456' },
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.scaStatus, 'finalised');
    assert.equal(await status(created.body._links.status.href), 'ACSC');
    const after = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.deepEqual(after.body.ownerNames, [{ name: 'Alice Happy', role: 'owner' }]);
    const resource = await bank.call('getPaymentInformation', 'GET', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(resource.body.debtorAccount.iban, 'DE54500105171000007919');
  });

  it('several SCA methods: select, then code', async () => {
    const { created, start } = await embeddedUntilCode('hansa', 'carla');
    assert.equal(start.body.scaStatus, 'psuAuthenticated');
    assert.deepEqual(
      start.body.scaMethods.map((method: { authenticationType: string }) => method.authenticationType),
      ['SMS_OTP', 'CHIP_OTP', 'PUSH_OTP'],
    );
    const unknown = await bank.call('updatePaymentPsuData', 'PUT', start.body._links.selectAuthenticationMethod.href, {
      headers: xs2aHeaders(),
      body: { authenticationMethodId: 'nope' },
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.tppMessages[0].code, 'SCA_METHOD_UNKNOWN');
    const selected = await bank.call('updatePaymentPsuData', 'PUT', start.body._links.selectAuthenticationMethod.href, {
      headers: xs2aHeaders(),
      body: { authenticationMethodId: 'chip-carla' },
    });
    assert.equal(selected.body.scaStatus, 'scaMethodSelected');
    assert.equal(selected.body.chosenScaMethod.authenticationMethodId, 'chip-carla');
    const done = await bank.call('updatePaymentPsuData', 'PUT', selected.body._links.authoriseTransaction.href, {
      headers: xs2aHeaders(),
      body: { scaAuthenticationData: '123456' },
    });
    assert.equal(done.body.scaStatus, 'finalised');
    assert.equal(await status(created.body._links.status.href), 'ACSC');
  });

  it('a payer without SCA methods is exempted', async () => {
    const { created, start } = await embeddedUntilCode('hansa', 'dave');
    assert.equal(start.body.scaStatus, 'exempted');
    assert.equal(await status(created.body._links.status.href), 'ACSC');
  });

  it('password via PUT after an empty start', async () => {
    const created = await initiate('hansa', { 'PSU-ID': 'alice' });
    const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuAuthentication.href, {
      headers: xs2aHeaders(),
    });
    assert.equal(start.status, 201);
    assert.equal(start.body.scaStatus, 'psuIdentified');
    const authenticated = await bank.call('updatePaymentPsuData', 'PUT', start.body._links.updatePsuAuthentication.href, {
      headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
      body: { psuData: { password: 'sandbox' } },
    });
    assert.equal(authenticated.status, 200);
    assert.equal(authenticated.body.scaStatus, 'scaMethodSelected');
  });

  it('three wrong passwords: 401 PSU_CREDENTIALS_INVALID, then the payment is RJCT', async () => {
    const created = await initiate('hansa', { 'PSU-ID': 'alice' });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const result = await bank.call(
        'startPaymentAuthorisation',
        'POST',
        created.body._links.startAuthorisationWithPsuAuthentication.href,
        {
          headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
          body: { psuData: { password: `wrong-${attempt}` } },
        },
      );
      assert.equal(result.status, 401);
      assert.equal(result.body.tppMessages[0].code, 'PSU_CREDENTIALS_INVALID');
      assert.ok(!result.text.includes('wrong-'), 'the password is never echoed');
    }
    assert.equal(await status(created.body._links.status.href), 'RJCT');
    const again = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuAuthentication.href, {
      headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
      body: { psuData: { password: 'sandbox' } },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.tppMessages[0].code, 'STATUS_INVALID');
  });

  it('three wrong codes fail the authorisation; later updates get SCA_INVALID', async () => {
    const { created, start } = await embeddedUntilCode('hansa', 'alice');
    const href = start.body._links.authoriseTransaction.href;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const result = await bank.call('updatePaymentPsuData', 'PUT', href, {
        headers: xs2aHeaders(),
        body: { scaAuthenticationData: '000000' },
      });
      assert.equal(result.status, 401);
    }
    assert.equal(await scaStatus(start.body._links.scaStatus.href), 'failed');
    assert.equal(await status(created.body._links.status.href), 'RJCT');
    const late = await bank.call('updatePaymentPsuData', 'PUT', href, {
      headers: xs2aHeaders(),
      body: { scaAuthenticationData: '123456' },
    });
    assert.equal(late.status, 400);
    assert.equal(late.body.tppMessages[0].code, 'SCA_INVALID');
  });

  it('a payer whose SCA always fails: scaStatus failed, RJCT', async () => {
    const { created, start } = await embeddedUntilCode('hansa', 'ivan');
    const result = await bank.call('updatePaymentPsuData', 'PUT', start.body._links.authoriseTransaction.href, {
      headers: xs2aHeaders(),
      body: { scaAuthenticationData: '123456' },
    });
    assert.equal(result.status, 200);
    assert.equal(result.body.scaStatus, 'failed');
    const rejected = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(rejected.body.transactionStatus, 'RJCT');
    assert.equal(rejected.body.tppMessages[0].code, 'SCA_INVALID');
  });

  it('an unknown PSU-ID is refused at initiation', async () => {
    const result = await initiate('hansa', { 'PSU-ID': 'nobody' });
    assert.equal(result.status, 401);
    assert.equal(result.body.tppMessages[0].code, 'PSU_CREDENTIALS_INVALID');
  });

  it('TPP-Redirect-Preferred: false picks embedded at a bank offering both', async () => {
    const created = await initiate('lumiere', { 'PSU-ID': 'alice', 'TPP-Redirect-Preferred': 'false' });
    assert.equal(created.headers.get('aspsp-sca-approach'), 'EMBEDDED');
    const redirect = await initiate('lumiere', { 'TPP-Redirect-URI': TPP_OK });
    assert.equal(redirect.headers.get('aspsp-sca-approach'), 'REDIRECT');
  });
});

describe('decoupled approach', () => {
  async function startDecoupled(
    psuId: string,
    slug = 'midi',
    body: Record<string, unknown> = SEPA_PAYMENT,
    product = 'sepa-credit-transfers',
  ) {
    const created = await initiate(slug, {}, body, product);
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('aspsp-sca-approach'), 'DECOUPLED');
    const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuIdentification.href, {
      headers: xs2aHeaders({ 'PSU-ID': psuId }),
    });
    assert.equal(start.status, 201);
    return { created, start };
  }

  it('the payer approves in the "app"; the TPP polls to finalised and ACSC', async () => {
    const { created, start } = await startDecoupled('alice');
    assert.equal(start.body.scaStatus, 'started');
    assert.match(start.body.psuMessage, /app/);
    assert.equal(await scaStatus(start.body._links.scaStatus.href), 'started');
    assert.equal(await status(created.body._links.status.href), 'RCVD');
    const appUrl = bank.local(start.body._links.sandboxDecoupledApp.href);
    const page = await getPage(appUrl);
    assert.match(page.html, /Approve this payment/);
    const result = await submit(readForm(page.html, appUrl), { action: 'approve' });
    // The app has nowhere to redirect to: it says so, and the TPP learns the outcome by polling.
    assert.equal(result.status, 200);
    assert.match(result.html, /You have approved the payment/);
    assert.equal(await scaStatus(start.body._links.scaStatus.href), 'finalised');
    assert.equal(await status(created.body._links.status.href), 'ACSC');
  });

  it('the payer denies in the "app": failed, CANC', async () => {
    const { created, start } = await startDecoupled('alice');
    const appUrl = bank.local(start.body._links.sandboxDecoupledApp.href);
    const page = await getPage(appUrl);
    await submit(readForm(page.html, appUrl), { action: 'cancel' });
    assert.equal(await scaStatus(start.body._links.scaStatus.href), 'failed');
    assert.equal(await status(created.body._links.status.href), 'CANC');
  });

  it('the decoupled start needs a PSU-ID', async () => {
    const created = await initiate('midi');
    const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuIdentification.href, {
      headers: xs2aHeaders(),
    });
    assert.equal(start.status, 400);
    assert.equal(start.body.tppMessages[0].code, 'FORMAT_ERROR');
  });

  it('a SEK domestic payment at the Swedish bank', async () => {
    const body = {
      ...SEPA_PAYMENT,
      instructedAmount: { currency: 'SEK', amount: '250' },
      creditorAccount: { iban: 'SE3550000000054910000003' },
    };
    const { created, start } = await startDecoupled('sven', 'norrland', body, 'sek-credit-transfers');
    const appUrl = bank.local(start.body._links.sandboxDecoupledApp.href);
    const page = await getPage(appUrl);
    assert.match(page.html, /250\.00 SEK/);
    await submit(readForm(page.html, appUrl), { action: 'approve' });
    assert.equal(await status(created.body._links.status.href), 'ACSC');
  });
});

describe('execution outcomes', () => {
  async function authorisedEmbedded(psuId: string, body: Record<string, unknown> = SEPA_PAYMENT) {
    const { created, start } = await embeddedUntilCode('hansa', psuId, body);
    const done = await bank.call('updatePaymentPsuData', 'PUT', start.body._links.authoriseTransaction.href, {
      headers: xs2aHeaders(),
      body: { scaAuthenticationData: '123456' },
    });
    assert.equal(done.body.scaStatus, 'finalised');
    return created.body._links.status.href as string;
  }

  it('ACTC, then ACSP, then ACSC as the clock moves', async () => {
    const href = await authorisedEmbedded('hanna');
    assert.equal(await status(href), 'ACTC');
    bank.clock.advance(5_000);
    assert.equal(await status(href), 'ACSP');
    bank.clock.advance(29_000);
    assert.equal(await status(href), 'ACSP');
    bank.clock.advance(1_000);
    assert.equal(await status(href), 'ACSC');
  });

  it('the bank rejects at execution', async () => {
    const href = await authorisedEmbedded('fiona');
    const result = await bank.call('getPaymentInitiationStatus', 'GET', href, { headers: xs2aHeaders() });
    assert.equal(result.body.transactionStatus, 'RJCT');
    assert.equal(result.body.tppMessages[0].code, 'PAYMENT_FAILED');
  });

  it('a pending payer stays ACSP', async () => {
    const href = await authorisedEmbedded('gustav');
    bank.clock.advance(3_600_000);
    assert.equal(await status(href), 'ACSP');
  });

  it('insufficient funds: RJCT with FUNDS_NOT_AVAILABLE', async () => {
    const href = await authorisedEmbedded('erik', { ...SEPA_PAYMENT, instructedAmount: { currency: 'EUR', amount: '25.01' } });
    const result = await bank.call('getPaymentInitiationStatus', 'GET', href, { headers: xs2aHeaders() });
    assert.equal(result.body.transactionStatus, 'RJCT');
    assert.equal(result.body.tppMessages[0].code, 'FUNDS_NOT_AVAILABLE');
    // Exactly the balance still goes through: the check is exact, not floating point.
    const exact = await authorisedEmbedded('erik', { ...SEPA_PAYMENT, instructedAmount: { currency: 'EUR', amount: '25.00' } });
    assert.equal(await status(exact), 'ACSC');
  });
});

describe('cancellation, products and formats', () => {
  it('DELETE cancels a payment not yet authorised; a settled one cannot be cancelled', async () => {
    const created = await initiate('hansa', { 'PSU-ID': 'alice' });
    const cancel = await bank.call('cancelPayment', 'DELETE', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(cancel.status, 204);
    assert.equal(await status(created.body._links.status.href), 'CANC');
    const twice = await bank.call('cancelPayment', 'DELETE', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(twice.status, 405);
    assert.equal(twice.body.tppMessages[0].code, 'CANCELLATION_INVALID');
  });

  it('products the bank does not list are unknown (404 PRODUCT_UNKNOWN)', async () => {
    const result = await initiate('hansa', { 'PSU-ID': 'alice' }, SEPA_PAYMENT, 'instant-sepa-credit-transfers');
    assert.equal(result.status, 404);
    assert.equal(result.body.tppMessages[0].code, 'PRODUCT_UNKNOWN');
    const instant = await initiate('rheinland', { 'TPP-Redirect-URI': TPP_OK }, SEPA_PAYMENT, 'instant-sepa-credit-transfers');
    assert.equal(instant.status, 201);
  });

  it('a PLN domestic payment at the Polish bank, and EUR refused there', async () => {
    const body = {
      ...SEPA_PAYMENT,
      instructedAmount: { currency: 'PLN', amount: '99.99' },
      creditorAccount: { iban: 'PL27114020040000300201355387' },
    };
    const created = await initiate('wisla', { 'TPP-Redirect-URI': TPP_OK }, body, 'pln-credit-transfers');
    assert.equal(created.status, 201);
    const location = await walkPages(bank.local(created.body._links.scaRedirect.href), [
      ['Log in', { psuId: 'kasia', password: 'sandbox', action: 'approve' }],
      ['99\\.99 PLN', { action: 'approve' }],
      ['one-time code', { otp: '123456', action: 'approve' }],
    ]);
    assert.equal(location, TPP_OK);
    assert.equal(await status(created.body._links.status.href), 'ACSC');
    const euro = await initiate('wisla', { 'TPP-Redirect-URI': TPP_OK }, SEPA_PAYMENT, 'pln-credit-transfers');
    assert.equal(euro.status, 400);
  });

  it('format errors: X-Request-ID, IBAN, amount, missing PSU-IP-Address, bad JSON', async () => {
    const noId = await bank.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', {
      headers: { 'X-Request-ID': 'not-a-uuid', 'PSU-IP-Address': '10.0.0.1' },
      body: SEPA_PAYMENT,
      invalidRequest: true,
    });
    assert.equal(noId.status, 400);
    assert.match(noId.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const badIban = await bank.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders(),
      body: { ...SEPA_PAYMENT, creditorAccount: { iban: 'DE00370400440532013000' } },
      debtorAccountOptional: true,
    });
    assert.equal(badIban.status, 400);
    assert.equal(badIban.body.tppMessages[0].path, 'creditorAccount.iban');
    const badAmount = await bank.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders(),
      body: { ...SEPA_PAYMENT, instructedAmount: { currency: 'EUR', amount: '1.005' } },
      debtorAccountOptional: true,
    });
    assert.equal(badAmount.status, 400);
    const noIp = await bank.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', {
      headers: { 'X-Request-ID': crypto.randomUUID() },
      body: SEPA_PAYMENT,
      invalidRequest: true,
    });
    assert.equal(noIp.status, 400);
    const badJson = await bank.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders(),
      rawBody: '{"instructedAmount":',
      invalidRequest: true,
    });
    assert.equal(badJson.status, 400);
    assert.equal(badJson.body.tppMessages[0].code, 'FORMAT_ERROR');
  });

  it('a bank that needs the debtor account refuses a payment without it', async () => {
    const result = await initiate('sol', { 'TPP-Redirect-URI': TPP_OK });
    assert.equal(result.status, 400);
    assert.equal(result.body.tppMessages[0].path, 'debtorAccount');
    const withDebtor = await initiate(
      'sol',
      { 'TPP-Redirect-URI': TPP_OK },
      { ...SEPA_PAYMENT, debtorAccount: { iban: 'DE54500105171000007919' } },
    );
    assert.equal(withDebtor.status, 201);
  });

  it('unknown payment ids are 403 RESOURCE_UNKNOWN', async () => {
    const result = await bank.call(
      'getPaymentInitiationStatus',
      'GET',
      '/hansa/v1/payments/sepa-credit-transfers/00000000-0000-4000-8000-000000000000/status',
      { headers: xs2aHeaders() },
    );
    assert.equal(result.status, 403);
    assert.equal(result.body.tppMessages[0].code, 'RESOURCE_UNKNOWN');
  });
});
