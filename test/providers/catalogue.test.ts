/**
 * The catalogue derives `requiredPaymentFields` from each bank's connector settings (the place the flow reads), so
 * the providers list cannot say something the flow does not do; a catalogue that still lists the fields must agree.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { BerlinGroupSettings } from '../../src/connectors/berlin-group/settings.js';
import { parseCatalogue, requiredPaymentFieldsOf } from '../../src/providers/catalogue.js';

const SANDBOX = 'http://127.0.0.1:1/sandbox-bank';
const builtIn = (): { providers: Array<Record<string, unknown>> } =>
  JSON.parse(readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8')) as {
    providers: Array<Record<string, unknown>>;
  };

function settings(overrides: Partial<BerlinGroupSettings>): BerlinGroupSettings {
  return {
    standard: 'berlin-group',
    baseUrl: 'https://bank.example',
    scaApproaches: ['REDIRECT'],
    products: { SEPA: 'sepa-credit-transfers' },
    acceptedForExecutionIsCompleted: false,
    requiresDebtorAccount: false,
    accountInformation: false,
    requiresSenderAuthorization: false,
    timeoutMs: 10_000,
    ...overrides,
  };
}

describe('requiredPaymentFields', () => {
  it('follows from the first SCA approach and the debtor account rules', () => {
    assert.deepEqual(requiredPaymentFieldsOf(settings({})), []);
    assert.deepEqual(requiredPaymentFieldsOf(settings({ scaApproaches: ['EMBEDDED'] })), [
      'SENDER_PROVIDER_CREDENTIALS_ID',
      'SENDER_PROVIDER_CREDENTIALS_PASSWORD',
    ]);
    assert.deepEqual(requiredPaymentFieldsOf(settings({ scaApproaches: ['DECOUPLED'] })), ['SENDER_PROVIDER_CREDENTIALS_ID']);
    // The flow uses the first approach: a redirect bank that also offers embedded asks nothing.
    assert.deepEqual(requiredPaymentFieldsOf(settings({ scaApproaches: ['REDIRECT', 'EMBEDDED'] })), []);
    assert.deepEqual(requiredPaymentFieldsOf(settings({ requiresDebtorAccount: true })), ['SENDER_ACCOUNT']);
    // With an account list the payer picks the account; the IBAN is not asked for.
    assert.deepEqual(requiredPaymentFieldsOf(settings({ requiresDebtorAccount: true, accountInformation: true })), []);
  });

  it('is what the built-in catalogue shows, and a bank group shows what any of its banks asks', () => {
    const catalogue = parseCatalogue(builtIn(), SANDBOX);
    for (const bank of catalogue.banks('sandbox'))
      assert.deepEqual(bank.requiredPaymentFields, requiredPaymentFieldsOf(bank.connector), bank.name);
    const byName = new Map(catalogue.banks('sandbox').map((bank) => [bank.name, bank.requiredPaymentFields]));
    assert.deepEqual(byName.get('Banca Sandbox Italia'), ['SENDER_PROVIDER_CREDENTIALS_ID', 'SENDER_PROVIDER_CREDENTIALS_PASSWORD']);
    assert.deepEqual(byName.get('Baltic Sandbox Bank Lietuva'), ['SENDER_PROVIDER_CREDENTIALS_ID', 'SENDER_PROVIDER_CREDENTIALS_PASSWORD']);
    const group = catalogue.list('sandbox').find((entry) => entry.kind === 'group');
    assert.ok(group?.kind === 'group');
    assert.deepEqual(group.requiredPaymentFields, ['SENDER_PROVIDER_CREDENTIALS_ID', 'SENDER_PROVIDER_CREDENTIALS_PASSWORD']);
  });

  it('may still be listed in a catalogue file, but only as its settings say', () => {
    const agreeing = builtIn();
    const italia = agreeing.providers.find((provider) => provider['name'] === 'Banca Sandbox Italia');
    assert.ok(italia);
    italia['requiredPaymentFields'] = ['SENDER_PROVIDER_CREDENTIALS_PASSWORD', 'SENDER_PROVIDER_CREDENTIALS_ID'];
    assert.doesNotThrow(() => parseCatalogue(agreeing, SANDBOX));
    italia['requiredPaymentFields'] = ['SENDER_PROVIDER_CREDENTIALS_PASSWORD'];
    assert.throws(
      () => parseCatalogue(agreeing, SANDBOX),
      /ef73abfd-e3fe-47b4-a3f6-8e651627e17a \(Banca Sandbox Italia\): requiredPaymentFields \[SENDER_PROVIDER_CREDENTIALS_PASSWORD\] does not match its connector settings, which require \[SENDER_PROVIDER_CREDENTIALS_ID, SENDER_PROVIDER_CREDENTIALS_PASSWORD\]/,
    );
  });
});
