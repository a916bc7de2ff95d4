/**
 * The baseline of the benchmark: a bare Fastify server doing the same database work as our payment creation
 * (in one transaction: the payment, its first status record, the flow-expiry job, the feed event and its number from
 * the client's event counter) and latest-status read (one indexed select), with no authentication, validation or
 * serialisation schemas, and one transaction a request (ours groups concurrent creations on SQLite). Run as a
 * child process by run.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { newRecordId } from '../src/domain/ids.js';
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import { parseDatabaseUrl } from '../src/config/config.js';
import { openDatabase } from '../src/storage/database.js';
import { takeEventPositions } from '../src/storage/event-counters.js';
import { migrateToLatest } from '../src/storage/migrator.js';

// An orderly exit on SIGTERM, so a profile taken with --cpu-prof is written out.
process.once('SIGTERM', () => process.exit(0));

// The machine's ceiling: "hello world" and nothing else (no database opened).
if (process.env.HELLO_ONLY === 'true') {
  const hello = Fastify({ logger: false });
  hello.get('/hello', async () => 'hello world');
  await hello.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.stdout.write('ready\n');
} else {
  await serveBare();
}

async function serveBare(): Promise<void> {
  const database = openDatabase(parseDatabaseUrl(process.env.DATABASE_URL, []));
  await migrateToLatest(database.db as unknown as Kysely<unknown>);
  const db = database.db;
  const clientId = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto('clients')
    .values({
      id: clientId,
      name: 'bare',
      environment: 'sandbox',
      scopes: '',
      secret_hash: '',
      webhook_secret: '',
      created_at: at,
      updated_at: at,
      disabled_at: null,
    })
    .execute();

  const app = Fastify({ logger: false });
  app.post('/payments', async (request, reply) => {
    const body = request.body as {
      amount: number;
      currency: string;
      metadata: { endToEndId: string; redirectUri: string; psuIpAddress: string; psuUserAgent: string };
      recipient: unknown;
      remittanceInformation: unknown;
    };
    const id = newRecordId();
    const now = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('payments')
        .values({
          id,
          client_id: clientId,
          environment: 'sandbox',
          end_to_end_id: body.metadata.endToEndId,
          mode: 'hosted',
          provider_id: null,
          provider_preferences: null,
          payment_scheme: 'SEPA',
          scheme_mode: null,
          fee_paid_by: null,
          amount: String(body.amount),
          currency: body.currency,
          sender: null,
          recipient: JSON.stringify(body.recipient),
          remittance: JSON.stringify(body.remittanceInformation),
          redirect_uri: body.metadata.redirectUri,
          webhook_url: null,
          psu_ip_address: body.metadata.psuIpAddress,
          psu_user_agent: body.metadata.psuUserAgent,
          locale: null,
          flow_token_hash: randomBytes(32).toString('hex'),
          flow_token_sealed: randomBytes(32).toString('base64url'),
          provider_payment_id: null,
          detailed_status: 'PROVIDER_SELECTION_REDIRECT_PENDING',
          failure_reasons: null,
          version: 1,
          created_at: now,
          updated_at: now,
          flow_expires_at: now,
          retry_of: null,
          retry_allowed: 0,
        })
        .execute();
      await trx
        .insertInto('payment_status_history')
        .values({
          id: newRecordId(),
          client_id: clientId,
          payment_id: id,
          sequence: 1,
          detailed_status: 'PROVIDER_SELECTION_REDIRECT_PENDING',
          failure_reasons: null,
          created_at: now,
        })
        .execute();
      await trx
        .insertInto('jobs')
        .values({
          id: newRecordId(),
          kind: 'flow-expiry',
          client_id: clientId,
          subject_type: 'payment',
          subject_id: id,
          run_at: now,
          attempts: 0,
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      // The feed event last, numbered as ours numbers it: inside the commit on PostgreSQL (the trigger of
      // migrations 0012 and 0014), from the client's counter on SQLite.
      const event = {
        id: newRecordId(),
        client_id: clientId,
        type: 'payment.status.updated',
        subject_type: 'payment',
        subject_id: id,
        body: JSON.stringify({ paymentId: id, detailedStatus: 'PROVIDER_SELECTION_REDIRECT_PENDING', createdAt: now }),
        created_at: now,
      };
      if (database.kind === 'postgres') {
        await trx
          .insertInto('events')
          .values({ ...event, position: null })
          .execute();
      } else {
        await trx
          .insertInto('events')
          .values({ ...event, position: await takeEventPositions(trx, clientId, 1) })
          .execute();
      }
    });
    return reply.code(201).send({ paymentId: id, status: 'PENDING', createdAt: now });
  });
  app.get('/latest', async (request) => {
    const { paymentId } = request.query as { paymentId: string };
    return db
      .selectFrom('payment_status_history')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('payment_id', '=', paymentId)
      .orderBy('sequence', 'desc')
      .limit(1)
      .executeTakeFirst();
  });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.stdout.write('ready\n');
}
