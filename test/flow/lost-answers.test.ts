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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Connectors } from '../../src/connectors/index.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { injectSandboxFault } from '../helpers/test-app.js';
import { WAIT_BOUND_MS } from '../helpers/wait.js';
import { fieldsAsked, get, submitAndFollow } from '../hosted/http-payer.js';

const ANSWER_TIMEOUT_MS = 1000;

function catalogueWithShortTimeouts(dir: string): string {
  const builtIn = readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8');
  const file = join(dir, 'catalogue.json');
  writeFileSync(file, builtIn.replace(/"timeoutMs":\s*\d+/g, `"timeoutMs": ${ANSWER_TIMEOUT_MS}`));
  return file;
}

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
        { PROVIDER_CATALOGUE_FILE: catalogueWithShortTimeouts(dir), BANK_STATUS_POLL_BASE_MS: '100', BANK_STATUS_POLL_MAX_MS: '400' },
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
  });
}
