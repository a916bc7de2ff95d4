/**
 * Pieces of the sandbox bank on their own: the fixtures and their validation, exact money arithmetic, the fault
 * plan, the standard checker itself, and the plugin's encapsulation inside a host app.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { isValidIBAN } from 'ibantools';
import { FaultPlan, loadSandboxFixtures, parseSandboxFixtures, sandboxBankPlugin } from '@openpis/sandbox-bank';
import { Ledger } from '../../../packages/sandbox-bank/src/shared/ledger.js';
import { fromMinor, toMinor } from '../../../packages/sandbox-bank/src/shared/money.js';
import { DEFAULT_AUTHENTICATION_ATTEMPTS, loadCatalogue } from '../../../src/providers/catalogue.js';
import { PUBLIC_URL, theStandard } from '../harness.js';

describe('test payers', () => {
  const fixtures = loadSandboxFixtures();

  it('have valid IBANs and the behaviours the manual promises', () => {
    for (const payer of fixtures.payers) {
      for (const account of payer.accounts) assert.ok(isValidIBAN(account.iban), `${payer.psuId}: ${account.iban}`);
    }
    const byId = new Map(fixtures.payers.map((payer) => [payer.psuId, payer]));
    assert.equal(byId.get('alice')?.accounts.length, 1);
    assert.ok((byId.get('bob')?.accounts.filter((account) => account.currency === 'EUR').length ?? 0) >= 2);
    assert.ok(byId.get('bob')?.accounts.some((account) => account.currency !== 'EUR'));
    assert.equal(byId.get('carla')?.scaMethods.length, 3);
    assert.equal(byId.get('dave')?.scaMethods.length, 0);
    assert.equal(byId.get('fiona')?.outcome.execution, 'reject');
    assert.equal(byId.get('gustav')?.outcome.execution, 'pending');
    assert.equal(byId.get('ivan')?.outcome.scaFails, true);
    for (const currency of ['PLN', 'GBP', 'SEK', 'CZK']) {
      assert.ok(
        fixtures.payers.some((payer) => payer.accounts.some((account) => account.currency === currency)),
        currency,
      );
    }
  });

  it('are validated at load', () => {
    const broken = structuredClone(fixtures);
    const first = broken.payers[0];
    assert.ok(first);
    first.accounts[0] = { ...first.accounts[0]!, iban: 'DE00500105171000007919' };
    assert.throws(() => parseSandboxFixtures(broken), /not a valid IBAN/);
    assert.throws(() => parseSandboxFixtures({ payers: [{ psuId: 'x' }] }), /Invalid sandbox bank fixtures/);
    const twice = { payers: [fixtures.payers[0], fixtures.payers[0]] };
    assert.throws(() => parseSandboxFixtures(twice), /appears twice/);
  });
});

describe('money', () => {
  it('parses and formats exact minor units', () => {
    assert.equal(toMinor('0.1', 'EUR'), 10n);
    assert.equal(toMinor('25', 'EUR'), 2500n);
    assert.equal(toMinor('99999999999999.99', 'EUR'), 9999999999999999n);
    assert.equal(toMinor('1.005', 'EUR'), undefined);
    assert.equal(toMinor('1,00', 'EUR'), undefined);
    assert.equal(fromMinor(toMinor('0.1', 'EUR')! + toMinor('0.2', 'EUR')!, 'EUR'), '0.30');
    assert.equal(fromMinor(-5n, 'EUR'), '-0.05');
  });
});

describe('ledger', () => {
  it('books a payment of several bookings whole, once per booking, or not at all', () => {
    const ledger = new Ledger();
    ledger.open('debtor', 3000n);
    ledger.open('creditor', 0n);
    // The sum is checked first: 10.00 + 20.01 is more than 30.00, so nothing moves.
    assert.equal(
      ledger.execute('debtor', [
        { amountMinor: 1000n, creditor: 'creditor' },
        { amountMinor: 2001n, creditor: undefined },
      ]),
      'insufficientFunds',
    );
    assert.equal(ledger.balance('debtor'), 3000n);
    assert.equal(ledger.balance('creditor'), 0n);
    assert.equal(
      ledger.execute('debtor', [
        { amountMinor: 1000n, creditor: 'creditor' },
        { amountMinor: 10n, creditor: 'creditor' },
        { amountMinor: 1990n, creditor: 'elsewhere' },
      ]),
      'booked',
    );
    assert.equal(ledger.balance('debtor'), 0n);
    assert.equal(ledger.balance('creditor'), 1010n);
    assert.equal(ledger.balance('elsewhere'), undefined);
    assert.equal(ledger.execute('nobody', [{ amountMinor: 1n, creditor: undefined }]), 'unknownDebtor');
  });
});

describe('fault plan', () => {
  it('matches by bank, payer and operation, counts down, and clears per bank', () => {
    const plan = new FaultPlan();
    plan.inject({ bank: 'a', operations: ['getAccounts'], fault: { kind: 'error', status: 500 }, times: 1 });
    plan.inject({ psuId: 'bob', fault: { kind: 'delay', delayMs: 5 } });
    assert.equal(plan.take({ bank: 'b', operation: 'getAccounts', psuId: undefined }), undefined);
    assert.deepEqual(plan.take({ bank: 'a', operation: 'getAccounts', psuId: undefined }), { kind: 'error', status: 500 });
    assert.equal(plan.take({ bank: 'a', operation: 'getAccounts', psuId: undefined }), undefined);
    assert.deepEqual(plan.take({ bank: 'c', operation: 'initiatePayment', psuId: 'bob' }), { kind: 'delay', delayMs: 5 });
    plan.clear('a');
    assert.equal(plan.list().length, 1);
    // A rule naming a payment service hits the calls on that service's payments only.
    plan.inject({ bank: 'd', paymentService: 'bulk-payments', fault: { kind: 'error', status: 503 } });
    assert.equal(plan.take({ bank: 'd', operation: 'getPaymentStatus', psuId: undefined, paymentService: 'payments' }), undefined);
    assert.equal(plan.take({ bank: 'd', operation: 'getConsentStatus', psuId: undefined }), undefined);
    assert.deepEqual(plan.take({ bank: 'd', operation: 'getPaymentStatus', psuId: undefined, paymentService: 'bulk-payments' }), {
      kind: 'error',
      status: 503,
    });
    plan.clear('d');
    plan.clear();
    assert.equal(plan.list().length, 0);
  });
});

describe('standard checker', () => {
  it('is not vacuous: it rejects what the standard forbids', () => {
    const standard = theStandard();
    assert.notDeepEqual(
      standard.validateResponse('initiatePayment', 201, { headers: { 'X-Request-ID': crypto.randomUUID() }, body: { paymentId: 'x' } }),
      [],
    );
    assert.notDeepEqual(standard.validateResponse('initiatePayment', 418, { headers: {}, body: undefined }), []);
    assert.notDeepEqual(
      standard.validateResponse('getPaymentInitiationStatus', 200, {
        headers: { 'X-Request-ID': crypto.randomUUID() },
        body: { transactionStatus: 'DONE' },
      }),
      [],
    );
    assert.notDeepEqual(
      standard.validateResponse('getPaymentInitiationStatus', 200, { headers: {}, body: { transactionStatus: 'ACSC' } }),
      [],
      'X-Request-ID is required',
    );
    assert.notDeepEqual(
      standard.validateRequest('initiatePayment', {
        headers: { 'X-Request-ID': crypto.randomUUID() },
        body: { instructedAmount: { currency: 'EUR', amount: '1' } },
      }),
      [],
    );
    assert.notDeepEqual(
      standard.validateRequest('updatePaymentPsuData', {
        headers: { 'X-Request-ID': crypto.randomUUID() },
        body: { psuData: { password: 7 } },
      }),
      [],
    );
    assert.deepEqual(
      standard.validateRequest('updatePaymentPsuData', {
        headers: { 'X-Request-ID': crypto.randomUUID() },
        body: { scaAuthenticationData: '123456' },
      }),
      [],
    );
  });
});

describe('plugin encapsulation', () => {
  it('mounts under a prefix without changing the host app', async () => {
    const host = Fastify();
    host.post('/host', async (request) => ({ received: request.body }));
    host.setErrorHandler((_error, _request, reply) => reply.code(418).send({ host: true }));
    host.get('/boom', async () => {
      throw new Error('host error');
    });
    const publicUrl = `${PUBLIC_URL}/sandbox-bank`;
    await host.register(sandboxBankPlugin, {
      prefix: '/sandbox-bank',
      catalogue: loadCatalogue(undefined, publicUrl),
      publicUrl,
      authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
    });
    try {
      // The host keeps Fastify's JSON parser (empty JSON bodies still rejected) and its own error handler.
      const json = await host.inject({ method: 'POST', url: '/host', payload: { a: 1 } });
      assert.deepEqual(json.json(), { received: { a: 1 } });
      const form = await host.inject({
        method: 'POST',
        url: '/host',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'a=1',
      });
      assert.equal(form.statusCode, 418, 'no form parser leaks into the host');
      assert.equal((await host.inject({ method: 'GET', url: '/boom' })).statusCode, 418);
      assert.equal((await host.inject({ method: 'GET', url: '/nowhere' })).statusCode, 404);
      // The bank answers under the prefix with its own errors.
      const bankError = await host.inject({
        method: 'GET',
        url: '/sandbox-bank/hansa/v1/payments/sepa-credit-transfers/x/status',
        headers: { 'x-request-id': 'nope' },
      });
      assert.equal(bankError.statusCode, 400);
      assert.equal(bankError.json().tppMessages[0].code, 'FORMAT_ERROR');
      const created = await host.inject({
        method: 'POST',
        url: '/sandbox-bank/hansa/v1/payments/sepa-credit-transfers',
        headers: { 'x-request-id': crypto.randomUUID(), 'psu-ip-address': '10.1.2.3', 'psu-id': 'alice' },
        payload: {
          instructedAmount: { currency: 'EUR', amount: '1.00' },
          creditorAccount: { iban: 'NL91ABNA0417164300' },
          creditorName: 'X',
        },
      });
      assert.equal(created.statusCode, 201);
      assert.match(created.json()._links.self.href, /^http:\/\/sandbox-bank\.test\/sandbox-bank\/hansa\/v1\/payments\//);
      const index = await host.inject({ method: 'GET', url: '/sandbox-bank/' });
      assert.equal(index.statusCode, 200);
      assert.match(index.body, /Rheinland Sandbox Bank/);
    } finally {
      await host.close();
    }
  });
});
