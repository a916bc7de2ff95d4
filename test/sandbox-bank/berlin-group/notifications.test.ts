/**
 * The sandbox banks' status notifications (the standard's "lean push"): a bank whose catalogue entry says
 * `statusNotifications` answers `TPP-Notification-URI` with `ASPSP-Notification-Support: true` and POSTs a
 * notification to it when the payment's SCA status or transaction status changes; other banks ignore the header; a
 * fault rule on `sendNotification` loses the notification.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { getPage, readForm, SEPA_PAYMENT, startHarness, submit, xs2aHeaders, type Harness } from '../harness.js';
import { waitFor } from '../../helpers/wait.js';

const SEK_PAYMENT = {
  ...SEPA_PAYMENT,
  instructedAmount: { currency: 'SEK', amount: '250' },
  creditorAccount: { iban: 'SE3550000000054910000003' },
};

/** A TPP's notification endpoint on loopback: records every notification it gets. */
interface Receiver {
  readonly url: string;
  readonly received: Array<{ readonly path: string; readonly contentType: string | undefined; readonly body: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        body: JSON.parse(text) as Record<string, unknown>,
      });
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('status notifications of the sandbox banks', () => {
  let bank: Harness;
  let tpp: Receiver;
  before(async () => {
    bank = await startHarness();
    tpp = await startReceiver();
  });
  after(async () => {
    await bank.close();
    await tpp.close();
  });
  beforeEach(() => {
    tpp.received.length = 0;
  });

  /** A decoupled payment at Norrland (notifications on) or Midi (off), its authorisation started, with our address. */
  async function decoupled(slug: 'norrland' | 'midi', path: string) {
    const notification = { 'TPP-Notification-URI': `${tpp.url}${path}`, 'TPP-Notification-Content-Preferred': 'status=SCA,PROCESS,LAST' };
    const [body, product] = slug === 'norrland' ? [SEK_PAYMENT, 'sek-credit-transfers'] : [SEPA_PAYMENT, 'sepa-credit-transfers'];
    const created = await bank.call('initiatePayment', 'POST', `/${slug}/v1/payments/${product}`, {
      headers: xs2aHeaders(notification),
      body,
      debtorAccountOptional: true,
    });
    assert.equal(created.status, 201);
    const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuIdentification.href, {
      headers: xs2aHeaders({ 'PSU-ID': slug === 'norrland' ? 'sven' : 'alice', ...notification }),
    });
    assert.equal(start.status, 201);
    return { created, start };
  }

  async function approveInApp(start: { body: { _links: { sandboxDecoupledApp: { href: string } } } }): Promise<void> {
    const appUrl = bank.local(start.body._links.sandboxDecoupledApp.href);
    const page = await getPage(appUrl);
    await submit(readForm(page.html, appUrl), { action: 'approve' });
  }

  it('answers the address and notifies the SCA status and every transaction status change once the payer approves', async () => {
    const { created, start } = await decoupled('norrland', '/notifications/payment-1');
    assert.equal(created.headers.get('aspsp-notification-support'), 'true');
    assert.equal(created.headers.get('aspsp-notification-content'), 'status=SCA,PROCESS,LAST');
    assert.equal(start.headers.get('aspsp-notification-support'), 'true');
    assert.equal(tpp.received.length, 0, 'nothing changed yet');

    await approveInApp(start);
    const paymentId: string = created.body.paymentId;
    await waitFor(
      'the final status notified',
      () => (tpp.received.some((notification) => notification.body['transactionStatus'] === 'ACSC') ? true : undefined),
      10_000,
    );
    assert.ok(tpp.received.every((notification) => notification.path === '/notifications/payment-1'));
    assert.ok(tpp.received.every((notification) => notification.contentType === 'application/json'));
    const authorisationId: string = start.body.authorisationId;
    assert.ok(
      tpp.received.some(
        (notification) =>
          notification.body['scaStatus'] === 'finalised' &&
          notification.body['resource'] === `/v1/payments/sek-credit-transfers/${paymentId}/authorisations/${authorisationId}`,
      ),
      JSON.stringify(tpp.received),
    );
    const transactionStatuses = tpp.received.flatMap((notification) =>
      notification.body['resource'] === `/v1/payments/sek-credit-transfers/${paymentId}` ? [notification.body['transactionStatus']] : [],
    );
    assert.equal(transactionStatuses[transactionStatuses.length - 1], 'ACSC');
    assert.equal(new Set(transactionStatuses).size, transactionStatuses.length, 'each change notified once');
  });

  it('a bank without the service ignores the address: no answer header, no notification', async () => {
    const { created, start } = await decoupled('midi', '/notifications/payment-2');
    assert.equal(created.headers.get('aspsp-notification-support'), null);
    await approveInApp(start);
    // The payment is final at once (alice settles at approval); a notification would have been sent by now.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(tpp.received.length, 0, JSON.stringify(tpp.received));
  });

  it('an address that is not an http(s) URL is answered with ASPSP-Notification-Support: false', async () => {
    const created = await bank.call('initiatePayment', 'POST', '/norrland/v1/payments/sek-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Notification-URI': 'ftp://tpp.example/notify' }),
      body: SEK_PAYMENT,
      debtorAccountOptional: true,
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('aspsp-notification-support'), 'false');
  });

  it('a fault rule on sendNotification loses the notifications it covers', async () => {
    const { start } = await decoupled('norrland', '/notifications/payment-3');
    bank.faults.inject({ bank: 'norrland', operations: ['sendNotification'], fault: { kind: 'error', status: 500 } });
    try {
      await approveInApp(start);
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(tpp.received.length, 0, JSON.stringify(tpp.received));
    } finally {
      bank.faults.clear();
    }
  });
});
