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
    async initiatePayment() {
      throw new BankUnavailableError('initiatePayment', 'timeout');
    },
  } as unknown as BankConnector;
  const metered = meterConnector(fake, 'Rheinland Sandbox Bank', metrics);
  assert.equal(metered.standard, 'berlin-group');
  await metered.getPaymentStatus({} as never);
  await assert.rejects(metered.initiatePayment({} as never), BankUnavailableError);
  const text = await metrics.registry.metrics();
  assert.match(text, /openpis_bank_calls_total\{provider="Rheinland Sandbox Bank",operation="getPaymentStatus",result="ok"\} 1/);
  assert.match(text, /openpis_bank_calls_total\{provider="Rheinland Sandbox Bank",operation="initiatePayment",result="unavailable"\} 1/);
  assert.match(text, /openpis_bank_call_duration_seconds_count\{provider="Rheinland Sandbox Bank",operation="initiatePayment"\} 1/);
});
