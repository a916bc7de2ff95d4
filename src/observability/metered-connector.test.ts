import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BankUnavailableError, type BankConnector } from '../connectors/index.js';
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
