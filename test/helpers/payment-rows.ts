/**
 * A payment as the payments table stores it, for tests that write rows directly (a status, a bank reference, an
 * age that no request could give): a custom-mode SEPA payment of 10.50 EUR with a sealed flow token, created and
 * updated at `at`, its flow deadline 15 minutes later. `changes` set what the test is about.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../src/crypto/hashes.js';
import { flowTokenContext } from '../../src/crypto/sealing-contexts.js';
import type { PaymentsTable } from '../../src/storage/schema.js';
import { testSecretBox } from './secret-keys.js';

const secrets = testSecretBox();

export function storedPaymentRow(clientId: string, at: string, changes: Partial<PaymentsTable> = {}): PaymentsTable {
  const id = changes.id ?? randomUUID();
  return {
    id,
    client_id: clientId,
    environment: 'sandbox',
    end_to_end_id: id.slice(0, 20),
    mode: 'custom',
    provider_id: '7f7bc6ab-95fd-468a-8fce-7c465d98906d',
    provider_preferences: null,
    payment_scheme: 'SEPA',
    scheme_mode: null,
    fee_paid_by: null,
    amount: '10.50',
    currency: 'EUR',
    sender: null,
    recipient: JSON.stringify({ name: 'Merchant', account: { type: 'IBAN', number: { value: 'DE89370400440532013000' } } }),
    remittance: JSON.stringify({ value: 'Order 1', truncate: false }),
    redirect_uri: 'https://merchant.example/return',
    webhook_url: null,
    psu_ip_address: '192.0.2.1',
    psu_user_agent: 'test',
    locale: null,
    flow_token_hash: sha256Hex(`token-${id}`),
    flow_token_sealed: secrets.seal(`token-${id}`, flowTokenContext(id)),
    provider_payment_id: null,
    detailed_status: 'PAYMENT_CONSENT_REDIRECT_PENDING',
    failure_reasons: null,
    version: 1,
    created_at: at,
    updated_at: at,
    flow_expires_at: new Date(Date.parse(at) + 900_000).toISOString(),
    flow_state: null,
    retry_of: null,
    retry_allowed: 0,
    refund_of: null,
    payer: null,
    payment_link_id: null,
    bulk_leader_id: null,
    ...changes,
  };
}
