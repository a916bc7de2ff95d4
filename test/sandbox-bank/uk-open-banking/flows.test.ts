/**
 * The UK Open Banking sandbox banks end to end over real HTTP, driven by a jose TPP (tpp.ts): discovery, client
 * authentication, consents, the hybrid flow through the payer pages, code exchange, payments and their status
 * progression, CIBA with the bank app, idempotency, signatures and fault injection. Every resource call is checked
 * against the standard's OpenAPI definition (standard.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateKeyPair } from 'jose';
import type { BankJson } from '../harness.js';
import { fragmentOf, gbpPayment, payerAtBank, payerInBankApp, startUkBank, Tpp, type UkBank } from './tpp.js';

let bank: UkBank;
before(async () => {
  bank = await startUkBank();
});
after(async () => {
  await bank.close();
});

/** Consent → payer approves at the bank → code exchange: the payer-bound token and the consent id. */
async function authorised(tpp: Tpp, psuId: string, amount: string, extra: { accountId?: string; readRefundAccount?: 'Yes' | 'No' } = {}) {
  const { readRefundAccount, ...choices } = extra;
  const consent = await tpp.createConsent(gbpPayment(amount), readRefundAccount === undefined ? {} : { readRefundAccount });
  assert.equal(consent.status, 201);
  const consentId = consent.body.Data.ConsentId as string;
  const visit = await payerAtBank(await tpp.authorizeUrl(consentId), { psuId, ...choices });
  const fragment = fragmentOf(visit.location);
  const code = fragment.get('code');
  assert.ok(code, `approved: ${visit.location}`);
  const exchanged = await tpp.exchangeCode(code);
  assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
  return { consentId, token: exchanged.body.access_token as string, consent: consent.body, visit };
}

async function pay(tpp: Tpp, token: string, consent: BankJson, key = randomUUID()) {
  return tpp.api('CreateDomesticPayments', 'POST', '/domestic-payments', {
    token,
    idempotencyKey: key,
    body: { Data: { ConsentId: consent.Data.ConsentId, Initiation: consent.Data.Initiation }, Risk: consent.Risk },
  });
}

describe('UK sandbox: discovery and client authentication', () => {
  it('publishes an OpenID configuration per bank; only the decoupled bank offers CIBA', async () => {
    const albion = (await (await fetch(`${bank.base}/albion/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(albion['issuer'], `${bank.base}/albion`);
    assert.equal(albion['token_endpoint'], `${bank.base}/albion/token`);
    assert.deepEqual(albion['token_endpoint_auth_methods_supported'], ['private_key_jwt']);
    assert.equal(albion['backchannel_authentication_endpoint'], undefined);
    const pennine = (await (await fetch(`${bank.base}/pennine/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(pennine['backchannel_authentication_endpoint'], `${bank.base}/pennine/backchannel-authentication`);
    const jwks = (await (await fetch(`${bank.base}/albion/jwks`)).json()) as { keys: Array<Record<string, unknown>> };
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0]?.['alg'], 'PS256');
    assert.equal(jwks.keys[0]?.['d'], undefined, 'no private part');
  });

  it('refuses a client assertion signed by a key the client did not register', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const { privateKey } = await generateKeyPair('PS256');
    const url = `${tpp.issuer}/token`;
    const { SignJWT } = await import('jose');
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'PS256', kid: tpp.kid })
      .setIssuer(tpp.clientId)
      .setSubject(tpp.clientId)
      .setAudience(url)
      .setIssuedAt()
      .setExpirationTime('1m')
      .setJti(randomUUID())
      .sign(privateKey);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'payments',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: forged,
      }),
    });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_client');
  });

  it('answers 401 without a body when the bearer token is missing or unknown', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const result = await tpp.api('GetDomesticPaymentConsentsConsentId', 'GET', '/domestic-payment-consents/nope', { token: 'not-a-token' });
    assert.equal(result.status, 401);
    assert.equal(result.text, '');
  });
});

describe('UK sandbox: redirect bank (hybrid flow)', () => {
  it('consent → approve at the bank → code exchange → payment settles (ACSC), with id_tokens checked', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const consent = await tpp.createConsent(gbpPayment('12.50'));
    assert.equal(consent.status, 201);
    assert.equal(consent.body.Data.Status, 'AWAU');
    const consentId = consent.body.Data.ConsentId as string;

    const visit = await payerAtBank(await tpp.authorizeUrl(consentId, { state: 'st-1', nonce: 'n-1' }), { psuId: 'alice' });
    assert.deepEqual(visit.steps, ['login', 'review'], 'one account: no account choice');
    assert.ok(visit.location?.startsWith(`${tpp.redirectUri}#`), 'answer in the fragment');
    const fragment = fragmentOf(visit.location);
    assert.equal(fragment.get('state'), 'st-1');
    const code = fragment.get('code') ?? '';
    await tpp.verifyIdToken(fragment.get('id_token') ?? '', { consentId, nonce: 'n-1', code, state: 'st-1' });

    const exchanged = await tpp.exchangeCode(code);
    assert.equal(exchanged.status, 200);
    await tpp.verifyIdToken(exchanged.body.id_token, { consentId, nonce: 'n-1' });
    const again = await tpp.exchangeCode(code);
    assert.equal(again.body.error, 'invalid_grant', 'codes are single-use');
    const token = exchanged.body.access_token as string;

    const read = await tpp.api('GetDomesticPaymentConsentsConsentId', 'GET', `/domestic-payment-consents/${consentId}`, { token });
    assert.equal(read.body.Data.Status, 'AUTH');
    const funds = await tpp.api(
      'GetDomesticPaymentConsentsConsentIdFundsConfirmation',
      'GET',
      `/domestic-payment-consents/${consentId}/funds-confirmation`,
      { token },
    );
    assert.equal(funds.body.Data.FundsAvailableResult.FundsAvailable, true);

    const payment = await pay(tpp, token, consent.body);
    assert.equal(payment.status, 201);
    assert.equal(payment.body.Data.Status, 'ACSC');
    assert.equal(payment.body.Data.Debtor.SchemeName, 'UK.OBIE.SortCodeAccountNumber');
    assert.equal(payment.body.Data.Refund, undefined, 'no refund account without ReadRefundAccount');
    const paymentId = payment.body.Data.DomesticPaymentId as string;
    const status = await tpp.api('GetDomesticPaymentsDomesticPaymentId', 'GET', `/domestic-payments/${paymentId}`, { token });
    assert.equal(status.body.Data.Status, 'ACSC');
    const details = await tpp.api(
      'GetDomesticPaymentsDomesticPaymentIdPaymentDetails',
      'GET',
      `/domestic-payments/${paymentId}/payment-details`,
      { token },
    );
    assert.equal(details.body.Data.PaymentStatus[0].Status, 'ACSC');
    assert.equal(details.body.Data.PaymentStatus[0].StatusDetail.LocalInstrument, 'UK.OBIE.FPS');
  });

  it("moves a slow payer's payment PDNG → ACSP → ACSC over time (Hanna: 5 s, then 30 s)", async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const { token, consent } = await authorised(tpp, 'hanna', '20.00');
    const payment = await pay(tpp, token, consent);
    assert.equal(payment.body.Data.Status, 'PDNG');
    const path = `/domestic-payments/${payment.body.Data.DomesticPaymentId as string}`;
    bank.clock.advance(5_000);
    assert.equal((await tpp.api('GetDomesticPaymentsDomesticPaymentId', 'GET', path, { token })).body.Data.Status, 'ACSP');
    bank.clock.advance(30_000);
    assert.equal((await tpp.api('GetDomesticPaymentsDomesticPaymentId', 'GET', path, { token })).body.Data.Status, 'ACSC');
  });

  it('a denial at the bank sends error=access_denied with the state and rejects the consent (RJCT)', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const consent = await tpp.createConsent(gbpPayment('5.00'));
    const consentId = consent.body.Data.ConsentId as string;
    const visit = await payerAtBank(await tpp.authorizeUrl(consentId, { state: 'deny-state' }), { psuId: 'alice', decision: 'deny' });
    const fragment = fragmentOf(visit.location);
    assert.equal(fragment.get('error'), 'access_denied');
    assert.equal(fragment.get('state'), 'deny-state');
    assert.equal(fragment.get('code'), null);
    const read = await tpp.api('GetDomesticPaymentConsentsConsentId', 'GET', `/domestic-payment-consents/${consentId}`, {
      token: await tpp.clientCredentialsToken(),
    });
    assert.equal(read.body.Data.Status, 'RJCT');
  });

  it("Ivan's authentication always fails: access_denied and RJCT", async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const consent = await tpp.createConsent(gbpPayment('5.00'));
    const visit = await payerAtBank(await tpp.authorizeUrl(consent.body.Data.ConsentId), { psuId: 'ivan' });
    assert.equal(fragmentOf(visit.location).get('error'), 'access_denied');
  });

  it('answers with an auto-submitting form when the request object asks for response_mode=form_post', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const consent = await tpp.createConsent(gbpPayment('5.00'));
    const visit = await payerAtBank(await tpp.authorizeUrl(consent.body.Data.ConsentId, { responseMode: 'form_post' }), { psuId: 'alice' });
    assert.equal(visit.location, undefined);
    assert.match(visit.lastHtml, /<form method="post" action="https:\/\/tpp\.example\/callback">/);
    assert.match(visit.lastHtml, /name="code" value="[^"]+"/);
    assert.match(visit.lastHtml, /name="id_token" value="[^"]+"/);
    assert.match(visit.lastHtml, /name="state" value="state-123"/);
  });

  it('refuses request objects signed with another key, for another audience or living over an hour, on a page (no redirect)', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const consent = await tpp.createConsent(gbpPayment('5.00'));
    const { privateKey } = await generateKeyPair('PS256');
    for (const url of [
      await tpp.authorizeUrl(consent.body.Data.ConsentId, { signWith: privateKey }),
      await tpp.authorizeUrl(consent.body.Data.ConsentId, { audience: `${bank.base}/severn` }),
      await tpp.authorizeUrl(consent.body.Data.ConsentId, { lifetimeSeconds: 2 * 3600 }),
    ]) {
      const response = await fetch(url, { redirect: 'manual' });
      assert.equal(response.status, 400);
      assert.match(await response.text(), /request object is not acceptable/);
    }
  });
});

describe('UK sandbox: accounts and outcomes', () => {
  it('at the account-choice bank a payer with several accounts picks one, and pays from it', async () => {
    const tpp = await new Tpp(bank, 'severn').register();
    const { token, consent, visit } = await authorised(tpp, 'bob', '10.00', { accountId: 'acc-bob-eur-savings' });
    assert.deepEqual(visit.steps, ['login', 'account', 'review']);
    const payment = await pay(tpp, token, consent);
    const index = await (await fetch(`${bank.base}/`)).text();
    assert.ok(index.includes(payment.body.Data.Debtor.Identification), "the debtor is one of Bob's listed accounts");
    const main = await authorised(await new Tpp(bank, 'albion').register(), 'bob', '1.00');
    assert.deepEqual(main.visit.steps, ['login', 'review'], 'the redirect bank pays from the main account without asking');
  });

  it('ReadRefundAccount "Yes": the payment names the account the payer chose as Data.Refund, with its holder', async () => {
    const tpp = await new Tpp(bank, 'severn').register();
    const { token, consent } = await authorised(tpp, 'bob', '3.00', { accountId: 'acc-bob-eur-savings', readRefundAccount: 'Yes' });
    assert.equal(consent.Data.ReadRefundAccount, 'Yes');
    const payment = await pay(tpp, token, consent);
    assert.equal(payment.status, 201);
    const refund = {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: payment.body.Data.Debtor.Identification,
      Name: 'Bob Many-Accounts',
    };
    assert.deepEqual(payment.body.Data.Refund, { Account: refund });
    const read = await tpp.api('GetDomesticPaymentsDomesticPaymentId', 'GET', `/domestic-payments/${payment.body.Data.DomesticPaymentId}`, {
      token,
    });
    assert.deepEqual(read.body.Data.Refund, { Account: refund });
  });

  it('insufficient funds: funds confirmation says false and the payment is rejected (AM04), exactly at the balance edge', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const over = await authorised(tpp, 'erik', '25.01');
    const funds = await tpp.api(
      'GetDomesticPaymentConsentsConsentIdFundsConfirmation',
      'GET',
      `/domestic-payment-consents/${over.consentId}/funds-confirmation`,
      { token: over.token },
    );
    assert.equal(funds.body.Data.FundsAvailableResult.FundsAvailable, false);
    const rejected = await pay(tpp, over.token, over.consent);
    assert.equal(rejected.body.Data.Status, 'RJCT');
    assert.equal(rejected.body.Data.StatusReason[0].StatusReasonCode, 'AM04');
    const exact = await authorised(tpp, 'erik', '25.00');
    assert.equal((await pay(tpp, exact.token, exact.consent)).body.Data.Status, 'ACSC');
  });

  it('Fiona is rejected after authorisation, Gustav stays ACSP', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const fiona = await authorised(tpp, 'fiona', '3.00');
    assert.equal((await pay(tpp, fiona.token, fiona.consent)).body.Data.Status, 'RJCT');
    const gustav = await authorised(tpp, 'gustav', '3.00');
    const payment = await pay(tpp, gustav.token, gustav.consent);
    assert.equal(payment.body.Data.Status, 'ACSP');
    bank.clock.advance(1_800_000);
    const later = await tpp.api(
      'GetDomesticPaymentsDomesticPaymentId',
      'GET',
      `/domestic-payments/${payment.body.Data.DomesticPaymentId as string}`,
      { token: gustav.token },
    );
    assert.equal(later.body.Data.Status, 'ACSP');
  });
});

describe('UK sandbox: idempotency and payment rules', () => {
  it('same key and body gives the same consent; same key with another body is refused (U009)', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const initiation = gbpPayment('7.00');
    const key = randomUUID();
    const first = await tpp.createConsent(initiation, { idempotencyKey: key });
    const second = await tpp.createConsent(initiation, { idempotencyKey: key });
    assert.equal(second.status, 201);
    assert.equal(second.body.Data.ConsentId, first.body.Data.ConsentId);
    const changed = await tpp.createConsent(
      { ...initiation, InstructedAmount: { Amount: '7.01', Currency: 'GBP' } },
      { idempotencyKey: key },
    );
    assert.equal(changed.status, 400);
    assert.equal(changed.body.Errors[0].ErrorCode, 'U009');
    assert.match(changed.body.Errors[0].Message, /^UK\.OBIE\.Resource\.ConsentMismatch/);
    const tooLong = await tpp.api('CreateDomesticPaymentConsents', 'POST', '/domestic-payment-consents', {
      token: await tpp.clientCredentialsToken(),
      idempotencyKey: 'k'.repeat(41),
      body: { Data: { Initiation: initiation }, Risk: {} },
      invalidRequest: true,
    });
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.Errors[0].ErrorCode, 'U006');
    const stranger = await new Tpp(bank, 'albion').register();
    const foreign = await stranger.api(
      'GetDomesticPaymentConsentsConsentId',
      'GET',
      `/domestic-payment-consents/${first.body.Data.ConsentId as string}`,
      { token: await stranger.clientCredentialsToken() },
    );
    assert.equal(foreign.status, 403, "another client's consent");
  });

  it('a repeated payment with the same key returns the same payment; a new key on a used consent is refused', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const { token, consent } = await authorised(tpp, 'alice', '2.00');
    const key = randomUUID();
    const first = await pay(tpp, token, consent, key);
    const second = await pay(tpp, token, consent, key);
    assert.equal(second.status, 201);
    assert.equal(second.body.Data.DomesticPaymentId, first.body.Data.DomesticPaymentId);
    const another = await pay(tpp, token, consent);
    assert.equal(another.status, 400);
    assert.equal(another.body.Errors[0].ErrorCode, 'U010');
  });

  it('refuses a payment whose Initiation differs from the consent (U009), and a client-credentials token for payments', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const { token, consent } = await authorised(tpp, 'alice', '2.00');
    const altered = {
      ...consent,
      Data: { ...consent.Data, Initiation: { ...consent.Data.Initiation, InstructedAmount: { Amount: '200.00', Currency: 'GBP' } } },
    };
    const mismatch = await pay(tpp, token, altered);
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.Errors[0].ErrorCode, 'U009');
    assert.equal(mismatch.body.Errors[0].Path, 'Data.Initiation');
    const wrongToken = await pay(tpp, await tpp.clientCredentialsToken(), consent);
    assert.equal(wrongToken.status, 403);
  });

  it("refuses currencies other than GBP and unsupported schemes with the standard's codes", async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const euro = await tpp.createConsent(gbpPayment('1.00', { InstructedAmount: { Amount: '1.00', Currency: 'EUR' } }));
    assert.equal(euro.status, 400);
    assert.equal(euro.body.Errors[0].ErrorCode, 'U024');
    const scheme = await tpp.createConsent(
      gbpPayment('1.00', { CreditorAccount: { SchemeName: 'UK.OBIE.PAN', Identification: '4111111111111111', Name: 'Card' } }),
    );
    assert.equal(scheme.body.Errors[0].ErrorCode, 'U027');
  });
});

describe('UK sandbox: request signatures', () => {
  it('refuses a missing, tampered or badly formed x-jws-signature', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const token = await tpp.clientCredentialsToken();
    const body = { Data: { Initiation: gbpPayment('1.00') }, Risk: {} };
    const call = (signature: string | undefined, signed = true) =>
      tpp.api('CreateDomesticPaymentConsents', 'POST', '/domestic-payment-consents', {
        token,
        body,
        idempotencyKey: randomUUID(),
        signed,
        invalidRequest: true,
        ...(signature === undefined ? {} : { signature }),
      });
    const missing = await call(undefined, false);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.Errors[0].ErrorCode, 'U018');
    const otherBody = await tpp.signBody(JSON.stringify({ ...body, Risk: { PaymentContextCode: 'TransferToSelf' } }));
    assert.equal((await call(otherBody)).body.Errors[0].ErrorCode, 'U015');
    assert.equal((await call(await tpp.signBody(JSON.stringify(body), { b64: false }))).body.Errors[0].ErrorCode, 'U020');
    assert.equal(
      (await call(await tpp.signBody(JSON.stringify(body), { 'http://openbanking.org.uk/iss': 'someone-else' }))).body.Errors[0].ErrorCode,
      'U016',
    );
    assert.equal((await call('not-a-jws')).body.Errors[0].ErrorCode, 'U017');
  });
});

describe('UK sandbox: decoupled bank (CIBA)', () => {
  it('polls authorization_pending until the payer approves in the bank app, then pays', async () => {
    const tpp = await new Tpp(bank, 'pennine').register();
    const consent = await tpp.createConsent(gbpPayment('9.99'));
    const consentId = consent.body.Data.ConsentId as string;
    const started = await tpp.backchannel(consentId, 'alice');
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const authReqId = started.body.auth_req_id as string;
    const pending = await tpp.oauthPost('token', { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: authReqId });
    assert.equal(pending.status, 400);
    assert.equal(pending.body.error, 'authorization_pending');
    assert.equal(await payerInBankApp(bank, 'pennine', 'alice', 'approve'), 1);
    const granted = await tpp.oauthPost('token', { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: authReqId });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    await tpp.verifyIdToken(granted.body.id_token, { consentId });
    const payment = await pay(tpp, granted.body.access_token, consent.body);
    assert.equal(payment.body.Data.Status, 'ACSC');
  });

  it('a denial in the bank app gives access_denied and a rejected consent', async () => {
    const tpp = await new Tpp(bank, 'pennine').register();
    const consent = await tpp.createConsent(gbpPayment('1.00'));
    const started = await tpp.backchannel(consent.body.Data.ConsentId, 'carla');
    assert.equal(await payerInBankApp(bank, 'pennine', 'carla', 'deny'), 1);
    const answer = await tpp.oauthPost('token', { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: started.body.auth_req_id });
    assert.equal(answer.body.error, 'access_denied');
    const read = await tpp.api(
      'GetDomesticPaymentConsentsConsentId',
      'GET',
      `/domestic-payment-consents/${consent.body.Data.ConsentId as string}`,
      { token: await tpp.clientCredentialsToken() },
    );
    assert.equal(read.body.Data.Status, 'RJCT');
  });
});

describe('UK sandbox: fault injection', () => {
  it('takes rules over HTTP, like the Berlin Group sandbox, and answers 503 for the next call only', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const { token, consent } = await authorised(tpp, 'alice', '1.00');
    const payment = await pay(tpp, token, consent);
    const ruleBody = JSON.stringify({ operations: ['getDomesticPayment'], fault: { kind: 'error', status: 503 }, times: 1 });
    const withoutToken = await fetch(`${bank.base}/albion/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: ruleBody,
    });
    assert.equal(withoutToken.status, 401, 'only the operator injects faults');
    const wrongToken = await fetch(`${bank.base}/albion/sandbox/faults`, {
      method: 'GET',
      headers: { Authorization: 'Bearer not-the-token' },
    });
    assert.equal(wrongToken.status, 401);
    const rule = await fetch(`${bank.base}/albion/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bank.operatorToken}` },
      body: JSON.stringify({ operations: ['getDomesticPayment'], fault: { kind: 'error', status: 503 }, times: 1 }),
    });
    assert.equal(rule.status, 201);
    const path = `/domestic-payments/${payment.body.Data.DomesticPaymentId as string}`;
    assert.equal((await tpp.api('GetDomesticPaymentsDomesticPaymentId', 'GET', path, { token, faulty: true })).status, 503);
    assert.equal((await tpp.api('GetDomesticPaymentsDomesticPaymentId', 'GET', path, { token })).status, 200);
    const unknown = await fetch(`${bank.base}/albion/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bank.operatorToken}` },
      body: JSON.stringify({ operations: ['getPaymentStatus'], fault: { kind: 'error', status: 503 } }),
    });
    assert.equal(unknown.status, 400, "operation names are this standard's");
  });

  it('a fault on the token endpoint answers 503 without a body, then the endpoint works again', async () => {
    const tpp = await new Tpp(bank, 'pennine').register();
    bank.faults.inject({ bank: 'pennine', operations: ['token'], fault: { kind: 'error', status: 503 }, times: 1 });
    const failed = await fetch(`${tpp.issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    assert.equal(failed.status, 503);
    assert.equal(await failed.text(), '');
    assert.ok(await tpp.clientCredentialsToken());
  });

  it("Julia's status calls always answer 503 while payment-details still tells the status", async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const { token, consent } = await authorised(tpp, 'julia', '1.00');
    const payment = await pay(tpp, token, consent);
    const id = payment.body.Data.DomesticPaymentId as string;
    assert.equal(
      (await tpp.api('GetDomesticPaymentsDomesticPaymentId', 'GET', `/domestic-payments/${id}`, { token, faulty: true })).status,
      503,
    );
    const details = await tpp.api('GetDomesticPaymentsDomesticPaymentIdPaymentDetails', 'GET', `/domestic-payments/${id}/payment-details`, {
      token,
    });
    assert.equal(details.body.Data.PaymentStatus[0].Status, 'ACSC');
  });
});
