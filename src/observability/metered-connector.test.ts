import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BankRejectedError, BankUnavailableError, type BankConnector } from '../connectors/index.js';
import type { BankCallRecord } from './bank-call-records.js';
import { Metrics } from './metrics.js';
import { meterConnector } from './metered-connector.js';

it('counts and times every bank call by provider, operation and result', async () => {
  const metrics = new Metrics();
  const fake = {
    standard: 'berlin-group',
    async getPaymentStatus() {
      return { outcome: 'pending' };
    },
    async registerPayment() {
      throw new BankUnavailableError('initiatePayment', 'timeout');
    },
    embedded: {
      async authoriseTransaction() {
        return { next: { kind: 'authorised' } };
      },
    },
  } as unknown as BankConnector;
  const metered = meterConnector(fake, 'Rheinland Sandbox Bank', metrics);
  assert.equal(metered.standard, 'berlin-group');
  await metered.getPaymentStatus({} as never);
  await assert.rejects(metered.registerPayment({} as never), BankUnavailableError);
  await metered.embedded?.authoriseTransaction({} as never);
  const text = await metrics.registry.metrics();
  assert.match(text, /openpis_bank_calls_total\{provider="Rheinland Sandbox Bank",operation="getPaymentStatus",result="ok"\} 1/);
  assert.match(text, /openpis_bank_calls_total\{provider="Rheinland Sandbox Bank",operation="registerPayment",result="unavailable"\} 1/);
  assert.match(text, /openpis_bank_call_duration_seconds_count\{provider="Rheinland Sandbox Bank",operation="registerPayment"\} 1/);
  // Capabilities' operations are bank calls too.
  assert.match(text, /openpis_bank_calls_total\{provider="Rheinland Sandbox Bank",operation="authoriseTransaction",result="ok"\} 1/);
});

it('records every call for whom it was made, how it ended and how long it took, and nothing of its arguments', async () => {
  const recorded: BankCallRecord[] = [];
  const fake = {
    standard: 'berlin-group',
    async getPaymentStatus() {
      return { outcome: 'pending' };
    },
    async registerPayment() {
      throw new BankRejectedError('initiatePayment', 400, 'BANK_REJECTED', []);
    },
  } as unknown as BankConnector;
  const caller = { bankId: 'bank-1', clientId: 'client-1', paymentId: 'payment-1' };
  const metered = meterConnector(fake, 'Rheinland Sandbox Bank', new Metrics(), {
    sink: { record: (call) => recorded.push(call) },
    bankId: 'bank-from-settings',
    caller,
  });
  await metered.getPaymentStatus({ credentials: { password: 'secret-password' } } as never);
  await assert.rejects(metered.registerPayment({} as never), BankRejectedError);
  assert.deepEqual(
    recorded.map(({ at: _at, latencyMs: _latency, ...rest }) => rest),
    [
      { bankId: 'bank-1', clientId: 'client-1', paymentId: 'payment-1', operation: 'getPaymentStatus', outcome: 'ok', httpStatus: null },
      { bankId: 'bank-1', clientId: 'client-1', paymentId: 'payment-1', operation: 'registerPayment', outcome: 'refused', httpStatus: 400 },
    ],
  );
  assert.ok(recorded.every((call) => call.latencyMs >= 0 && !Number.isNaN(Date.parse(call.at))));
  assert.ok(!JSON.stringify(recorded).includes('secret-password'));
});

it('reports a bank that does not know a payment it gave us (404 or RESOURCE_UNKNOWN) as an error, and still throws', async () => {
  const metrics = new Metrics();
  const alerts: Array<{ details: Record<string, unknown>; message: string }> = [];
  const fake = {
    standard: 'berlin-group',
    async getPaymentStatus() {
      throw new BankRejectedError('getPaymentStatus', 404, 'BANK_REJECTED', []);
    },
    async cancelPayment() {
      throw new BankRejectedError('cancelPayment', 403, 'BANK_REJECTED', [{ category: 'ERROR', code: 'RESOURCE_UNKNOWN' }]);
    },
    async registerPayment() {
      // A 404 about no resource of ours (an unknown payment product, say) is a plain refusal.
      throw new BankRejectedError('registerPayment', 404, 'BANK_REJECTED', [{ category: 'ERROR', code: 'PRODUCT_UNKNOWN' }]);
    },
  } as unknown as BankConnector;
  const caller = { bankId: 'bank-1', clientId: 'client-1', paymentId: 'payment-1' };
  const metered = meterConnector(
    fake,
    'Rheinland Sandbox Bank',
    metrics,
    { sink: { record: () => undefined }, bankId: 'bank-1', caller },
    {
      error: (details, message) => alerts.push({ details, message }),
    },
  );
  // The error still reaches the flow, which keeps the payment pending: the bank's truth is unknown.
  await assert.rejects(metered.getPaymentStatus({ context: {}, payment: {} } as never), BankRejectedError);
  await assert.rejects(metered.cancelPayment({ context: {}, payment: {} } as never), BankRejectedError);
  await assert.rejects(metered.registerPayment({ context: {} } as never), BankRejectedError);
  assert.deepEqual(
    alerts.map(({ details }) => details),
    [
      { provider: 'Rheinland Sandbox Bank', operation: 'getPaymentStatus', httpStatus: 404, paymentId: 'payment-1' },
      { provider: 'Rheinland Sandbox Bank', operation: 'cancelPayment', httpStatus: 403, paymentId: 'payment-1' },
    ],
  );
  assert.match(alerts[0]!.message, /does not know/);
  const text = await metrics.registry.metrics();
  assert.match(text, /openpis_bank_unknown_resources_total\{provider="Rheinland Sandbox Bank",operation="getPaymentStatus"\} 1/);
  assert.match(text, /openpis_bank_unknown_resources_total\{provider="Rheinland Sandbox Bank",operation="cancelPayment"\} 1/);
  assert.doesNotMatch(text, /openpis_bank_unknown_resources_total\{[^}]*registerPayment/);
});
