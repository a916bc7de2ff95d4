/**
 * Table types for Kysely. Both databases store the same shapes:
 * - times are UTC ISO 8601 strings with milliseconds (`2026-11-21T10:00:00.000Z`), so they sort as text;
 * - money is an exact decimal string (`"10.50"`), never a float;
 * - structured values are JSON text, parsed at the repository boundary.
 * See docs/adr/0002-storage.md.
 */
import type { ColumnType, Generated } from 'kysely';

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
  /** Branding (src/branding/): the name payers see; null: the client's name. */
  display_name: string | null;
  /** `#rrggbb`: the primary buttons of the client's payer pages. */
  brand_colour: string | null;
  /** A link payers may follow for help (https). */
  support_url: string | null;
  /** SHA-256 (hex) of `logo_png`: the logo's URL carries it, so the URL changes with the logo. */
  logo_sha256: string | null;
  /** The logo as we re-encoded it (PNG, base64), never the operator's upload itself. */
  logo_png: string | null;
  logo_width: number | null;
  logo_height: number | null;
  /** Raised by every revocation of the client's tokens (disable, secret rotation); token caches compare it. */
  revocation_version: Generated<number>;
}

/**
 * Each client's event-feed counter: the position of its latest event (no row: none yet). Its own table, not a column
 * of `clients`, because every insert that names a client locks the client's row for its foreign-key check, and a
 * row both locked that way and rewritten at every commit piles up lock groups and dead versions in PostgreSQL
 * (migration 0014).
 */
export interface ClientEventCountersTable {
  client_id: string;
  last_position: number;
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
  /** The failed payment this one retries with another bank (migration 0015); unique, so a payment has one retry. */
  retry_of: string | null;
  /** 1 when the payer's outcome page may offer to pay with another bank after a failure the bank caused, else 0. */
  retry_allowed: number;
  /** The completed payment this one refunds (migration 0021); null on every payment that is not a refund. */
  refund_of: string | null;
  /**
   * JSON of the payer's account and name once the bank told them (migration 0019; `PayerDetails`), else null. Written
   * once, by the flow engine, with the commit of the bank's answer that first told it.
   */
  payer: string | null;
  /** The payment link a payer started this payment from (migration 0020), else null. */
  payment_link_id: string | null;
  /**
   * A refund approved in a bulk (migration 0022): the refund whose flow carries the bulk at the bank, the leader's own
   * id on the leader; null outside a bulk.
   */
  bulk_leader_id: string | null;
}

/** Payment links (migration 0020, src/domain/payment-link.ts). */
export interface PaymentLinksTable {
  id: string;
  client_id: string;
  environment: 'sandbox' | 'production';
  /** The public, unguessable part of the link's URL (128 random bits, base64url); unique. */
  slug: string;
  /** The client's reference; unique per client. */
  reference: string;
  /** 1: every payer may pay; 0: one completed payment closes the link. */
  reusable: number;
  status: string;
  amount: string;
  currency: string;
  payment_scheme: 'SEPA' | 'DOMESTIC';
  scheme_mode: 'INSTANT' | 'STANDARD' | null;
  fee_paid_by: string | null;
  /** JSON of the recipient. */
  recipient: string;
  /** JSON of the remittance. */
  remittance: string;
  redirect_uri: string;
  webhook_url: string | null;
  provider_id: string | null;
  provider_preferences: string | null;
  /** A single-use link's payment in progress (compare-and-set when a payer continues). */
  open_payment_id: string | null;
  /** How many payments the link started (numbers their end-to-end ids). */
  payment_count: number;
  paid_by_payment_id: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
  /** Bumped by every status change: the sequence of the link's events. */
  version: number;
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
  /** What the event is about (src/domain/lifecycle.ts): deliveries of one subject go out in `sequence` order. */
  subject_type: string;
  subject_id: string;
  client_id: string;
  /** The status record the event reports (unique: one delivery per record). */
  status_record_id: string;
  /** The status record's sequence: deliveries of one subject go out in this order. */
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

/** The event feed: every event of every subject, whether or not it is delivered as a webhook. */
export interface EventsTable {
  /** The event id: a webhook delivery of this event carries it as `webhook-id`. */
  id: string;
  client_id: string;
  /**
   * 1, 2, 3 … per client, in commit order: the feed's cursor counts these. On PostgreSQL written as null and
   * numbered inside the commit (migration 0012), so a committed event always has one.
   */
  position: ColumnType<number, number | null, number>;
  type: string;
  /** What the event is about (src/domain/lifecycle.ts). */
  subject_type: string;
  subject_id: string;
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
  /** The subject's client: it leads the table's keys (docs/scaling.md). */
  client_id: string;
  /** What the job works on (the type follows from the kind: src/jobs/job-kinds.ts). */
  subject_type: string;
  subject_id: string;
  run_at: string;
  attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Columns of `payments` that only the lists read (migration 0008), apart from `PaymentsTable` so that the flow's
 * row type stays the payment itself. `amount_scaled`: the amount in ten-thousandths of the currency unit
 * (src/domain/money.ts); PostgreSQL answers a bigint as a string.
 */
export interface PaymentListColumns {
  amount_scaled: ColumnType<number | string | null, number | null | undefined, number | null>;
}

export type ConsoleRole = 'operator' | 'member';

export interface ConsoleUsersTable {
  id: string;
  /** Lower-case; the sign-in name. */
  email: string;
  name: string;
  role: ConsoleRole;
  /** The one client a member belongs to; null for operators (every client). */
  client_id: string | null;
  /** argon2id (PHC string); the password itself is never stored. */
  password_hash: string;
  /** An operator's TOTP secret, sealed with the operator key ring (we must read it to check codes). */
  totp_secret_sealed: string | null;
  /** When the operator proved the authenticator works; until then the secret is only offered. */
  totp_confirmed_at: string | null;
  /** The TOTP time step last accepted: a code is good once. */
  totp_last_step: number | null;
  failed_attempts: number;
  locked_until: string | null;
  disabled_at: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export type ConsoleSessionStage = 'second-factor' | 'enrol-second-factor' | 'signed-in';

export interface ConsoleSessionsTable {
  /** SHA-256 (hex) of the cookie's value: the value itself is only in the browser. */
  id_hash: string;
  user_id: string;
  /** How far the sign-in got: an operator's password opens only the second-factor step. */
  stage: ConsoleSessionStage;
  created_at: string;
  last_seen_at: string;
  /** The absolute end, whatever the activity. */
  expires_at: string;
  ip: string;
  user_agent: string;
}

export interface AuditLogTable {
  id: string;
  at: string;
  /** The console user, or null for the command line. */
  actor_id: string | null;
  /** The actor as people read it (an email, or `cli:<os user>`), kept even if the user is later renamed. */
  actor: string;
  actor_role: string;
  /** The client the action concerned (members see only their client's entries). */
  client_id: string | null;
  action: string;
  target: string | null;
  /** JSON; never a secret or a password. */
  details: string | null;
  ip: string | null;
  user_agent: string | null;
}

/**
 * How a bank call ended: answered (`ok`), refused by the bank (a definite no, e.g. wrong credentials or no funds),
 * no usable answer (`unavailable`: timeout, connection, 5xx, 408, 429), an answer against the standard
 * (`protocol`), or an error of ours (`error`). Only `unavailable`, `protocol` and `error` count against a bank's health.
 */
export const BANK_CALL_OUTCOMES = ['ok', 'refused', 'unavailable', 'protocol', 'error'] as const;
export type BankCallOutcome = (typeof BANK_CALL_OUTCOMES)[number];

/** A payer's flow handed from a desktop to a phone (src/flow/handovers.ts): one row per payment. */
export interface PaymentHandoversTable {
  payment_id: string;
  /** SHA-256 (base64url) of the single-use link's secret. */
  token_hash: string;
  /** When the link was made, and when it stops working (UTC ISO 8601). */
  issued_at: string;
  expires_at: string;
  /** When a phone used the link; null while unused. */
  taken_at: string | null;
  /** SHA-256 (base64url) of the cookie marking the browser that took the flow over. */
  device_hash: string | null;
}

/** One call to a bank (migration 0010). Never a credential, token, body or URL. */
export interface BankCallsTable {
  id: string;
  /** When the call started (UTC ISO 8601). */
  at: string;
  /** The catalogue's bank id. */
  bank_id: string;
  /** The client and payment the call was made for; null where a call serves no payment. */
  client_id: string | null;
  payment_id: string | null;
  /** The connector operation, e.g. `initiatePayment`. */
  operation: string;
  outcome: BankCallOutcome;
  /** The bank's HTTP status where a failure carries it; null on success (the connector does not hand it on). */
  http_status: number | null;
  latency_ms: number;
}

/** Lifecycle of a bank (docs/adr/0011-banks-in-the-database.md). */
export type BankStatus = 'active' | 'deprecated' | 'disabled';

export interface BanksTable {
  /** The top-level entry's provider id (lower-case UUID). */
  id: string;
  /** The catalogue entry as JSON, validated before it is written. */
  entry: string;
  status: BankStatus;
  /** Set when `deprecated`: the bank that replaces it. */
  replaced_by: string | null;
  /** JSON of the bank's secrets (client id, client secret, registration token), sealed with the operator key ring. */
  secrets_sealed: string | null;
  source: 'import' | 'operator';
  /** SHA-256 (base64url) of the entry as last imported; null for an operator's own bank. */
  imported_hash: string | null;
  /** The catalogue revision of the last change of this row. */
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface BankCatalogueRevisionTable {
  id: number;
  /** Raised by every change of `banks`; a process whose copy has an older revision reloads. */
  revision: number;
}

export interface Database {
  banks: BanksTable;
  bank_catalogue_revision: BankCatalogueRevisionTable;
  clients: ClientsTable;
  client_event_counters: ClientEventCountersTable;
  access_tokens: AccessTokensTable;
  payments: PaymentsTable & PaymentListColumns;
  payment_status_history: PaymentStatusHistoryTable;
  payment_links: PaymentLinksTable;
  events: EventsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  jobs: JobsTable;
  console_users: ConsoleUsersTable;
  console_sessions: ConsoleSessionsTable;
  audit_log: AuditLogTable;
  bank_calls: BankCallsTable;
  payment_handovers: PaymentHandoversTable;
}
