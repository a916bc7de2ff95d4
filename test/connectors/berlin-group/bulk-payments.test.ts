/**
 * The Berlin Group connector's `bulkPayments` capability against the sandbox bank over real HTTP: a bulk registered
 * at a redirect bank (Rheinland) and an embedded one (Hansa), authorised once, its status polled to settled, every
 * later call on the bulk's paths; the request body as the standard's `bulkPaymentInitiation_json`; no capability at
 * a bank without `bulkPayments`; a caller's misuse refused before anything is sent.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  CONNECTOR_CAPABILITIES,
  createConnectors,
  type BankConnector,
  type BankReference,
  type BulkPayments,
  type CallContext,
  type Connectors,
  type PaymentOrder,
  type PaymentStatusResult,
  type ReturnAddress,
} from '../../../src/connectors/index.js';
import { meterConnector } from '../../../src/observability/metered-connector.js';
import { Metrics } from '../../../src/observability/metrics.js';
import { bankReturnOf, startSandboxBank, type SandboxBankHandle } from '../contract/sandbox-bank-fixture.js';
import { berlinGroupOpenApi } from '../helpers/openapi-validator.js';
import { completeBankPages } from '../helpers/psu-browser.js';
import { recordingDispatcher, relativeToBank, type WireRequest } from '../helpers/recording-dispatcher.js';

const ALICE = 'DE54500105171000007919';
const RETURN_URI = 'https://tpp.example/callback/bulk';

let sandbox: SandboxBankHandle;
let recorder: ReturnType<typeof recordingDispatcher>;
let connectors: Connectors;

before(async () => {
  sandbox = await startSandboxBank();
  recorder = recordingDispatcher();
  connectors = createConnectors({ dispatcher: recorder.dispatcher });
});
after(async () => {
  await connectors.close();
  await recorder.close();
  await sandbox.close();
});

const context = (): CallContext => ({ requestId: randomUUID(), psuIpAddress: '192.0.2.10', psuUserAgent: 'bulk-test/1.0' });

function connectorOf(slug: string): BankConnector {
  return connectors.for(sandbox.bank(slug).connector);
}

function bulkOf(connector: BankConnector): BulkPayments {
  assert.ok(connector.bulkPayments !== undefined, 'the bank offers bulk payments');
  return connector.bulkPayments;
}

function refund(amount: string, creditorIban: string, creditorName: string, overrides: Partial<PaymentOrder> = {}): PaymentOrder {
  return {
    endToEndId: `REFUND-${randomUUID().slice(0, 8)}`,
    amount,
    currency: 'EUR',
    scheme: 'SEPA',
    instantPreferred: false,
    creditor: { iban: creditorIban, name: creditorName },
    debtor: { iban: ALICE },
    remittanceInformation: `Refund ${amount}`,
    ...overrides,
  };
}

function threeRefunds(): PaymentOrder[] {
  return [
    refund('0.10', 'DE29500105171000015838', 'Bob Many-Accounts'),
    refund('0.20', 'DE89370400440532013000', 'Contract Merchant GmbH', {
      creditor: {
        iban: 'DE89370400440532013000',
        name: 'Contract Merchant GmbH',
        address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '1', postCode: '10117' },
      },
    }),
    refund('19.99', 'NL91ABNA0417164300', 'Outside Shop'),
  ];
}

function returnTo(): ReturnAddress {
  return { uri: RETURN_URI, registeredUri: RETURN_URI, state: randomUUID() };
}

/** Requests sent since `from`, as the standard's validator reads them, with their path ids generalised. */
function sentSince(from: number, slug: string): Array<{ request: WireRequest; route: string }> {
  return recorder.requests.slice(from).map((request) => ({
    request,
    route: `${request.method} ${relativeToBank(request, `${sandbox.publicUrl}/${slug}`).path.replace(/\/[0-9a-f-]{36}/g, '/{id}')}`,
  }));
}

async function settle(connector: BankConnector, payment: BankReference): Promise<PaymentStatusResult> {
  let status = await connector.getPaymentStatus({ context: context(), payment });
  for (let read = 1; read < 20 && status.outcome === 'pending'; read += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    status = await connector.getPaymentStatus({ context: context(), payment });
  }
  return status;
}

describe('bulk payments through the Berlin Group connector', () => {
  it('is a capability of banks whose settings say bulkPayments, and only of those; the metered wrapper passes it on', () => {
    assert.ok(CONNECTOR_CAPABILITIES.includes('bulkPayments'));
    assert.ok(connectorOf('rheinland').bulkPayments !== undefined);
    assert.ok(connectorOf('hansa').bulkPayments !== undefined);
    assert.equal(connectorOf('polder').bulkPayments, undefined);
    assert.equal(connectorOf('italia').bulkPayments, undefined);
    const metered = meterConnector(connectorOf('rheinland'), 'rheinland', new Metrics());
    assert.equal(typeof metered.bulkPayments?.registerBulkPayment, 'function');
    assert.equal(meterConnector(connectorOf('polder'), 'polder', new Metrics()).bulkPayments, undefined);
  });

  it('redirect: one registration and one authorisation at the bank for three payments, settled; the body is the standard bulk', async () => {
    const connector = connectorOf('rheinland');
    const from = recorder.requests.length;
    const payments = threeRefunds();
    const address = returnTo();
    const registered = await bulkOf(connector).registerBulkPayment({
      context: context(),
      idempotencyKey: randomUUID(),
      payments,
      returnAddress: address,
    });
    assert.equal(registered.transactionStatus.state, 'received');
    assert.equal(registered.scaApproach, 'REDIRECT');
    assert.ok(registered.next.kind === 'redirect');
    assert.ok(registered.authorisation !== undefined);
    assert.match(registered.providerPaymentId, /^[0-9a-f-]{36}$/);

    const browser = await completeBankPages(registered.next.url, { psuId: 'alice', password: 'sandbox', otp: '123456' });
    const back = browser.redirectedTo;
    assert.ok(back?.startsWith(RETURN_URI) === true, `back to us: ${back}`);
    const completed = await connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: registered.authorisation,
      returned: { data: bankReturnOf(back), expectedState: address.state },
    });
    assert.equal(completed.next.kind, 'authorised');
    const status = await settle(connector, registered.payment);
    assert.equal(status.outcome, 'completed');
    assert.equal(status.transactionStatus.state, 'settled');
    assert.deepEqual(status.payer?.account, { type: 'IBAN', value: ALICE });

    const sent = sentSince(from, 'rheinland');
    const initiation = sent[0]?.request;
    assert.equal(sent[0]?.route, 'POST /v1/bulk-payments/sepa-credit-transfers');
    assert.ok(initiation?.bodyText !== undefined);
    assert.equal(initiation.headers['tpp-redirect-uri'] ?? initiation.headers['TPP-Redirect-URI'], RETURN_URI);
    assert.deepEqual(JSON.parse(initiation.bodyText), {
      batchBookingPreferred: false,
      debtorAccount: { iban: ALICE, currency: 'EUR' },
      payments: payments.map((payment) => ({
        endToEndIdentification: payment.endToEndId,
        instructedAmount: { currency: 'EUR', amount: payment.amount },
        creditorAccount: { iban: payment.creditor.iban },
        creditorName: payment.creditor.name,
        ...(payment.creditor.address === undefined
          ? {}
          : {
              creditorAddress: {
                streetName: 'Unter den Linden',
                buildingNumber: '1',
                townName: 'Berlin',
                postCode: '10117',
                country: 'DE',
              },
            }),
        remittanceInformationUnstructured: payment.remittanceInformation,
      })),
    });
    // Every later call went to the bulk's paths, and every request is the standard's.
    for (const { route } of sent.slice(1)) assert.match(route, /^(GET|POST|PUT|DELETE) \/v1\/bulk-payments\/sepa-credit-transfers\/\{id\}/);
    assert.ok(sent.some(({ route }) => route === 'GET /v1/bulk-payments/sepa-credit-transfers/{id}/status'));
    const api = berlinGroupOpenApi();
    assert.deepEqual(
      sent.flatMap(({ request }) => api.validate(relativeToBank(request, `${sandbox.publicUrl}/rheinland`))),
      [],
    );
  });

  it('embedded: the password and the one-time code once for the bulk, then settled', async () => {
    const connector = connectorOf('hansa');
    const from = recorder.requests.length;
    const registered = await bulkOf(connector).registerBulkPayment({
      context: context(),
      idempotencyKey: randomUUID(),
      payments: threeRefunds(),
      psuId: 'alice',
    });
    assert.equal(registered.next.kind, 'start-authorisation');
    const started = await connector.startAuthorisation({
      context: context(),
      payment: registered.payment,
      psu: { id: 'alice', password: 'sandbox' },
    });
    assert.equal(started.next.kind, 'authorise-transaction');
    assert.ok(connector.embedded !== undefined);
    const done = await connector.embedded.authoriseTransaction({
      context: context(),
      resource: registered.payment,
      authorisation: started.authorisation,
      scaAuthenticationData: '123456',
    });
    assert.equal(done.next.kind, 'authorised');
    assert.equal((await settle(connector, registered.payment)).transactionStatus.state, 'settled');
    const routes = sentSince(from, 'hansa').map(({ route }) => route);
    assert.deepEqual(routes.slice(0, 3), [
      'POST /v1/bulk-payments/sepa-credit-transfers',
      'POST /v1/bulk-payments/sepa-credit-transfers/{id}/authorisations',
      'PUT /v1/bulk-payments/sepa-credit-transfers/{id}/authorisations/{id}',
    ]);
  });

  it('a bulk not yet authorised is cancelled on its own path', async () => {
    const connector = connectorOf('rheinland');
    const registered = await bulkOf(connector).registerBulkPayment({
      context: context(),
      idempotencyKey: randomUUID(),
      payments: threeRefunds(),
      returnAddress: returnTo(),
    });
    const from = recorder.requests.length;
    const cancelled = await connector.cancelPayment({ context: context(), payment: registered.payment });
    assert.equal(cancelled.cancelled, true);
    assert.deepEqual(
      sentSince(from, 'rheinland').map(({ route }) => route),
      ['DELETE /v1/bulk-payments/sepa-credit-transfers/{id}'],
    );
    const status = await connector.getPaymentStatus({ context: context(), payment: registered.payment });
    assert.equal(status.transactionStatus.state, 'cancelled');
  });

  it("refuses a caller's misuse before sending anything", async () => {
    const bulk = bulkOf(connectorOf('rheinland'));
    const [first, second] = threeRefunds();
    assert.ok(first !== undefined && second !== undefined);
    const misuses: Array<[string, PaymentOrder[]]> = [
      ['no payment', []],
      ['one payment', [first]],
      ['no debtor', [first, { ...second, debtor: undefined }]],
      ['two debtors', [first, { ...second, debtor: { iban: 'DE29500105171000015838' } }]],
      ['two currencies', [first, { ...second, currency: 'SEK' }]],
      ['two schemes', [first, { ...second, scheme: 'DOMESTIC' }]],
      ['instant and not', [first, { ...second, instantPreferred: true }]],
      ['a malformed amount', [first, { ...second, amount: '1,00' }]],
    ];
    const from = recorder.requests.length;
    for (const [what, payments] of misuses) {
      await assert.rejects(
        bulk.registerBulkPayment({ context: context(), idempotencyKey: randomUUID(), payments, returnAddress: returnTo() }),
        (error: unknown) => error instanceof TypeError,
        what,
      );
    }
    assert.equal(recorder.requests.length, from, 'nothing was sent');
  });
});
