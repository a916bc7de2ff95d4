/**
 * The Berlin Group connector against a scripted bank: the headers and bodies it sends, how it follows links, and
 * how it classifies every kind of answer into results or the three connector errors.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  BankProtocolError,
  BankRejectedError,
  BankUnavailableError,
  createConnector,
  toBankReference,
  type CallContext,
  type ConnectorLogger,
  type PaymentOrder,
} from '../../../src/connectors/index.js';
import { startFakeBank, settings, type FakeAnswer, type FakeBank } from '../helpers/fake-bank.js';
import type { BerlinGroupSettings } from '../../../src/connectors/berlin-group/settings.js';
import { accountInformationOf, bgAuthorisation, bgPayment, embeddedOf, inside, linksInside, returnTo } from '../helpers/references.js';

const REQUEST_ID = '99391c7e-ad88-49ec-a2ad-99ddcb1f7721';
const context: CallContext = { requestId: REQUEST_ID, psuIpAddress: '192.168.8.78', psuUserAgent: 'Mozilla/5.0 test' };
const order: PaymentOrder = {
  endToEndId: 'E2E-1',
  amount: '0.10',
  currency: 'EUR',
  scheme: 'SEPA',
  instantPreferred: true,
  creditor: { iban: 'DE89370400440532013000', name: 'Merchant GmbH' },
  remittanceInformation: 'Order 1',
};

let bank: FakeBank;
before(async () => {
  bank = await startFakeBank();
});
after(async () => {
  await bank.close();
});
beforeEach(() => {
  bank.requests.length = 0;
});

const baseUrl = (): string => `${bank.origin}/xs2a/bank-a`;

describe('initiatePayment', () => {
  test('sends the standard headers and body, follows relative links, reads the approach header', async () => {
    bank.handle(() => ({
      status: 201,
      headers: { 'ASPSP-SCA-Approach': 'REDIRECT', Location: '/xs2a/bank-a/v1/payments/instant-sepa-credit-transfers/p-1' },
      body: {
        transactionStatus: 'RCVD',
        paymentId: 'p-1',
        _links: {
          scaRedirect: { href: '/xs2a/bank-a/sca/p-1?token=t' },
          self: { href: '/xs2a/bank-a/v1/payments/instant-sepa-credit-transfers/p-1' },
          status: { href: '/xs2a/bank-a/v1/payments/instant-sepa-credit-transfers/p-1/status' },
          scaStatus: { href: '/xs2a/bank-a/v1/payments/instant-sepa-credit-transfers/p-1/authorisations/a-1' },
        },
      },
    }));
    const connector = createConnector(settings(baseUrl()));
    const result = await connector.registerPayment({
      idempotencyKey: 'payment-1',
      context,
      payment: order,
      returnAddress: returnTo('https://pis.example/callback?state=ok', 'https://pis.example/callback?state=nok'),
      psuId: 'alice',
    });

    const [request] = bank.requests;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/xs2a/bank-a/v1/payments/instant-sepa-credit-transfers');
    assert.equal(request.headers['x-request-id'], REQUEST_ID);
    assert.equal(request.headers['psu-ip-address'], '192.168.8.78');
    assert.equal(request.headers['psu-user-agent'], 'Mozilla/5.0 test');
    assert.equal(request.headers['psu-id'], 'alice');
    assert.equal(request.headers['tpp-redirect-uri'], 'https://pis.example/callback?state=ok');
    assert.equal(request.headers['tpp-nok-redirect-uri'], 'https://pis.example/callback?state=nok');
    assert.equal(request.headers['tpp-redirect-preferred'], 'true');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.match(request.bodyText, /"amount":"0\.10"/);

    assert.equal(inside(result.payment)['paymentId'], 'p-1');
    assert.equal(inside(result.payment)['paymentProduct'], 'instant-sepa-credit-transfers', 'the instant product');
    assert.equal(result.providerPaymentId, 'p-1');
    assert.deepEqual(result.transactionStatus, { state: 'received', code: 'RCVD' });
    assert.equal(result.scaApproach, 'REDIRECT');
    assert.deepEqual(result.next, { kind: 'redirect', url: `${bank.origin}/xs2a/bank-a/sca/p-1?token=t` });
    assert.equal(inside(result.authorisation)['authorisationId'], 'a-1');
  });

  test('status notifications: our address and preference go with the initiation when the settings say so; the answer is kept', async () => {
    const answer = (support: string | undefined): FakeAnswer => ({
      status: 201,
      headers: support === undefined ? {} : { 'ASPSP-Notification-Support': support, 'ASPSP-Notification-Content': 'status=SCA,PROCESS' },
      body: { transactionStatus: 'RCVD', paymentId: 'p', _links: { startAuthorisation: { href: 'v1/payments/x/p/authorisations' } } },
    });
    const register = (overrides: Partial<BerlinGroupSettings>) =>
      createConnector(settings(baseUrl(), overrides)).registerPayment({
        idempotencyKey: 'payment-1',
        context,
        payment: order,
        returnAddress: returnTo('https://pis.example/callback?state=ok'),
        notificationUri: 'https://pis.example/notifications/berlin-group/token',
      });

    bank.handle(() => answer('true'));
    const notified = await register({ statusNotifications: true });
    assert.equal(bank.requests[0]?.headers['tpp-notification-uri'], 'https://pis.example/notifications/berlin-group/token');
    assert.equal(bank.requests[0]?.headers['tpp-notification-content-preferred'], 'status=SCA,PROCESS,LAST');
    assert.equal(notified.notifications, true);

    bank.requests.length = 0;
    bank.handle(() => answer('false'));
    assert.equal((await register({ statusNotifications: true })).notifications, false, 'the bank will not notify this payment');

    bank.requests.length = 0;
    bank.handle(() => answer(undefined));
    const silent = await register({});
    assert.equal(bank.requests[0]?.headers['tpp-notification-uri'], undefined, 'not sent to a bank without the service');
    assert.equal(silent.notifications, undefined);
  });

  test('a request id that is not a UUID is replaced by a fresh UUID', async () => {
    bank.handle(() => ({
      status: 201,
      body: { transactionStatus: 'RCVD', paymentId: 'p', _links: { startAuthorisation: { href: 'v1/payments/x/p/authorisations' } } },
    }));
    await createConnector(settings(baseUrl())).registerPayment({
      context: { requestId: 'client-id-not-a-uuid' },
      payment: order,
      idempotencyKey: 'payment-1',
      returnAddress: returnTo('https://pis.example/cb'),
    });
    assert.match(
      String(bank.requests[0]?.headers['x-request-id']),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  test('embedded preference headers and the explicit start link', async () => {
    bank.handle(() => ({
      status: 201,
      body: {
        transactionStatus: 'RCVD',
        paymentId: 'p-2',
        _links: {
          startAuthorisationWithPsuAuthentication: {
            href: `${bank.origin}/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-2/authorisations`,
          },
        },
      },
    }));
    const connector = createConnector(settings(baseUrl(), { scaApproaches: ['EMBEDDED'] }));
    const result = await connector.registerPayment({
      idempotencyKey: 'payment-1',
      context,
      payment: { ...order, instantPreferred: false },
    });
    assert.equal(bank.requests[0]?.headers['tpp-redirect-preferred'], 'false');
    assert.equal(bank.requests[0]?.headers['tpp-decoupled-preferred'], 'false');
    assert.equal(bank.requests[0]?.url, '/xs2a/bank-a/v1/payments/sepa-credit-transfers');
    assert.deepEqual(result.next, { kind: 'start-authorisation', needs: 'psu-authentication' });
    assert.equal(result.scaApproach, 'EMBEDDED');
    assert.equal(result.authorisation, undefined);
  });

  test('caller bugs are TypeErrors, before any bank call', async () => {
    const connector = createConnector(settings(baseUrl(), { requiresDebtorAccount: true }));
    await assert.rejects(
      connector.registerPayment({ context, payment: order, returnAddress: returnTo('https://x.example'), idempotencyKey: 'k' }),
      TypeError,
    );
    await assert.rejects(
      createConnector(settings(baseUrl())).registerPayment({ context, payment: order, idempotencyKey: 'k' }),
      /returnAddress/,
    );
    await assert.rejects(
      createConnector(settings(baseUrl())).registerPayment({
        context,
        payment: { ...order, scheme: 'DOMESTIC' },
        returnAddress: returnTo('https://x.example'),
        idempotencyKey: 'k',
      }),
      /DOMESTIC/,
    );
    assert.equal(bank.requests.length, 0);
  });
});

describe('embedded authorisation', () => {
  const paymentData = {
    paymentId: 'p-3',
    paymentService: 'payments',
    paymentProduct: 'sepa-credit-transfers',
    links: { startAuthorisationWithPsuAuthentication: '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/authorisations' },
  };
  const payment = bgPayment(paymentData);

  test('password, method selection and one-time code, each following the link of the previous answer', async () => {
    const auth = '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/authorisations/a-3';
    bank.handle((request) => {
      if (request.method === 'POST') {
        return {
          status: 201,
          body: {
            scaStatus: 'psuAuthenticated',
            authorisationId: 'a-3',
            scaMethods: [
              { authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS' },
              { authenticationType: 'PUSH_OTP', authenticationMethodId: 'push' },
            ],
            _links: { selectAuthenticationMethod: { href: auth }, scaStatus: { href: auth } },
          },
        };
      }
      const body = request.body as Record<string, unknown>;
      if (body['authenticationMethodId'] !== undefined) {
        return {
          status: 200,
          body: {
            scaStatus: 'scaMethodSelected',
            chosenScaMethod: { authenticationType: 'SMS_OTP', authenticationMethodId: 'sms' },
            challengeData: { otpMaxLength: '6', otpFormat: 'integer' },
            _links: { authoriseTransaction: { href: auth } },
          },
        };
      }
      return {
        status: 200,
        body: { scaStatus: 'finalised', _links: { status: { href: '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/status' } } },
      };
    });
    const connector = createConnector(settings(baseUrl(), { scaApproaches: ['EMBEDDED'] }));
    const started = await connector.startAuthorisation({ context, payment, psu: { id: 'carla', password: 's3cret-pw' } });
    assert.equal(bank.requests[0]?.url, '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/authorisations');
    assert.equal(bank.requests[0]?.headers['psu-id'], 'carla');
    assert.deepEqual(bank.requests[0]?.body, { psuData: { password: 's3cret-pw' } });
    assert.deepEqual(started.scaStatus, { state: 'psu-authenticated', code: 'psuAuthenticated' });
    assert.equal(started.next.kind, 'select-sca-method');
    assert.deepEqual(
      started.scaMethods.map((method) => method.id),
      ['sms', 'push'],
    );

    const selected = await embeddedOf(connector).selectScaMethod({
      context,
      resource: payment,
      authorisation: started.authorisation,
      methodId: 'sms',
    });
    assert.equal(bank.requests[1]?.method, 'PUT');
    assert.equal(bank.requests[1]?.url, auth);
    assert.deepEqual(bank.requests[1]?.body, { authenticationMethodId: 'sms' });
    assert.deepEqual(selected.next, {
      kind: 'authorise-transaction',
      method: { id: 'sms', type: 'SMS_OTP' },
      challenge: { otpMaxLength: 6, otpFormat: 'integer' },
    });
    assert.equal(inside(selected.authorisation)['authorisationId'], 'a-3');
    assert.equal(linksInside(selected.authorisation)['scaStatus'], auth, 'the status link survives answers without it');

    const done = await embeddedOf(connector).authoriseTransaction({
      context,
      resource: payment,
      authorisation: selected.authorisation,
      scaAuthenticationData: '123456',
    });
    assert.deepEqual(bank.requests[2]?.body, { scaAuthenticationData: '123456' });
    assert.deepEqual(done.next, { kind: 'authorised' });
  });

  test('a wrong password is a BankRejectedError with PSU_AUTHENTICATION_FAILED, without the password anywhere', async () => {
    const logged: string[] = [];
    const logger: ConnectorLogger = {
      debug: (fields, message) => logged.push(JSON.stringify({ fields, message })),
      warn: (fields, message) => logged.push(JSON.stringify({ fields, message })),
    };
    bank.handle(() => ({
      status: 401,
      body: { tppMessages: [{ category: 'ERROR', code: 'PSU_CREDENTIALS_INVALID', text: 'Wrong password' }] },
    }));
    const connector = createConnector(settings(baseUrl(), { scaApproaches: ['EMBEDDED'] }), { logger });
    const error = await connector.startAuthorisation({ context, payment, psu: { id: 'alice', password: 'Very-Secret-42' } }).then(
      () => assert.fail('expected a rejection'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof BankRejectedError);
    assert.equal(error.failureCode, 'PSU_AUTHENTICATION_FAILED');
    assert.equal(error.httpStatus, 401);
    assert.equal(error.indeterminate, false);
    assert.deepEqual(error.messages, [{ category: 'ERROR', code: 'PSU_CREDENTIALS_INVALID', text: 'Wrong password' }]);
    const everything = [String(error), error.stack ?? '', JSON.stringify(error), ...logged].join('\n');
    assert.doesNotMatch(everything, /Very-Secret-42/);
    assert.ok(logged.length > 0, 'the call is logged');
    assert.ok(logged.every((line) => !line.includes('psuData')));
  });

  test('a wrong one-time code is SCA_FAILED', async () => {
    bank.handle(() => ({ status: 400, body: { tppMessages: [{ category: 'ERROR', code: 'SCA_INVALID' }] } }));
    await assert.rejects(
      embeddedOf(createConnector(settings(baseUrl(), { scaApproaches: ['EMBEDDED'] }))).authoriseTransaction({
        context,
        resource: payment,
        authorisation: bgAuthorisation({
          authorisationId: 'a',
          links: { authoriseTransaction: '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/authorisations/a' },
        }),
        scaAuthenticationData: '000000',
      }),
      (error: unknown) => error instanceof BankRejectedError && error.failureCode === 'SCA_FAILED' && error.httpStatus === 400,
    );
  });

  test('without links the standard paths are used', async () => {
    bank.handle(() => ({ status: 200, body: { scaStatus: 'started', psuMessage: 'Open your app' } }));
    const connector = createConnector(settings(baseUrl()));
    const bare = bgPayment({ ...paymentData, links: {} });
    const status = await connector.completeAuthorisation({
      context,
      payment: bare,
      authorisation: bgAuthorisation({ authorisationId: 'a 9', links: {} }),
    });
    assert.equal(bank.requests[0]?.url, '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/authorisations/a%209');
    assert.deepEqual(
      { scaStatus: status.scaStatus, psuMessage: status.psuMessage },
      { scaStatus: { state: 'started', code: 'started' }, psuMessage: 'Open your app' },
    );
    assert.deepEqual(status.next, { kind: 'wait' });
  });

  test('decoupled: identification only, then wait', async () => {
    bank.handle(() => ({
      status: 201,
      body: {
        scaStatus: 'received',
        authorisationId: 'a-d',
        psuMessage: 'Please confirm in your banking app',
        _links: { scaStatus: { href: '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/authorisations/a-d' } },
      },
    }));
    const connector = createConnector(settings(baseUrl(), { scaApproaches: ['DECOUPLED'] }));
    const result = await connector.startAuthorisation({
      context,
      payment: bgPayment({
        ...paymentData,
        links: { startAuthorisationWithPsuIdentification: '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-3/authorisations' },
      }),
      psu: { id: 'dora' },
    });
    assert.deepEqual(bank.requests[0]?.body, {});
    assert.equal(bank.requests[0]?.headers['psu-id'], 'dora');
    assert.equal(bank.requests[0]?.headers['tpp-decoupled-preferred'], 'true');
    assert.deepEqual(result.next, { kind: 'wait' });
    assert.equal(result.scaApproach, 'DECOUPLED');
    assert.equal(result.psuMessage, 'Please confirm in your banking app');
  });
});

describe('status, cancellation and accounts', () => {
  const paymentData = {
    paymentId: 'p-4',
    paymentService: 'payments',
    paymentProduct: 'sepa-credit-transfers',
    links: {},
  };
  const payment = bgPayment(paymentData);

  test('status by the standard path; RJCT with FUNDS_NOT_AVAILABLE → failed, INSUFFICIENT_FUNDS', async () => {
    bank.handle(() => ({
      status: 200,
      body: { transactionStatus: 'RJCT', tppMessages: [{ category: 'ERROR', code: 'FUNDS_NOT_AVAILABLE' }] },
    }));
    const result = await createConnector(settings(baseUrl())).getPaymentStatus({ context, payment });
    assert.equal(bank.requests[0]?.url, '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-4/status');
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failureCode, 'INSUFFICIENT_FUNDS');
  });

  test('ACSP is completed only for banks that say so', async () => {
    bank.handle(() => ({ status: 200, body: { transactionStatus: 'ACSP' } }));
    assert.equal((await createConnector(settings(baseUrl())).getPaymentStatus({ context, payment })).outcome, 'pending');
    assert.equal(
      (await createConnector(settings(baseUrl(), { acceptedForExecutionIsCompleted: true })).getPaymentStatus({ context, payment }))
        .outcome,
      'completed',
    );
  });

  test('an unknown status code stays pending', async () => {
    bank.handle(() => ({ status: 200, body: { transactionStatus: 'ZZZZ' } }));
    const result = await createConnector(settings(baseUrl())).getPaymentStatus({ context, payment });
    assert.deepEqual(result.transactionStatus, { state: 'unknown', code: 'ZZZZ' });
    assert.equal(result.outcome, 'pending');
    assert.equal(result.failureCode, undefined);
  });

  // When the status endpoint fails indeterminately, the payment resource (GET …/{paymentId}) carries the same
  // `transactionStatus` in the standard: read it there rather than wait for the endpoint to come back.
  const statusEndpointDown = (resource: FakeAnswer, failure: FakeAnswer = { status: 503 }) =>
    bank.handle((request) => (request.url.endsWith('/status') ? failure : resource));

  test('status endpoint 5xx: the payment resource gives the status, at its self link', async () => {
    statusEndpointDown({ status: 200, body: { instructedAmount: { currency: 'EUR', amount: '0.10' }, transactionStatus: 'ACSC' } });
    const linked = bgPayment({ ...paymentData, links: { self: '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-4-self' } });
    const result = await createConnector(settings(baseUrl())).getPaymentStatus({ context, payment: linked });
    assert.deepEqual(
      bank.requests.map((request) => `${request.method} ${request.url}`),
      ['GET /xs2a/bank-a/v1/payments/sepa-credit-transfers/p-4/status', 'GET /xs2a/bank-a/v1/payments/sepa-credit-transfers/p-4-self'],
    );
    assert.equal(bank.requests[1]?.headers['x-request-id'], REQUEST_ID);
    assert.deepEqual(result.transactionStatus, { state: 'settled', code: 'ACSC' });
    assert.equal(result.outcome, 'completed');
  });

  test('status endpoint timing out: the payment resource by the standard path gives the status', async () => {
    statusEndpointDown({ status: 200, body: { transactionStatus: 'ACSC' } }, { status: 0, hang: true });
    const result = await createConnector(settings(baseUrl(), { timeoutMs: 150 })).getPaymentStatus({ context, payment });
    assert.equal(bank.requests[1]?.url, '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-4');
    assert.equal(result.outcome, 'completed');
  });

  test('status endpoint 5xx, the payment resource has an unknown code: still pending', async () => {
    statusEndpointDown({ status: 200, body: { transactionStatus: 'ZZZZ' } });
    const result = await createConnector(settings(baseUrl())).getPaymentStatus({ context, payment });
    assert.deepEqual(result.transactionStatus, { state: 'unknown', code: 'ZZZZ' });
    assert.equal(result.outcome, 'pending');
    assert.equal(result.failureCode, undefined);
  });

  test('status endpoint 5xx, the payment resource says RJCT with FUNDS_NOT_AVAILABLE: INSUFFICIENT_FUNDS', async () => {
    statusEndpointDown({
      status: 200,
      body: { transactionStatus: 'RJCT', tppMessages: [{ category: 'ERROR', code: 'FUNDS_NOT_AVAILABLE' }] },
    });
    const result = await createConnector(settings(baseUrl())).getPaymentStatus({ context, payment });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failureCode, 'INSUFFICIENT_FUNDS');
  });

  test('status endpoint 5xx, the payment resource without a transactionStatus: the status endpoint error stands', async () => {
    statusEndpointDown({ status: 200, body: { instructedAmount: { currency: 'EUR', amount: '0.10' } } });
    await assert.rejects(
      createConnector(settings(baseUrl())).getPaymentStatus({ context, payment }),
      (error: unknown) => error instanceof BankUnavailableError && error.reason === 'server-error' && error.httpStatus === 503,
    );
  });

  test('status endpoint 5xx, the payment resource refused (404): still indeterminate, never a refusal', async () => {
    statusEndpointDown({ status: 404, body: { tppMessages: [{ category: 'ERROR', code: 'RESOURCE_UNKNOWN' }] } });
    await assert.rejects(
      createConnector(settings(baseUrl())).getPaymentStatus({ context, payment }),
      (error: unknown) => error instanceof BankUnavailableError && error.httpStatus === 503,
    );
  });

  test('status endpoint 429: the bank asked us to slow down, so no second call', async () => {
    statusEndpointDown({ status: 200, body: { transactionStatus: 'ACSC' } }, { status: 429, headers: { 'Retry-After': '5' } });
    await assert.rejects(
      createConnector(settings(baseUrl())).getPaymentStatus({ context, payment }),
      (error: unknown) => error instanceof BankUnavailableError && error.reason === 'rate-limited' && error.retryAfterSeconds === 5,
    );
    assert.equal(bank.requests.length, 1);
  });

  test('status endpoint refusal (4xx) is definite: no second call', async () => {
    statusEndpointDown(
      { status: 200, body: { transactionStatus: 'ACSC' } },
      { status: 403, body: { tppMessages: [{ category: 'ERROR', code: 'RESOURCE_EXPIRED' }] } },
    );
    await assert.rejects(
      createConnector(settings(baseUrl())).getPaymentStatus({ context, payment }),
      (error: unknown) => error instanceof BankRejectedError && error.failureCode === 'EXPIRED',
    );
    assert.equal(bank.requests.length, 1);
  });

  test('cancel: 204 cancelled; 202 with authorisation links needs authorisation', async () => {
    bank.handle(() => ({ status: 204 }));
    const connector = createConnector(settings(baseUrl()));
    assert.deepEqual(await connector.cancelPayment({ context, payment }), {
      cancelled: true,
      authorisationRequired: false,
      transactionStatus: undefined,
    });
    assert.equal(bank.requests[0]?.method, 'DELETE');
    assert.equal(bank.requests[0]?.url, '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-4');
    bank.handle(() => ({ status: 202, body: { transactionStatus: 'ACTC', _links: { startAuthorisation: { href: '/x' } } } }));
    const pending = await connector.cancelPayment({ context, payment });
    assert.equal(pending.cancelled, false);
    assert.equal(pending.authorisationRequired, true);
  });

  test('accounts: Consent-ID header, mapped accounts', async () => {
    bank.handle(() => ({
      status: 200,
      body: {
        accounts: [
          { resourceId: 'r1', iban: 'DE54500105171000007919', currency: 'EUR', name: 'Main', status: 'blocked' },
          { iban: 'DE29500105171000015838', currency: 'EUR' },
        ],
      },
    }));
    const accounts = await accountInformationOf(createConnector(settings(baseUrl(), { accountInformation: true }))).listAccounts({
      context,
      consent: toBankReference({ kind: 'consent', consentId: 'c-1', links: {} }),
    });
    assert.equal(bank.requests[0]?.url, '/xs2a/bank-a/v1/accounts');
    assert.equal(bank.requests[0]?.headers['consent-id'], 'c-1');
    assert.equal(accounts.length, 2);
    assert.equal(accounts[0]?.status, 'blocked');
    assert.equal(accounts[1]?.status, 'enabled');
  });
});

describe('error classification', () => {
  const payment = bgPayment({ paymentId: 'p', paymentService: 'payments', paymentProduct: 'sepa-credit-transfers', links: {} });
  const status = (timeoutMs = 2000) => createConnector(settings(baseUrl(), { timeoutMs })).getPaymentStatus({ context, payment });

  const unavailable = (reason: string, httpStatus?: number) => (error: unknown) =>
    error instanceof BankUnavailableError &&
    error.reason === reason &&
    error.httpStatus === httpStatus &&
    error.indeterminate &&
    error.failureCode === 'BANK_UNAVAILABLE';

  for (const code of [500, 502, 503, 504]) {
    test(`${code} → BankUnavailableError (server-error)`, async () => {
      bank.handle(() => ({ status: code, body: { tppMessages: [{ category: 'ERROR', code: 'INTERNAL_SERVER_ERROR' }] } }));
      await assert.rejects(status(), unavailable('server-error', code));
    });
  }

  test('429 with Retry-After → rate-limited with the delay', async () => {
    bank.handle(() => ({ status: 429, headers: { 'Retry-After': '7' } }));
    await assert.rejects(
      status(),
      (error: unknown) => unavailable('rate-limited', 429)(error) && (error as BankUnavailableError).retryAfterSeconds === 7,
    );
  });

  test('408 → timeout', async () => {
    bank.handle(() => ({ status: 408 }));
    await assert.rejects(status(), unavailable('timeout', 408));
  });

  test('no answer within timeoutMs → timeout, quickly', async () => {
    // The bank never answers: the rejection itself shows the timeout bounded the call (no clock needed).
    bank.handle(() => ({ hang: true, status: 0 }));
    await assert.rejects(status(150), unavailable('timeout'));
  });

  test('headers then a stalled body → timeout', async () => {
    bank.handle(() => ({ status: 200, body: { transactionStatus: 'ACSC' }, delayMs: 600 }));
    await assert.rejects(status(150), unavailable('timeout'));
  });

  test('connection refused → connection', async () => {
    const closed = await startFakeBank();
    const origin = closed.origin;
    await closed.close();
    await assert.rejects(createConnector(settings(`${origin}/b`)).getPaymentStatus({ context, payment }), unavailable('connection'));
  });

  test('4xx without a body → BankRejectedError BANK_REJECTED', async () => {
    bank.handle(() => ({ status: 404, body: '<html>not found</html>', headers: { 'Content-Type': 'text/html' } }));
    await assert.rejects(
      status(),
      (error: unknown) => error instanceof BankRejectedError && error.failureCode === 'BANK_REJECTED' && error.messages.length === 0,
    );
  });

  test('RFC 7807 error bodies are read too', async () => {
    bank.handle(() => ({
      status: 403,
      headers: { 'Content-Type': 'application/problem+json' },
      body: JSON.stringify({ type: 'about:blank', code: 'RESOURCE_EXPIRED', detail: 'expired' }),
    }));
    await assert.rejects(
      status(),
      (error: unknown) => error instanceof BankRejectedError && error.failureCode === 'EXPIRED' && error.httpStatus === 403,
    );
  });

  test('2xx that is not JSON → BankProtocolError', async () => {
    bank.handle(() => ({ status: 200, body: 'OK', headers: { 'Content-Type': 'text/plain' } }));
    await assert.rejects(status(), (error: unknown) => error instanceof BankProtocolError && error.indeterminate);
  });

  test('2xx missing a mandatory field → BankProtocolError naming the field, not its values', async () => {
    bank.handle(() => ({ status: 201, body: { transactionStatus: 'RCVD', _links: {}, secretEcho: 'pw-123' } }));
    await assert.rejects(
      createConnector(settings(baseUrl())).registerPayment({
        context,
        payment: order,
        returnAddress: returnTo('https://x.example'),
        idempotencyKey: 'k',
      }),
      (error: unknown) => error instanceof BankProtocolError && /paymentId/.test(error.message) && !/pw-123/.test(error.message),
    );
  });

  test('3xx → BankProtocolError (redirects are never followed)', async () => {
    bank.handle(() => ({ status: 302, headers: { Location: 'https://evil.example/' } }));
    await assert.rejects(status(), BankProtocolError);
  });

  test('an API link to another origin is refused, the redirect link may go anywhere', async () => {
    bank.handle(() => ({
      status: 201,
      body: { scaStatus: 'received', authorisationId: 'a', _links: { updatePsuAuthentication: { href: 'https://evil.example/steal' } } },
    }));
    const connector = createConnector(settings(baseUrl(), { scaApproaches: ['EMBEDDED'] }));
    const started = await connector.startAuthorisation({ context, payment });
    await assert.rejects(
      embeddedOf(connector).updatePsuAuthentication({
        context,
        resource: payment,
        authorisation: started.authorisation,
        psu: { password: 'pw' },
      }),
      (error: unknown) => error instanceof BankProtocolError && /another origin/.test(error.message),
    );
    assert.equal(bank.requests.length, 1, 'nothing sent to the other origin');
  });

  test('an answer larger than 1 MiB → BankProtocolError', async () => {
    bank.handle(() => ({ status: 200, body: { transactionStatus: 'ACSC', padding: 'x'.repeat(1024 * 1024 + 10) } }));
    await assert.rejects(status(), BankProtocolError);
  });
});
