/**
 * A payment's row and back, the one mapping of the `payments` and `payment_status_history` tables. It lives in
 * flow/ because the flow engine reads and updates payments (payment-state-store.ts) and flow is below payments/ in
 * the layers (.dependency-cruiser.cjs): the payments API's repository (src/payments/payment-repository.ts) imports
 * this, never the other way round.
 */
import type { Selectable } from 'kysely';
import { isDetailedStatus, type DetailedStatus, type FailureReason } from '../domain/detailed-status.js';
import { sha256Hex } from '../crypto/hashes.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { flowTokenContext } from '../crypto/sealing-contexts.js';
import type { PaymentStatusHistoryTable, PaymentsTable } from '../storage/schema.js';
import type { Payment, StatusRecord } from '../domain/payment.js';

function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

function detailedStatusOf(value: string): DetailedStatus {
  if (!isDetailedStatus(value)) throw new Error(`Unknown detailed status in the database: ${value}`);
  return value;
}

/** The flow token is opened from its sealed copy (only a hash of it is searchable). */
export function paymentFromRow(row: Selectable<PaymentsTable>, secrets: SecretBox): Payment {
  return {
    id: row.id,
    clientId: row.client_id,
    environment: row.environment,
    endToEndId: row.end_to_end_id,
    mode: row.mode,
    providerId: row.provider_id,
    providerPreferences: parseJson(row.provider_preferences),
    paymentScheme: row.payment_scheme,
    schemeMode: row.scheme_mode,
    feePaidBy: row.fee_paid_by,
    amount: row.amount,
    currency: row.currency,
    sender: parseJson(row.sender),
    recipient: JSON.parse(row.recipient) as Payment['recipient'],
    remittance: JSON.parse(row.remittance) as Payment['remittance'],
    redirectUri: row.redirect_uri,
    webhookUrl: row.webhook_url,
    psuIpAddress: row.psu_ip_address,
    psuUserAgent: row.psu_user_agent,
    locale: row.locale,
    flowToken: secrets.open(row.flow_token_sealed, flowTokenContext(row.id)),
    providerPaymentId: row.provider_payment_id,
    detailedStatus: detailedStatusOf(row.detailed_status),
    failureReasons: parseJson<FailureReason[]>(row.failure_reasons),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    flowExpiresAt: row.flow_expires_at,
    flowState: parseJson<Record<string, unknown>>(row.flow_state),
    retryOf: row.retry_of,
    retryAllowed: Number(row.retry_allowed) === 1,
    refundOf: row.refund_of,
    payer: parseJson(row.payer),
    paymentLinkId: row.payment_link_id,
    bulkLeaderId: row.bulk_leader_id,
  };
}

/** The flow token is stored only as its hash (for lookup) and sealed for this payment (for `redirectUrl`). */
export function paymentToRow(payment: Payment, secrets: SecretBox): PaymentsTable {
  return {
    ...paymentColumns(payment),
    flow_token_hash: sha256Hex(payment.flowToken),
    flow_token_sealed: secrets.seal(payment.flowToken, flowTokenContext(payment.id)),
  };
}

/** The payment's columns but its flow token's (which never changes after creation, so only creation writes it). */
export function paymentColumns(payment: Payment): Omit<PaymentsTable, 'flow_token_hash' | 'flow_token_sealed'> {
  return {
    id: payment.id,
    client_id: payment.clientId,
    environment: payment.environment,
    end_to_end_id: payment.endToEndId,
    mode: payment.mode,
    provider_id: payment.providerId,
    provider_preferences: payment.providerPreferences === null ? null : JSON.stringify(payment.providerPreferences),
    payment_scheme: payment.paymentScheme,
    scheme_mode: payment.schemeMode,
    fee_paid_by: payment.feePaidBy,
    amount: payment.amount,
    currency: payment.currency,
    sender: payment.sender === null ? null : JSON.stringify(payment.sender),
    recipient: JSON.stringify(payment.recipient),
    remittance: JSON.stringify(payment.remittance),
    redirect_uri: payment.redirectUri,
    webhook_url: payment.webhookUrl,
    psu_ip_address: payment.psuIpAddress,
    psu_user_agent: payment.psuUserAgent,
    locale: payment.locale,
    provider_payment_id: payment.providerPaymentId,
    detailed_status: payment.detailedStatus,
    failure_reasons: payment.failureReasons === null ? null : JSON.stringify(payment.failureReasons),
    version: payment.version,
    created_at: payment.createdAt,
    updated_at: payment.updatedAt,
    flow_expires_at: payment.flowExpiresAt,
    flow_state: payment.flowState === null ? null : JSON.stringify(payment.flowState),
    retry_of: payment.retryOf,
    retry_allowed: payment.retryAllowed ? 1 : 0,
    refund_of: payment.refundOf,
    payer: payment.payer === null ? null : JSON.stringify(payment.payer),
    payment_link_id: payment.paymentLinkId,
    bulk_leader_id: payment.bulkLeaderId,
  };
}

/** A status history record as the API shows it. */
export function statusRecordFromRow(row: Selectable<PaymentStatusHistoryTable>): StatusRecord {
  return {
    id: row.id,
    paymentId: row.payment_id,
    sequence: Number(row.sequence),
    detailedStatus: detailedStatusOf(row.detailed_status),
    failureReasons: parseJson<FailureReason[]>(row.failure_reasons),
    createdAt: row.created_at,
  };
}
