/**
 * Table types for Kysely. Both databases store the same shapes:
 * - times are UTC ISO 8601 strings with milliseconds (`2026-11-21T10:00:00.000Z`), so they sort as text;
 * - money is an exact decimal string (`"10.50"`), never a float;
 * - structured values are JSON text, parsed at the repository boundary.
 * See docs/adr/0002-storage.md.
 */
import type { Generated } from 'kysely';

export interface ClientsTable {
  id: string;
  name: string;
  environment: 'sandbox' | 'production';
  /** Space-separated OAuth scopes the client may be granted. */
  scopes: string;
  /** SHA-256 (hex) of the client secret; the secret itself is shown once and never stored. */
  secret_hash: string;
  /**
   * Standard Webhooks signing secret (`whsec_…`), sealed with the operator key ring (src/crypto/secret-box.ts):
   * kept because we must sign with it, opened only in memory to sign.
   */
  webhook_secret: string;
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  /** During a webhook secret rotation: the old secret (sealed), which signs beside the new one until it expires. */
  previous_webhook_secret: string | null;
  previous_webhook_secret_expires_at: string | null;
  /** Position of the client's latest event in its feed (0: none yet); bumped by each status change's transaction. */
  event_position: Generated<number>;
  /** Raised by every revocation of the client's tokens (disable, secret rotation); token caches compare it. */
  revocation_version: Generated<number>;
}

export interface AccessTokensTable {
  /** SHA-256 (hex) of the bearer token; the token itself is only ever held by the client. */
  token_hash: string;
  client_id: string;
  scopes: string;
  created_at: string;
  expires_at: string;
}

export interface PaymentsTable {
  id: string;
  client_id: string;
  environment: 'sandbox' | 'production';
  end_to_end_id: string;
  /** `custom` when the client chose the bank, `hosted` when the payer picks it on our page. */
  mode: 'custom' | 'hosted';
  provider_id: string | null;
  provider_preferences: string | null;
  payment_scheme: 'SEPA' | 'DOMESTIC';
  scheme_mode: 'INSTANT' | 'STANDARD' | null;
  fee_paid_by: string | null;
  amount: string;
  currency: string;
  /** JSON of the sender without credentials (credentials are never stored). */
  sender: string | null;
  recipient: string;
  remittance: string;
  redirect_uri: string;
  webhook_url: string | null;
  psu_ip_address: string;
  psu_user_agent: string;
  locale: string | null;
  /**
   * SHA-256 (hex) of the unguessable secret in the payer's `redirectUrl` (256 random bits): the payer's pages
   * find the payment by it, as access tokens are found; unique.
   */
  flow_token_hash: string;
  /**
   * The flow token sealed with the operator key ring for this payment, because the payment resource returns
   * `redirectUrl` again (docs/adr/0005-secrets-at-rest.md). Plain only between migration 0004 and the start-up
   * step that seals it.
   */
  flow_token_sealed: string;
  provider_payment_id: string | null;
  detailed_status: string;
  failure_reasons: string | null;
  /** Optimistic concurrency: bumped by every status change. */
  version: number;
  created_at: string;
  updated_at: string;
  /** When the payer's flow expires if it has not reached the bank's execution by then. */
  flow_expires_at: string;
  /** The flow engine's JSON state between steps (bank references, offered SCA methods, accounts); no secrets. */
  flow_state: string | null;
}

export interface PaymentStatusHistoryTable {
  id: string;
  /** The payment's client: it leads the table's keys (docs/scaling.md). */
  client_id: string;
  payment_id: string;
  /** 1, 2, 3 … per payment: the order of the history, independent of clock resolution. */
  sequence: number;
  detailed_status: string;
  failure_reasons: string | null;
  created_at: string;
}

export type WebhookEventState = 'pending' | 'delivered' | 'gone' | 'failed' | 'refused';

export interface WebhookEventsTable {
  /** The event id: sent as `webhook-id`, stable across retries. */
  id: string;
  payment_id: string;
  client_id: string;
  status_record_id: string;
  /** The status record's sequence: deliveries of one payment go out in this order. */
  sequence: number;
  url: string;
  /** The exact bytes signed and sent on every attempt. */
  body: string;
  state: WebhookEventState;
  attempts: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

/** The event feed: every event of every payment, whether or not it is delivered as a webhook. */
export interface EventsTable {
  /** The event id: a webhook delivery of this event carries it as `webhook-id`. */
  id: string;
  client_id: string;
  /** 1, 2, 3 … per client, in commit order: the feed's cursor counts these. */
  position: number;
  type: string;
  payment_id: string;
  /** The exact JSON a webhook of this event delivers. */
  body: string;
  created_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  event_id: string;
  attempt: number;
  attempted_at: string;
  outcome: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface JobsTable {
  id: string;
  kind: string;
  /** The payment's client: it leads the table's keys (docs/scaling.md). */
  client_id: string;
  payment_id: string;
  run_at: string;
  attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  clients: ClientsTable;
  access_tokens: AccessTokensTable;
  payments: PaymentsTable;
  payment_status_history: PaymentStatusHistoryTable;
  events: EventsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  jobs: JobsTable;
}
