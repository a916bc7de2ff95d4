/**
 * The fault matrix (issue 22): for each flow, at each bank call in it, each fault a live bank produces — no answer
 * and the bank did nothing, no answer but the bank acted, a 5xx after the bank acted, an answer slower than our
 * timeout (the bank acts late), and our process dying after the bank acted and before our commit — the payment ends
 * where the bank says: COMPLETED exactly when the bank settled (every payer here settles), never FAILED on the way,
 * and at no moment open without a job or a payer's page. The payer does what our pages ask (types the password or
 * the code again when the bank really lost it) and nothing else. The matrix is printed (flow × call × fault →
 * outcome) as the test's diagnostics.
 *
 * Banks answer within 1 s here (their own catalogue), so a slow answer is 1.4 s and a silent one is dropped at 2.5 s.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Connectors } from '../../src/connectors/index.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { injectSandboxFault } from '../helpers/test-app.js';
import { fieldsAsked, get, submitAndFollow } from '../hosted/http-payer.js';

const ANSWER_TIMEOUT_MS = 1000;

function catalogueWithShortTimeouts(dir: string): string {
  const builtIn = readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8');
  const file = join(dir, 'catalogue.json');
  writeFileSync(file, builtIn.replace(/"timeoutMs":\s*\d+/g, `"timeoutMs": ${ANSWER_TIMEOUT_MS}`));
  return file;
}

/** The sandbox's operation names and the connector method that makes each call. */
const CONNECTOR_METHOD: Readonly<Record<string, string>> = {
  initiatePayment: 'registerPayment',
  startAuthorisation: 'startAuthorisation',
  updateAuthorisation: 'authoriseTransaction',
  getScaStatus: 'completeAuthorisation',
  getPaymentStatus: 'getPaymentStatus',
};

interface Flow {
  readonly name: string;
  readonly providerId: string;
  readonly slug: string;
  readonly psuId: string;
  readonly calls: readonly string[];
}

const FLOWS: readonly Flow[] = [
  { name: 'embedded, login first, no code (Hansa, dave)', providerId: BANKS.hansa, slug: 'hansa', psuId: 'dave', calls: ['initiatePayment', 'startAuthorisation', 'getPaymentStatus'] },
  {
    name: 'embedded with a one-time code (Banca Italia, bob)',
    providerId: BANKS.italia,
    slug: 'italia',
    psuId: 'bob',
    calls: ['initiatePayment', 'startAuthorisation', 'updateAuthorisation', 'getScaStatus', 'getPaymentStatus'],
  },
];

type FaultName = 'no answer, nothing done' | 'no answer, done' | '5xx, done' | 'slow, done late' | 'crash before our commit';

const SANDBOX_FAULTS: Readonly<Record<Exclude<FaultName, 'crash before our commit'>, Record<string, unknown>>> = {
  'no answer, nothing done': { kind: 'timeout', holdMs: 2500 },
  'no answer, done': { kind: 'timeout', holdMs: 2500, afterActing: true },
  '5xx, done': { kind: 'error', status: 503, afterActing: true },
  'slow, done late': { kind: 'delay', delayMs: ANSWER_TIMEOUT_MS + 400 },
};
const FAULTS: readonly FaultName[] = ['no answer, nothing done', 'no answer, done', '5xx, done', 'slow, done late', 'crash before our commit'];

/** Connectors that, when armed, throw after the bank answered the next call of one method (a process dying there). */
class Crasher {
  private armed: string | undefined;

  arm(method: string): void {
    this.armed = method;
  }

  wrap(connectors: Connectors): Connectors {
    return {
      for: (settings, caller) => {
        const connector = connectors.for(settings, caller);
        return new Proxy(connector, {
          get: (target, property, receiver) => {
            const value: unknown = Reflect.get(target, property, receiver);
            if (typeof property !== 'string' || typeof value !== 'function') return value;
            return async (...args: unknown[]) => {
              const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              if (this.armed === property) {
                this.armed = undefined;
                throw new Error(`simulated crash after the bank answered ${property}`);
              }
              return result;
            };
          },
        });
      },
      close: () => connectors.close(),
    };
  }
}

const kinds = await testDatabaseKinds();

for (const kind of kinds) {
  describe(`fault matrix [${kind.name}]`, { timeout: 600_000 }, () => {
    let flow: FlowHarness;
    let dir: string;
    const crasher = new Crasher();
    const matrix: string[] = [];

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'openpis-matrix-'));
      flow = await startFlowHarness(
        kind,
        { PROVIDER_CATALOGUE_FILE: catalogueWithShortTimeouts(dir), BANK_STATUS_POLL_BASE_MS: '100', BANK_STATUS_POLL_MAX_MS: '400' },
        { wrapConnectors: (connectors) => crasher.wrap(connectors) },
      );
    });
    after(async () => {
      await flow?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Open payments with neither a job nor a payer's page with its expiry job. */
    async function withoutFuture(): Promise<string[]> {
      const rows = await flow.app.database.db
        .selectFrom('payments')
        .select(['id', 'detailed_status'])
        .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.payment_id', '=', 'payments.id'))))
        .execute();
      return rows.filter((row) => !row.detailed_status.endsWith('_COMPLETED') && !row.detailed_status.endsWith('_FAILED')).map((row) => row.id);
    }

    /**
     * The payer at our pages until the payment is final: types what a page asks for (the password, the code) and
     * otherwise waits. Returns how many times the payer was asked for something.
     */
    async function payerUntilFinal(paymentId: string, redirectUrl: string, psuId: string): Promise<number> {
      let asked = 0;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const latest = await flow.waitFor(paymentId, () => true);
        if (latest.endsWith('_COMPLETED') || latest.endsWith('_FAILED')) return asked;
        assert.ok(Date.now() < deadline, `payment ${paymentId} still ${latest} after 60 s`);
        const page = await get(redirectUrl, {}, flow.seen);
        const fields = fieldsAsked(page.html);
        if (page.status === 200 && fields.includes('otp')) {
          asked += 1;
          await submitAndFollow(redirectUrl, page.html, 'code', { otp: '123456' }, flow.seen);
        } else if (page.status === 200 && (fields.includes('password') || fields.includes('loginId'))) {
          asked += 1;
          await submitAndFollow(redirectUrl, page.html, 'details', { ...(fields.includes('loginId') ? { loginId: psuId } : {}), password: TEST_PASSWORD }, flow.seen);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
      }
    }

    for (const subject of FLOWS) {
      for (const call of subject.calls) {
        for (const fault of FAULTS) {
          it(`${subject.name} × ${call} × ${fault}: the bank's truth, never FAILED, always a future`, async () => {
            if (fault === 'crash before our commit') {
              crasher.arm(CONNECTOR_METHOD[call] ?? call);
            } else {
              const response = await injectSandboxFault(flow.app, subject.slug, { psuId: subject.psuId, operations: [call], fault: SANDBOX_FAULTS[fault], times: 1 });
              assert.equal(response.status, 201, await response.text());
            }
            const created = await flow.app.request('/api/v1/ob/payments', {
              method: 'POST',
              token: await flow.client.token(),
              json: paymentRequest({
                provider: { id: subject.providerId },
                sender: { credentials: { id: subject.psuId, password: TEST_PASSWORD } },
              }),
            });
            // A crash inside the creation request answers 500; the payment exists all the same.
            const paymentId =
              created.status === 201
                ? ((await created.json()) as { paymentId: string }).paymentId
                : (await flow.app.database.db.selectFrom('payments').select('id').orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow()).id;
            const payment = (await (await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token: await flow.client.token() })).json()) as { redirectUrl: string };
            assert.deepEqual(await withoutFuture(), [], 'right after creation');
            const asked = await payerUntilFinal(paymentId, payment.redirectUrl, subject.psuId);
            crasher.arm('');
            await flow.app.request(`/sandbox-bank/${subject.slug}/sandbox/faults`, {
              method: 'DELETE',
              headers: { authorization: `Bearer ${flow.app.config.sandboxOperatorToken}` },
            });
            const history = statuses(await flow.history(paymentId));
            matrix.push(`${subject.name} | ${call} | ${fault} -> ${history.at(-1) ?? '?'} (payer asked ${asked}×)`);
            assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
            assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
            assert.deepEqual(await withoutFuture(), []);
          });
        }
      }
    }

    it('prints the matrix', (context) => {
      for (const line of matrix) context.diagnostic(line);
      assert.equal(matrix.length, FLOWS.reduce((sum, subject) => sum + subject.calls.length, 0) * FAULTS.length);
    });
  });
}
