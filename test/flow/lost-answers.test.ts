/**
 * What the bank did with a call whose answer we lost is found at the bank, so the payer is asked again only for what
 * the bank really still needs (issue 22, docs/state-machine.md "Known gaps" as they were):
 * - an embedded bank with a one-time code that took the login (the password) while its answer was lost: the bank's
 *   list of the payment's authorisations finds the authorisation, which is adopted: the payer types the code only,
 *   never the password again, and no second authorisation is opened;
 * - a redirect bank whose registration's answer we committed before the process died (the bank holds the payment,
 *   its link is ours): the recovery leads the payer to the bank with the stored link, and a payer who never comes
 *   leaves a payment that expires with the bank's payment withdrawn, never one reconciled without a future.
 *
 * Banks answer within 1 s here (their own catalogue), so a silent answer is dropped at 2.5 s.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Connectors } from '../../src/connectors/index.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { sandboxCatalogueWithTimeouts } from '../helpers/sandbox-payments.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { injectSandboxFault } from '../helpers/test-app.js';
import { WAIT_BOUND_MS } from '../helpers/wait.js';
import { fieldsAsked, get, submit, submitAndFollow } from '../hosted/http-payer.js';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { sql } from 'kysely';

const ANSWER_TIMEOUT_MS = 1000;

/** Counts the connector calls by method name (how many authorisations we started). */
class CallCounter {
  readonly calls = new Map<string, number>();

  wrap(connectors: Connectors): Connectors {
    return {
      for: (settings, caller) => this.counting(connectors.for(settings, caller)),
      close: () => connectors.close(),
    };
  }

  private counting<T extends object>(subject: T): T {
    return new Proxy(subject, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === 'embedded' && typeof value === 'object' && value !== null) return this.counting(value);
        if (typeof property !== 'string' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          this.calls.set(property, (this.calls.get(property) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}

const kinds = await testDatabaseKinds();

for (const kind of kinds) {
  describe(`a lost answer is found at the bank [${kind.name}]`, () => {
    let flow: FlowHarness;
    let dir: string;
    const counter = new CallCounter();

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'openpis-lost-'));
      flow = await startFlowHarness(
        kind,
        {
          PROVIDER_CATALOGUE_FILE: sandboxCatalogueWithTimeouts(dir, ANSWER_TIMEOUT_MS),
          BANK_STATUS_POLL_BASE_MS: '100',
          BANK_STATUS_POLL_MAX_MS: '400',
          // A run here makes a few bank calls of ANSWER_TIMEOUT_MS at most, far inside 15 s; a killed run's payment
          // waits that long, not the default minute.
          FLOW_LEASE_MS: '15000',
        },
        { wrapConnectors: (connectors) => counter.wrap(connectors) },
      );
    });
    after(async () => {
      await flow?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('an embedded login the bank took with its answer lost: the authorisation is adopted, the payer types the code only', async () => {
      const response = await injectSandboxFault(flow.app, 'italia', {
        psuId: 'bob',
        operations: ['startAuthorisation'],
        fault: { kind: 'timeout', holdMs: 2500, afterActing: true },
        times: 1,
      });
      assert.equal(response.status, 201, await response.text());
      counter.calls.clear();
      const created = await flow.create({
        provider: { id: BANKS.italia },
        sender: { credentials: { id: 'bob', password: TEST_PASSWORD } },
      });
      const deadline = Date.now() + 2 * WAIT_BOUND_MS;
      for (;;) {
        assert.ok(Date.now() < deadline, `no code form: ${statuses(await flow.history(created.paymentId)).join(' > ')}`);
        const page = await get(created.redirectUrl, {}, flow.seen);
        const fields = fieldsAsked(page.html);
        assert.ok(!fields.includes('password'), 'the payer was asked for the password again');
        if (page.status === 200 && fields.includes('otp')) {
          await submitAndFollow(created.redirectUrl, page.html, 'code', { otp: '123456' }, flow.seen);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await flow.waitFor(created.paymentId, (status) => status.endsWith('_COMPLETED') || status.endsWith('_FAILED'));
      const history = statuses(await flow.history(created.paymentId));
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
      assert.equal(counter.calls.get('startAuthorisation'), 1, 'one authorisation at the bank');
      assert.equal(counter.calls.get('findAuthorisation'), 1, "the bank's list was read");
    });

    /**
     * The process dies before our commit of the redirect: the database refuses the write that would record it (what
     * a killed process never sends), so everything the run committed before stays, as after a real crash, and the
     * run's lease stays until it runs out.
     */
    async function dieBeforeRedirectCommit(paymentId: string): Promise<() => Promise<void>> {
      const db = flow.app.database.db;
      if (kind.name === 'sqlite') {
        await sql`CREATE TRIGGER die_before_redirect BEFORE UPDATE OF detailed_status ON payments
          WHEN NEW.id = ${sql.lit(paymentId)} AND NEW.detailed_status = 'PAYMENT_CONSENT_REDIRECT_PENDING'
          BEGIN SELECT RAISE(ABORT, 'simulated death before our commit'); END`.execute(db);
        return async () => {
          await sql`DROP TRIGGER die_before_redirect`.execute(db);
        };
      }
      await sql`CREATE FUNCTION die_before_redirect() RETURNS trigger AS $$ BEGIN
          RAISE EXCEPTION 'simulated death before our commit'; END $$ LANGUAGE plpgsql`.execute(db);
      await sql`CREATE TRIGGER die_before_redirect BEFORE UPDATE OF detailed_status ON payments FOR EACH ROW
          WHEN (NEW.id = ${sql.lit(paymentId)} AND NEW.detailed_status = 'PAYMENT_CONSENT_REDIRECT_PENDING')
          EXECUTE FUNCTION die_before_redirect()`.execute(db);
      return async () => {
        await sql`DROP TRIGGER die_before_redirect ON payments`.execute(db);
        await sql`DROP FUNCTION die_before_redirect()`.execute(db);
      };
    }

    it('a redirect-bank run that dies after the registration, before our commit of the redirect: the payer is led to the bank with the stored link, and it completes', async () => {
      const created = await flow.create({ provider: { id: BANKS.rheinland } });
      const revive = await dieBeforeRedirectCommit(created.paymentId);
      counter.calls.clear();
      try {
        const review = await get(created.redirectUrl, {}, flow.seen);
        const continued = await submit(created.redirectUrl, review.html, 'continue', {}, flow.seen);
        assert.equal(continued.status, 500, 'the run died');
      } finally {
        await revive();
      }
      assert.equal(counter.calls.get('registerPayment'), 1);
      const stored = await flow.app.database.db
        .selectFrom('payments')
        .select(['flow_state', 'detailed_status'])
        .where('id', '=', created.paymentId)
        .executeTakeFirstOrThrow();
      assert.notEqual(stored.detailed_status, 'PAYMENT_CONSENT_REDIRECT_PENDING');
      assert.match(String(stored.flow_state), /bankRedirectUrl/, "the registration's answer was committed at once");
      // The killed run's lease (FLOW_LEASE_MS) runs out, then the job leads the payer on.
      await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_CONSENT_REDIRECT_PENDING', 3 * 60_000);
      const page = await get(created.redirectUrl, {}, flow.seen);
      const bankLink = /<a class="button primary" href="([^"]+\/sca\/[^"]+)">/.exec(page.html)?.[1]?.replace(/&amp;/g, '&');
      assert.ok(bankLink !== undefined, "our page leads to the bank's");
      const atBank = await completeBankPages(new URL(bankLink, created.redirectUrl).href, {
        psuId: 'alice',
        password: TEST_PASSWORD,
        otp: '123456',
      });
      assert.ok(atBank.redirectedTo !== undefined, 'the bank sent the payer back to our callback');
      await get(atBank.redirectedTo, {}, flow.seen);
      await flow.waitFor(created.paymentId, (status) => status.endsWith('_COMPLETED') || status.endsWith('_FAILED'));
      const history = statuses(await flow.history(created.paymentId));
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
      assert.equal(counter.calls.get('registerPayment'), 1, 'one payment at the bank: the stored one');
    });
  });
}
