/**
 * Real SIGKILLs (issue 22, decisions §8): the service is killed while the bank is acting on our calls, started again
 * on the same database, and must reconcile every payment to the bank's truth. The bank is a stand-alone sandbox-bank
 * process, so what it did outlives the killed service, as a real bank's state would.
 *
 * Time: a payment whose run died keeps its lease (`flowState.leaseUntil`, FLOW_LEASE_MS: 30 s here) and its
 * `bank-status` job is due just after it, so each case waits about half a minute after the kill before recovery
 * starts. That wait is the engine's own bound for a crashed holder, once per case; the waits below allow for it. The
 * databases run side by side (each with its own bank and services, mostly idle during that wait), so the file takes
 * about a minute and a half.
 *
 * The bank's truth is read from the bank itself (the sandbox bank's payment status, unsigned at Hansa): COMPLETED
 * exactly when the bank settled the payment. A payer-less payment whose login never reached the bank cannot be
 * completed (the payer's credentials are never stored): it goes to the payer's form (decisions §7, §8).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { ClientService } from '../../src/auth/clients.js';
import { isFinal, type DetailedStatus } from '../../src/domain/detailed-status.js';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { payerlessJourneyRequest } from '../../bench/shared.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { startSandboxBank, startService, type RunningProcess } from '../helpers/processes.js';
import { testSecretBox } from '../helpers/secret-keys.js';
import { clientToken, waitFor } from '../helpers/wait.js';

const OPERATOR_TOKEN = 'sigkill-operator-token-0123456789';
/** Long enough for the kill to come while every login is still at the bank, shorter than Hansa's 10 s answer timeout. */
const LOGIN_DELAY_MS = 8_000;
const SLOW_LOGINS = 10;
const LOAD = 20;
/** The 30 s payment lease, the job after it, and the bank's settlement, on a loaded machine. */
const RECOVERY_BOUND_MS = 180_000;

interface PaymentRow {
  readonly id: string;
  readonly detailed_status: string;
  readonly flow_state: string | null;
  readonly provider_payment_id: string | null;
}

interface StoredFlowState {
  readonly openCall?: { readonly operation?: string };
  readonly providerPaymentId?: string;
  readonly bankPayment?: { readonly paymentId?: string };
}

const flowStateOf = (payment: PaymentRow): StoredFlowState => JSON.parse(payment.flow_state ?? '{}') as StoredFlowState;

/** The bank's id of the payment, from the column or, for a run that died, from what its durable steps committed. */
const bankIdOf = (payment: PaymentRow): string | undefined =>
  payment.provider_payment_id ?? flowStateOf(payment).providerPaymentId ?? flowStateOf(payment).bankPayment?.paymentId;

interface Scenario {
  readonly handle: DatabaseHandle;
  readonly env: Record<string, string>;
  readonly client: { clientId: string; clientSecret: string };
}

const kinds = await testDatabaseKinds();

describe('SIGKILL recovery', { concurrency: true }, () => {
  for (const kind of kinds) {
    // Its cases one after another: they share the bank, and the first one's fault rule must not catch the second's logins.
    describe(kind.name, { concurrency: 1 }, () => {
      let bank: RunningProcess;
      let hansaId: string;
      const services: RunningProcess[] = [];
      const databases: TestDatabase[] = [];
      const handles: DatabaseHandle[] = [];
      /** Open payments without a future when the service was killed during the load (checked by the last test). */
      let withoutFutureAtLoadKill: string[] | undefined;

      before(async () => {
        bank = await startSandboxBank({ SANDBOX_OPERATOR_TOKEN: OPERATOR_TOKEN });
        const hansa = loadCatalogue(undefined, bank.url)
          .banks('sandbox')
          .find((candidate) => candidate.name === 'Hansa Direktbank Sandbox');
        assert.ok(hansa);
        hansaId = hansa.id;
      });

      after(async () => {
        await Promise.all(services.map((service) => service.stop('SIGKILL')));
        await bank?.stop('SIGKILL');
        for (const handle of handles) await handle.close();
        for (const database of databases) await database.drop();
      });

      async function scenario(name: string): Promise<Scenario> {
        const database = await kind.create();
        databases.push(database);
        const handle = openDatabase(database.config);
        handles.push(handle);
        await migrateToLatest(handle.db as unknown as Kysely<unknown>);
        const client = await new ClientService(handle.db, testSecretBox()).create({ name, environment: 'sandbox' });
        const env = {
          DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.path}` : database.config.url,
          SANDBOX_BANK_URL: bank.url,
          HOST: '127.0.0.1',
          WORKER_POLL_INTERVAL_MS: '50',
          // Job claims of the killed process lapse after 2 s, so the restarted one takes them over quickly.
          WORKER_LEASE_MS: '2000',
          BANK_STATUS_POLL_BASE_MS: '200',
          // A payment whose run was killed waits for its lease to lapse: 30 s, not the default minute, still far
          // longer than a run here (a registration and a login of LOGIN_DELAY_MS, under Hansa's 10 s timeouts).
          FLOW_LEASE_MS: '30000',
        };
        return { handle, env, client };
      }

      async function start(env: Record<string, string>): Promise<RunningProcess> {
        const service = await startService(env);
        services.push(service);
        return service;
      }

      /** Sends a payer-less creation request; a process killed first gives no answer. */
      function create(serviceUrl: string, token: string): Promise<number | 'no answer'> {
        return fetch(`${serviceUrl}/api/v1/ob/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(payerlessJourneyRequest(hansaId)),
        }).then(
          (response) => response.status,
          () => 'no answer' as const,
        );
      }

      async function payments(handle: DatabaseHandle): Promise<PaymentRow[]> {
        return handle.db
          .selectFrom('payments')
          .select(['id', 'detailed_status', 'flow_state', 'provider_payment_id'])
          .orderBy('id')
          .execute();
      }

      /** Open payments with neither a bank-status job nor a payer's page with its expiry job (invariant 3). */
      async function withoutFuture(handle: DatabaseHandle): Promise<string[]> {
        const jobs = await handle.db.selectFrom('jobs').select(['kind', 'subject_id']).execute();
        const has = (paymentId: string, jobKind: string): boolean =>
          jobs.some((job) => job.subject_id === paymentId && job.kind === jobKind);
        return (await payments(handle))
          .filter((payment) => !isFinal(payment.detailed_status as DetailedStatus))
          .filter(
            (payment) =>
              !has(payment.id, 'bank-status') && !(payment.detailed_status.endsWith('_REDIRECT_PENDING') && has(payment.id, 'flow-expiry')),
          )
          .map((payment) => `${payment.id} ${payment.detailed_status} ${payment.flow_state ?? ''}`);
      }

      async function historiesOf(handle: DatabaseHandle): Promise<Map<string, string[]>> {
        const rows = await handle.db
          .selectFrom('payment_status_history')
          .select(['payment_id', 'sequence', 'detailed_status'])
          .orderBy('payment_id')
          .orderBy('sequence')
          .execute();
        const byPayment = new Map<string, string[]>();
        for (const row of rows) byPayment.set(row.payment_id, [...(byPayment.get(row.payment_id) ?? []), row.detailed_status]);
        return byPayment;
      }

      /** Waits until every payment is final or waits for the payer at a page with its expiry job. */
      async function waitForRecovery(handle: DatabaseHandle): Promise<PaymentRow[]> {
        const left = async (): Promise<string> => {
          const jobs = await handle.db.selectFrom('jobs').select(['kind', 'subject_id', 'run_at', 'last_error']).execute();
          return (await payments(handle))
            .filter((payment) => !isFinal(payment.detailed_status as DetailedStatus))
            .map(
              (payment) =>
                `${payment.id} ${payment.detailed_status} ${payment.flow_state ?? ''} jobs ${JSON.stringify(jobs.filter((job) => job.subject_id === payment.id))}`,
            )
            .join('\n');
        };
        return waitFor(
          'every payment to be final or to wait for the payer',
          async () => {
            const rows = await payments(handle);
            const jobs = await handle.db.selectFrom('jobs').select(['kind', 'subject_id']).execute();
            const job = (paymentId: string, jobKind: string): boolean =>
              jobs.some((row) => row.subject_id === paymentId && row.kind === jobKind);
            const recovered = rows.every(
              (payment) =>
                isFinal(payment.detailed_status as DetailedStatus) ||
                // At the payer's page a login still recorded as open keeps its bank-status job (invariant 2): the bank
                // is still watched while the payer is asked, so that job is no sign of unfinished recovery.
                (payment.detailed_status.endsWith('_REDIRECT_PENDING') && job(payment.id, 'flow-expiry')),
            );
            return recovered ? rows : undefined;
          },
          RECOVERY_BOUND_MS,
          250,
        ).catch(async (error: unknown) => {
          throw new Error(`${String(error)}; open payments:\n${await left()}`);
        });
      }

      /** The bank's own transaction status of a payment it holds. */
      async function bankStatusOf(bankPaymentId: string): Promise<string> {
        const response = await fetch(`${bank.url}/hansa/v1/payments/sepa-credit-transfers/${bankPaymentId}/status`, {
          headers: { 'x-request-id': randomUUID(), accept: 'application/json' },
        });
        assert.equal(response.status, 200, `the bank's status of ${bankPaymentId}`);
        return ((await response.json()) as { transactionStatus: string }).transactionStatus;
      }

      /**
       * Each payment against the bank's truth: COMPLETED exactly when the bank settled it (ACSC); otherwise the payer is
       * asked at the form and the bank holds nothing that can execute. Never a FAILED on the way.
       */
      async function assertMatchesBank(handle: DatabaseHandle, recovered: readonly PaymentRow[]): Promise<void> {
        const histories = await historiesOf(handle);
        for (const payment of recovered) {
          const bankId = bankIdOf(payment);
          const bankStatus = bankId === undefined ? 'nothing at the bank' : await bankStatusOf(bankId);
          const history = histories.get(payment.id) ?? [];
          const story = `${payment.id}: bank ${bankStatus}; ${history.join(' → ')}`;
          if (bankStatus === 'ACSC') assert.equal(payment.detailed_status, 'PAYMENT_EXECUTION_COMPLETED', story);
          else {
            assert.equal(payment.detailed_status, 'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING', story);
            assert.ok(bankStatus === 'nothing at the bank' || bankStatus === 'RCVD', story);
          }
          assert.ok(history.length > 1, `${payment.id} stayed at its first status`);
          assert.deepEqual(
            history.filter((status) => status.endsWith('_FAILED')),
            [],
            story,
          );
        }
      }

      it('completes every payment whose login the bank took after the service was killed', async () => {
        const { handle, env, client } = await scenario('sigkill-login');
        const first = await start(env);
        const token = await clientToken(first.url, client);
        const fault = await fetch(`${bank.url}/hansa/sandbox/faults`, {
          method: 'POST',
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
          // A delay without `afterActing` sleeps first and then takes the login: the bank acts after we are gone.
          body: JSON.stringify({
            psuId: 'dave',
            operations: ['startAuthorisation'],
            fault: { kind: 'delay', delayMs: LOGIN_DELAY_MS },
            times: SLOW_LOGINS,
          }),
        });
        assert.equal(fault.status, 201);
        const answers = Array.from({ length: SLOW_LOGINS }, () => create(first.url, token));
        // The rule is used up once the bank has received every login: then all of them are sleeping at the bank.
        await waitFor(
          'every login to reach the bank',
          async () => {
            const response = await fetch(`${bank.url}/hansa/sandbox/faults`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
            const { faults } = (await response.json()) as { faults: unknown[] };
            return faults.length === 0 ? true : undefined;
          },
          60_000,
        );
        await first.stop('SIGKILL');
        // Nobody got an answer: the service died with every login open, recorded before it was sent.
        assert.deepEqual(
          await Promise.all(answers),
          Array.from({ length: SLOW_LOGINS }, () => 'no answer'),
        );
        const atKill = await payments(handle);
        assert.equal(atKill.length, SLOW_LOGINS);
        for (const payment of atKill) {
          assert.equal(
            flowStateOf(payment).openCall?.operation,
            'startAuthorisation',
            `${payment.id} at ${payment.detailed_status} has no open login`,
          );
        }
        assert.deepEqual(await withoutFuture(handle), [], 'an open payment without a future at the kill');

        await start(env);
        const recovered = await waitForRecovery(handle);
        // The bank took every login after the kill and settled every payment: every one is COMPLETED.
        assert.deepEqual(
          recovered.map((payment) => `${payment.id} ${payment.detailed_status}`),
          recovered.map((payment) => `${payment.id} PAYMENT_EXECUTION_COMPLETED`),
        );
        await assertMatchesBank(handle, recovered);
      });

      it('reconciles every payment to the bank after a kill in the middle of a load of creations', async () => {
        const { handle, env, client } = await scenario('sigkill-load');
        const first = await start(env);
        const token = await clientToken(first.url, client);
        const answers = Array.from({ length: LOAD }, () => create(first.url, token));
        // Killed once a few payments have moved on, while the others are still being created.
        await waitFor(
          'some payments to move on',
          async () => ([...(await historiesOf(handle)).values()].filter((history) => history.length > 1).length >= 3 ? true : undefined),
          60_000,
          10,
        );
        await first.stop('SIGKILL');
        await Promise.all(answers);
        assert.ok((await payments(handle)).length > 0);
        withoutFutureAtLoadKill = await withoutFuture(handle);

        await start(env);
        const recovered = await waitForRecovery(handle);
        await assertMatchesBank(handle, recovered);
        assert.ok(
          recovered.some((payment) => payment.detailed_status === 'PAYMENT_EXECUTION_COMPLETED'),
          'the kill came before any payment the bank could settle',
        );
      });

      it('leaves no open payment without a future when the service is killed during creations', () => {
        assert.ok(withoutFutureAtLoadKill !== undefined, 'the load case ran');
        assert.deepEqual(withoutFutureAtLoadKill, []);
      });
    });
  }
});
