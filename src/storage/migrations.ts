/**
 * Schema migrations, written once with Kysely's schema builder so that SQLite and PostgreSQL get the same
 * tables. Applied automatically at start (`openpis migrate` applies them explicitly). Append new migrations;
 * never edit one that has shipped.
 */
import { createHash } from 'node:crypto';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_clients_tokens_payments': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('environment', 'text', (col) => col.notNull())
        .addColumn('scopes', 'text', (col) => col.notNull())
        .addColumn('secret_hash', 'text', (col) => col.notNull())
        .addColumn('webhook_secret', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('disabled_at', 'text')
        .execute();

      await db.schema
        .createTable('access_tokens')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('scopes', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('access_tokens_client').on('access_tokens').column('client_id').execute();
      await db.schema.createIndex('access_tokens_expiry').on('access_tokens').column('expires_at').execute();

      await db.schema
        .createTable('payments')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('environment', 'text', (col) => col.notNull())
        .addColumn('end_to_end_id', 'text', (col) => col.notNull())
        .addColumn('mode', 'text', (col) => col.notNull())
        .addColumn('provider_id', 'text')
        .addColumn('provider_preferences', 'text')
        .addColumn('payment_scheme', 'text', (col) => col.notNull())
        .addColumn('scheme_mode', 'text')
        .addColumn('fee_paid_by', 'text')
        .addColumn('amount', 'text', (col) => col.notNull())
        .addColumn('currency', 'text', (col) => col.notNull())
        .addColumn('sender', 'text')
        .addColumn('recipient', 'text', (col) => col.notNull())
        .addColumn('remittance', 'text', (col) => col.notNull())
        .addColumn('redirect_uri', 'text', (col) => col.notNull())
        .addColumn('webhook_url', 'text')
        .addColumn('psu_ip_address', 'text', (col) => col.notNull())
        .addColumn('psu_user_agent', 'text', (col) => col.notNull())
        .addColumn('locale', 'text')
        .addColumn('flow_token', 'text', (col) => col.notNull().unique())
        .addColumn('provider_payment_id', 'text')
        .addColumn('detailed_status', 'text', (col) => col.notNull())
        .addColumn('failure_reasons', 'text')
        .addColumn('version', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('flow_expires_at', 'text', (col) => col.notNull())
        // endToEndId is unique per client (decisions §1); the index also makes the 409 race-free.
        .addUniqueConstraint('payments_client_end_to_end_id', ['client_id', 'end_to_end_id'])
        .execute();

      await db.schema
        .createTable('payment_status_history')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
        .addColumn('sequence', 'integer', (col) => col.notNull())
        .addColumn('detailed_status', 'text', (col) => col.notNull())
        .addColumn('failure_reasons', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('payment_status_history_order', ['payment_id', 'sequence'])
        .execute();
    },
  },
  '0002_flow_state_webhook_events_jobs': {
    async up(db: Kysely<unknown>) {
      // What the flow engine keeps between the payer's steps: bank references, the SCA methods offered, the
      // account list. JSON; never credentials.
      await db.schema.alterTable('payments').addColumn('flow_state', 'text').execute();
      await db.schema.alterTable('clients').addColumn('previous_webhook_secret', 'text').execute();
      await db.schema.alterTable('clients').addColumn('previous_webhook_secret_expires_at', 'text').execute();

      // The outbox: one event per status record of a payment with a webhookUrl, written in the same
      // transaction as the record, then delivered (and retried) by the webhook worker.
      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('status_record_id', 'text', (col) => col.notNull().unique())
        .addColumn('sequence', 'integer', (col) => col.notNull())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('body', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('next_attempt_at', 'text', (col) => col.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('delivered_at', 'text')
        .execute();
      await db.schema.createIndex('webhook_events_due').on('webhook_events').columns(['state', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_events_payment').on('webhook_events').columns(['payment_id', 'sequence']).execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('event_id', 'text', (col) => col.notNull().references('webhook_events.id'))
        .addColumn('attempt', 'integer', (col) => col.notNull())
        .addColumn('attempted_at', 'text', (col) => col.notNull())
        .addColumn('outcome', 'text', (col) => col.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('latency_ms', 'integer', (col) => col.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('webhook_attempts_event').on('webhook_attempts').column('event_id').execute();

      // Background work claimed from the database: at most one job of a kind per payment.
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
        .addColumn('run_at', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('jobs_kind_payment', ['kind', 'payment_id'])
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').column('run_at').execute();
    },
  },
  '0003_payments_status_index': {
    async up(db: Kysely<unknown>) {
      // Open payments by status, for the payments-pending-at-the-bank gauge read on every scrape: final payments,
      // the bulk of the table, are never read by it (src/flow/bank-pending.ts).
      await db.schema.createIndex('payments_status_created').on('payments').columns(['detailed_status', 'created_at']).execute();
    },
  },
  '0004_secrets_at_rest': {
    async up(db: Kysely<unknown>) {
      // The flow token is looked up by its SHA-256 only (as access tokens are): the column keeps its unique index
      // under a new name, and its values become hashes. The token itself moves to flow_token_sealed; the migration
      // has no key, so it copies it there as it is, and the start-up step that follows every migration seals it
      // (and every plain webhook secret) before the service serves anything (src/storage/reseal-secrets.ts).
      await db.schema.alterTable('payments').renameColumn('flow_token', 'flow_token_hash').execute();
      await db.schema.alterTable('payments').addColumn('flow_token_sealed', 'text').execute();
      const payments = db as unknown as Kysely<{ payments: { id: string; flow_token_hash: string; flow_token_sealed: string | null } }>;
      const rows = await payments.selectFrom('payments').select(['id', 'flow_token_hash']).execute();
      for (const row of rows) {
        await payments
          .updateTable('payments')
          .set({ flow_token_hash: createHash('sha256').update(row.flow_token_hash, 'utf8').digest('hex'), flow_token_sealed: row.flow_token_hash })
          .where('id', '=', row.id)
          .execute();
      }
    },
  },
  '0005_client_branding': {
    async up(db: Kysely<unknown>) {
      // How a client's payers see it on the hosted pages (src/branding/): all optional, set by the operator.
      // The logo is the PNG we re-encoded (never the upload), as base64 text so both databases store it alike,
      // found by its SHA-256, which names it in its URL.
      await db.schema.alterTable('clients').addColumn('display_name', 'text').execute();
      await db.schema.alterTable('clients').addColumn('brand_colour', 'text').execute();
      await db.schema.alterTable('clients').addColumn('support_url', 'text').execute();
      await db.schema.alterTable('clients').addColumn('logo_sha256', 'text').execute();
      await db.schema.alterTable('clients').addColumn('logo_png', 'text').execute();
      await db.schema.alterTable('clients').addColumn('logo_width', 'integer').execute();
      await db.schema.alterTable('clients').addColumn('logo_height', 'integer').execute();
      await db.schema.createIndex('clients_logo_sha256').on('clients').column('logo_sha256').execute();
    },
  },
  '0006_payment_list_indexes': {
    async up(db: Kysely<unknown>) {
      // GET /api/v1/ob/payments: one client's payments, newest first (created_at desc, id desc), optionally by
      // status. The client leads every key, so a page reads only the caller's rows, in order, from the index.
      await db.schema.createIndex('payments_client_created').on('payments').columns(['client_id', 'created_at', 'id']).execute();
      await db.schema
        .createIndex('payments_client_status_created')
        .on('payments')
        .columns(['client_id', 'detailed_status', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('payments_client_provider_created')
        .on('payments')
        .columns(['client_id', 'provider_id', 'created_at', 'id'])
        .execute();
    },
  },
  '0007_event_feed': {
    async up(db: Kysely<unknown>) {
      // The event feed (GET /api/v1/events): one event per status record of every payment, webhook URL or not,
      // written in the status change's transaction. `position` counts each client's events 1, 2, 3 … in commit
      // order: it is taken from the client's counter row, whose lock the writing transaction holds until it
      // commits, so a reader that has seen position n has seen every position below it (docs/api-decisions.md).
      // Webhook deliveries (webhook_events) keep their rows; a delivery's id is its event's id.
      await db.schema.alterTable('clients').addColumn('event_position', 'integer', (col) => col.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('position', 'integer', (col) => col.notNull())
        .addColumn('type', 'text', (col) => col.notNull())
        .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
        .addColumn('body', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('events_client_position', ['client_id', 'position'])
        .execute();
      await db.schema.createIndex('events_payment').on('events').column('payment_id').execute();
      // Events written before this migration exist only as webhook deliveries (payments that had a webhook URL):
      // they enter the feed with their ids and bodies, in the order they were written.
      await sql`
        INSERT INTO events (id, client_id, position, type, payment_id, body, created_at)
        SELECT id, client_id,
               ROW_NUMBER() OVER (PARTITION BY client_id ORDER BY created_at, payment_id, sequence),
               'payment.status.updated', payment_id, body, created_at
        FROM webhook_events`.execute(db);
      await sql`
        UPDATE clients SET event_position = (SELECT COUNT(*) FROM events WHERE events.client_id = clients.id)`.execute(db);
    },
  },
  '0008_console_users_audit': {
    async up(db: Kysely<unknown>) {
      // The console's people (docs/console.md): operators (every client) and members (one client). Passwords are
      // argon2id hashes; an operator's TOTP secret is sealed with the operator key ring (we must read it back).
      await db.schema
        .createTable('console_users')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('client_id', 'text', (col) => col.references('clients.id'))
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('totp_secret_sealed', 'text')
        .addColumn('totp_confirmed_at', 'text')
        .addColumn('totp_last_step', 'integer')
        .addColumn('failed_attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('locked_until', 'text')
        .addColumn('disabled_at', 'text')
        .addColumn('last_sign_in_at', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      // Sessions are found by the SHA-256 of the cookie's value; the value itself is only in the browser.
      await db.schema
        .createTable('console_sessions')
        .addColumn('id_hash', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('console_users.id'))
        .addColumn('stage', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('last_seen_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('ip', 'text', (col) => col.notNull())
        .addColumn('user_agent', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();
      // The audit log: appended to, never changed (no code updates or deletes it; PostgreSQL refuses it too).
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor', 'text', (col) => col.notNull())
        .addColumn('actor_role', 'text', (col) => col.notNull())
        .addColumn('client_id', 'text')
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('target', 'text')
        .addColumn('details', 'text')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
      await db.schema.createIndex('audit_log_client_at').on('audit_log').columns(['client_id', 'at', 'id']).execute();
      if (await isPostgres(db)) {
        await sql`
          CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`.execute(db);
        await sql`
          CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
          FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
      } else {
        await sql`
          CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
          BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
        await sql`
          CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
          BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
      }

      // The console's payment list: the amount as a whole number of ten-thousandths of the currency unit, so an
      // amount range is an indexable integer comparison (amounts are decimal strings; ISO 4217 currencies have at
      // most 4 minor digits, so the value is exact). Filled here for existing payments, then at creation.
      await db.schema.alterTable('payments').addColumn('amount_scaled', 'bigint').execute();
      await fillScaledAmounts(db);
      // Operators list every client's payments newest first; members and the API one client's (0006).
      await db.schema.createIndex('payments_created').on('payments').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('payments_client_amount').on('payments').columns(['client_id', 'amount_scaled']).execute();
      await db.schema.createIndex('payments_amount').on('payments').column('amount_scaled').execute();
      await db.schema.createIndex('payments_end_to_end_id').on('payments').column('end_to_end_id').execute();
      // Support finds a payment by the bank's id for it too.
      await db.schema.createIndex('payments_provider_payment_id').on('payments').column('provider_payment_id').execute();
    },
  },
  '0010_bank_calls': {
    async up(db: Kysely<unknown>) {
      // One row per call to a bank (docs/console.md, "Bank calls"): who it was for, which operation, how it ended
      // and how long it took. Never a credential, token, body or URL. Written in batches by the metered connector
      // (src/observability/bank-call-records.ts); kept for BANK_CALL_RETENTION_DAYS, then pruned. The health of a
      // bank (Banks page) reads by bank and time, a member's by client, bank and time; a payment's page by payment.
      await db.schema
        .createTable('bank_calls')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('bank_id', 'text', (col) => col.notNull())
        .addColumn('client_id', 'text')
        .addColumn('payment_id', 'text')
        .addColumn('operation', 'text', (col) => col.notNull())
        .addColumn('outcome', 'text', (col) => col.notNull())
        .addColumn('http_status', 'integer')
        .addColumn('latency_ms', 'integer', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('bank_calls_bank_at').on('bank_calls').columns(['bank_id', 'at']).execute();
      await db.schema.createIndex('bank_calls_client_bank_at').on('bank_calls').columns(['client_id', 'bank_id', 'at']).execute();
      await db.schema.createIndex('bank_calls_payment').on('bank_calls').columns(['payment_id', 'at']).execute();
      // Pruning deletes by age.
      await db.schema.createIndex('bank_calls_at').on('bank_calls').column('at').execute();
    },
  },
  '0011_client_leading_keys': {
    async up(db: Kysely<unknown>) {
      // Every hot table carries the client and every hot key starts with it, so distributing the tables by client
      // (Citus: `create_distributed_table(..., 'client_id')`) is a migration, not a rewrite (docs/scaling.md).
      // Status records and jobs learn their payment's client; existing rows take it from their payment.
      await db.schema.alterTable('payment_status_history').addColumn('client_id', 'text', (col) => col.notNull().defaultTo('')).execute();
      await sql`UPDATE payment_status_history SET client_id = (SELECT client_id FROM payments WHERE payments.id = payment_status_history.payment_id)`.execute(db);
      await db.schema.alterTable('jobs').addColumn('client_id', 'text', (col) => col.notNull().defaultTo('')).execute();
      await sql`UPDATE jobs SET client_id = (SELECT client_id FROM payments WHERE payments.id = jobs.payment_id)`.execute(db);
      await db.schema.createIndex('payments_client_id').on('payments').columns(['client_id', 'id']).unique().execute();
      await db.schema
        .createIndex('payment_status_history_client_order')
        .on('payment_status_history')
        .columns(['client_id', 'payment_id', 'sequence'])
        .unique()
        .execute();
      await db.schema.createIndex('jobs_client_kind_payment').on('jobs').columns(['client_id', 'kind', 'payment_id']).unique().execute();
      await db.schema.createIndex('webhook_events_client_payment').on('webhook_events').columns(['client_id', 'payment_id', 'sequence']).execute();
      await db.schema.createIndex('events_client_payment').on('events').columns(['client_id', 'payment_id']).execute();
      // A client's tokens stop at once in every process when this moves (disable, secret rotation): processes that
      // cache verified tokens compare it (src/auth/token-cache.ts).
      await db.schema.alterTable('clients').addColumn('revocation_version', 'integer', (col) => col.notNull().defaultTo(0)).execute();
    },
  },
  '0012_feed_numbered_at_commit': {
    async up(db: Kysely<unknown>) {
      // PostgreSQL numbers a client's feed events at commit time. The events are written without a position, and a
      // deferred trigger, which runs inside COMMIT, takes each one's position from the client's counter. The
      // counter row is then locked only from there until the commit ends, with no round trip to the application in
      // between. Before this, it stayed locked from the statement that took the position until the application
      // sent COMMIT, and a busy worker process made one client's status changes wait on each other
      // (docs/scaling.md). The feed's order is still commit order: the next transaction of the client takes the
      // counter only once this one has committed. SQLite has one writer at a time and keeps numbering in the
      // status writer (src/flow/status-writer.ts).
      if (!(await isPostgres(db))) return;
      await sql`ALTER TABLE events ALTER COLUMN position DROP NOT NULL`.execute(db);
      await sql`
        CREATE FUNCTION events_take_position() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE taken integer;
        BEGIN
          UPDATE clients SET event_position = event_position + 1 WHERE id = NEW.client_id RETURNING event_position INTO taken;
          IF taken IS NULL THEN RAISE EXCEPTION 'event % names no client', NEW.id; END IF;
          UPDATE events SET position = taken WHERE id = NEW.id;
          RETURN NULL;
        END $$`.execute(db);
      // Row triggers fire in the order the rows were inserted, so a transaction's events keep their order and
      // take consecutive positions. Only events written without a position are numbered.
      await sql`
        CREATE CONSTRAINT TRIGGER events_take_position AFTER INSERT ON events
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW.position IS NULL) EXECUTE FUNCTION events_take_position()`.execute(db);
    },
  },
  '0013_jobs_client_payment_key': {
    async up(db: Kysely<unknown>) {
      // A payment's jobs are found by client and payment (cancelled when it ends or moves on; at most one per kind).
      // 0011 keyed them (client_id, kind, payment_id): a lookup without the kind could use only the client part of
      // that key, so ending one payment of a client with 100,000 waiting jobs read every one of them
      // (docs/scaling.md). The payment before the kind serves both lookups, with the same uniqueness.
      await db.schema.createIndex('jobs_client_payment_kind').on('jobs').columns(['client_id', 'payment_id', 'kind']).unique().execute();
      await db.schema.dropIndex('jobs_client_kind_payment').execute();
    },
  },
  '0014_client_event_counters': {
    async up(db: Kysely<unknown>) {
      // Each client's feed counter moves out of `clients` into a table of its own. Every insert naming a client
      // (payments, status records, events, jobs) locks the client's row FOR KEY SHARE for its foreign-key check,
      // and the counter rewrote that same row at every commit. In PostgreSQL a row that concurrent transactions
      // both lock that way and update gets a new lock group (MultiXact) and a new version at every commit, and
      // the versions outlive pruning while the lockers run: one client's creations slowed from 687 to 254 per
      // second over five 10-second runs on an empty database (docs/performance.md, change 14). Nothing references
      // the counter's row, so its updates take only its own lock: the order of the feed is kept exactly as before.
      await db.schema
        .createTable('client_event_counters')
        .addColumn('client_id', 'text', (col) => col.primaryKey().references('clients.id'))
        .addColumn('last_position', 'integer', (col) => col.notNull())
        .execute();
      await sql`INSERT INTO client_event_counters (client_id, last_position) SELECT id, event_position FROM clients WHERE event_position > 0`.execute(db);
      if (await isPostgres(db)) {
        // The counter row of a client with no event yet is made by its first event; ON CONFLICT makes the second
        // of two such first events wait for the first to commit, then count on from it.
        await sql`
          CREATE OR REPLACE FUNCTION events_take_position() RETURNS trigger LANGUAGE plpgsql AS $$
          DECLARE taken integer;
          BEGIN
            UPDATE client_event_counters SET last_position = last_position + 1 WHERE client_id = NEW.client_id RETURNING last_position INTO taken;
            IF taken IS NULL THEN
              INSERT INTO client_event_counters (client_id, last_position) VALUES (NEW.client_id, 1)
                ON CONFLICT (client_id) DO UPDATE SET last_position = client_event_counters.last_position + 1
                RETURNING last_position INTO taken;
            END IF;
            UPDATE events SET position = taken WHERE id = NEW.id;
            RETURN NULL;
          END $$`.execute(db);
      }
      await db.schema.alterTable('clients').dropColumn('event_position').execute();
    },
  },
};

async function isPostgres(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ version: string }>`SELECT version() AS version`.execute(db).catch(() => ({ rows: [] as { version: string }[] }));
  return rows[0]?.version.startsWith('PostgreSQL') === true;
}

/**
 * Sets `amount_scaled` of every payment from its decimal `amount` in one statement. Exact on both databases:
 * PostgreSQL's NUMERIC is decimal; SQLite reads the text as a double, and every amount we accept (at most
 * 999999999.99, at most 4 decimals, so at most 13 significant digits once scaled) is a double whose product
 * with 10000 rounds to the exact integer.
 */
async function fillScaledAmounts(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE payments SET amount_scaled = CAST(ROUND(CAST(amount AS NUMERIC) * 10000) AS BIGINT)`.execute(db);
}

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Applies every pending migration; throws with the failing migration's name on error. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const name = failed?.migrationName ?? 'unknown';
    throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * Applies pending migrations, like migrateToLatest, but cheaply when there are none (every start and every CLI
 * command asks): one read of the applied names. Kysely's Migrator (its tables' checks, its lock, on PostgreSQL a
 * transaction and an advisory lock) runs only when this build knows a migration the database lacks, or the
 * database has no migration table yet.
 */
export async function migrateIfPending(db: Kysely<unknown>): Promise<string[]> {
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
    applied = new Set(rows.map((row) => row.name));
  } catch {
    // No migration table yet (a new database): the Migrator creates it.
    return migrateToLatest(db);
  }
  return Object.keys(migrations).every((name) => applied.has(name)) ? [] : migrateToLatest(db);
}

/** Applies the migrations up to and including `name` only: tests use it to build a database as an older version left it. */
export async function migrateTo(db: Kysely<unknown>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: new InCodeMigrationProvider() }).migrateTo(name);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Kysely types the failure `unknown`: whatever was thrown, said as String says it
  if (error !== undefined) throw new Error(`Migration to ${name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** True when every migration known to this build has been applied (used by readiness checks). */
export async function hasPendingMigrations(db: Kysely<unknown>): Promise<boolean> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const all = await migrator.getMigrations();
  return all.some((migration) => migration.executedAt === undefined);
}
