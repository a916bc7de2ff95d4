/**
 * Mutual TLS towards a bank: the connector presents the configured client certificate and trusts the configured
 * CA; without the certificate the bank's TLS handshake fails, which is a connection error (indeterminate).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { after, before, test } from 'node:test';
import { BankUnavailableError, createConnectors } from '../../../src/connectors/index.js';
import { bgPayment } from '../helpers/references.js';
import { settings } from '../helpers/fake-bank.js';
import { throwawayCertificate, type KeyAndCertificate } from '../helpers/throwaway-certificates.js';

let bankCertificate: KeyAndCertificate;
let clientCertificate: KeyAndCertificate;
let server: Server;
let origin: string;
const seenClients: string[] = [];

before(async () => {
  bankCertificate = throwawayCertificate('/CN=127.0.0.1', { san: 'IP:127.0.0.1' });
  clientCertificate = throwawayCertificate('/C=DE/O=openpis test/CN=openpis QWAC');
  server = createServer(
    {
      key: bankCertificate.keyPem,
      cert: bankCertificate.certificatePem,
      requestCert: true,
      rejectUnauthorized: true,
      ca: [clientCertificate.certificatePem],
    },
    (request, response) => {
      const peer = (request.socket as TLSSocket).getPeerCertificate();
      seenClients.push(String(peer.subject?.CN ?? ''));
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ transactionStatus: 'ACSC' }));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const payment = bgPayment({ paymentId: 'p', paymentService: 'payments', paymentProduct: 'sepa-credit-transfers', links: {} });

test('the client certificate is presented and the bank CA trusted', async () => {
  const connectors = createConnectors({
    tls: { cert: clientCertificate.certificatePem, key: clientCertificate.keyPem, ca: bankCertificate.certificatePem },
  });
  // The payer known: one call (a settled payment's payer would be read from the payment resource too).
  const status = await connectors
    .for(settings(`${origin}/bank`))
    .getPaymentStatus({ context: { requestId: randomUUID() }, payment, payerKnown: true });
  assert.equal(status.outcome, 'completed');
  assert.deepEqual(seenClients, ['openpis QWAC']);
  await connectors.close();
});

test('without the client certificate the handshake fails: BankUnavailableError (connection)', async () => {
  const connectors = createConnectors({ tls: { ca: bankCertificate.certificatePem } });
  await assert.rejects(
    connectors.for(settings(`${origin}/bank`)).getPaymentStatus({ context: { requestId: randomUUID() }, payment }),
    (error: unknown) => error instanceof BankUnavailableError && error.reason === 'connection',
  );
  await connectors.close();
});
