/**
 * What the payer brings back from the bank's pages comes once, so it is never lost to a bank answer we did not get
 * or to a run that dies (issue 22, docs/state-machine.md "Durable steps"):
 * - a UK code exchange whose answer is lost: the payer's single-use code is held, sealed, before the exchange; a bank
 *   that never took it gets it again from the job and the payment completes without the payer; a bank that spent it
 *   (its answer lost, so no token reached us and nothing was submitted) leads the payer back to authorise a new
 *   consent of the same payment, since a payment consent cannot be authorised twice;
 * - a UK CIBA poll that redeemed the grant and submitted the payment, its run dying before our commit: the payer's
 *   token was held first, so the job submits again with it (the same idempotency key: the same payment);
 * - a run that dies after the bank answered the account-information consent's status, processing the payer's return
 *   from the consent pages: the return's CALLBACK_PROCESSING status was committed first, so the job finishes it and
 *   the payer finds the account choice, not the bank's pages again.
 *
 * Banks answer within 1 s here (their own catalogue), so a silent answer is dropped at 2.5 s.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Connectors } from '../../src/connectors/index.js';
import { TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest, ukPaymentRequest } from '../helpers/payment-requests.js';
import { approveInUkBankApp, sandboxCatalogueWithTimeouts } from '../helpers/sandbox-payments.js';
import { injectSandboxFault } from '../helpers/test-app.js';
import { WAIT_BOUND_MS } from '../helpers/wait.js';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { get, headingOf, post, submit, submitAndFollow } from '../hosted/http-payer.js';
import { payerAtBank } from '../sandbox-bank/uk-open-banking/tpp.js';

const ANSWER_TIMEOUT_MS = 1000;
const ALBION = '6ed27f43-4c88-4544-81eb-366a9a31cf0b';
const NEMUNAS = 'dae5f840-0eb1-4585-a0cc-3aca700d5e2b';
const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';

/**
 * Counts the connector calls by method name, and, when armed, throws once after the bank answered a method (a
 * process dying between the bank's answer and our commit).
 */
class ConnectorWatch {
  readonly calls = new Map<string, number>();
  private crashAfter: string | undefined;
  private crashWhen: (result: unknown) => boolean = () => true;

  /** Throws once after the bank answered `method` (with an answer `when` accepts). */
  armCrashAfter(method: string, when: (result: unknown) => boolean = () => true): void {
    this.crashAfter = method;
    this.crashWhen = when;
  }

  /** Whether the armed crash happened. */
  crashed(): boolean {
    return this.crashAfter === undefined;
  }

  wrap(connectors: Connectors): Connectors {
    return { for: (settings, caller) => this.watching(connectors.for(settings, caller)), close: () => connectors.close() };
  }

  private watching<T extends object>(subject: T): T {
    return new Proxy(subject, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if ((property === 'embedded' || property === 'accountInformation') && typeof value === 'object' && value !== null)
          return this.watching(value);
        if (typeof property !== 'string' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          this.calls.set(property, (this.calls.get(property) ?? 0) + 1);
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (this.crashAfter === property && this.crashWhen(result)) {
            this.crashAfter = undefined;
            throw new Error(`simulated crash after the bank answered ${property}`);
          }
          return result;
        };
      },
    });
  }
}

const kinds = await testDatabaseKinds();

for (const kind of kinds) {
  describe(`a return from the bank's pages is never lost [${kind.name}]`, () => {
    let flow: FlowHarness;
    let dir: string;
    const watch = new ConnectorWatch();

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'openpis-returns-'));
      flow = await startFlowHarness(
        kind,
        {
          PROVIDER_CATALOGUE_FILE: sandboxCatalogueWithTimeouts(dir, ANSWER_TIMEOUT_MS),
          BANK_STATUS_POLL_BASE_MS: '100',
          BANK_STATUS_POLL_MAX_MS: '400',
        },
        { wrapConnectors: (connectors) => watch.wrap(connectors) },
      );
    });
    after(async () => {
      await flow?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The payer on our review page, continuing to the bank: the bank's page our Continue leads to. */
    async function continueToBank(redirectUrl: string): Promise<string> {
      const review = await get(redirectUrl, {}, flow.seen);
      assert.equal(review.status, 200);
      const continued = await submit(redirectUrl, review.html, 'continue', {}, flow.seen);
      assert.equal(continued.status, 303);
      assert.ok(continued.location !== undefined && !continued.location.startsWith('/pay/'), 'to the bank');
      return new URL(continued.location, redirectUrl).href;
    }

    /** The payer approves the consent on Albion's pages; where the bank sends the browser back, and its fragment. */
    async function approveAtAlbion(url: string): Promise<{ address: string; fragment: Record<string, string> }> {
      const visit = await payerAtBank(url, { psuId: 'alice', password: TEST_PASSWORD });
      assert.ok(visit.location !== undefined, `the bank did not send the payer back: ${visit.lastHtml.slice(0, 500)}`);
      const [address = '', fragment = ''] = visit.location.split('#');
      return { address, fragment: Object.fromEntries(new URLSearchParams(fragment)) };
    }

    async function flowStateOf(paymentId: string): Promise<{ detailedStatus: string; flowState: string }> {
      const row = await flow.app.database.db
        .selectFrom('payments')
        .select(['detailed_status', 'flow_state'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      return { detailedStatus: row.detailed_status, flowState: String(row.flow_state) };
    }

    /** The UK redirect payment up to the payer's return, with the code exchange's answer lost by `fault`. */
    async function ukReturnWithLostExchange(fault: Record<string, unknown>) {
      const created = await flow.create(ukPaymentRequest(ALBION));
      const bankUrl = await continueToBank(created.redirectUrl);
      const back = await approveAtAlbion(bankUrl);
      // The client-credentials token is cached since the consent's creation: the next `token` call is the exchange.
      const laid = await injectSandboxFault(flow.app, 'uk/albion', { operations: ['token'], fault, times: 1 });
      assert.equal(laid.status, 201, await laid.text());
      watch.calls.clear();
      const returned = await post(back.address, back.fragment, {}, flow.seen);
      assert.ok(returned.status < 500, `our return page answered ${returned.status}`);
      const held = await flowStateOf(created.paymentId);
      const code = back.fragment['code'] ?? '';
      assert.ok(code.length > 0);
      assert.ok(!held.flowState.includes(code), 'the code is held sealed, never in clear');
      assert.match(held.flowState, /"heldSecret"/, 'the code is held for the retry');
      return { created, bankUrl, code };
    }

    it('a UK code exchange with no answer, the code not taken: the job exchanges the same code, the payer is not asked again', async () => {
      const { created } = await ukReturnWithLostExchange({ kind: 'timeout', holdMs: 2500 });
      await flow.waitFor(created.paymentId, (status) => status.endsWith('_COMPLETED') || status.endsWith('_FAILED'));
      const history = statuses(await flow.history(created.paymentId));
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
      assert.equal(watch.calls.get('registerPayment') ?? 0, 0, 'no new consent');
      assert.equal(watch.calls.get('startAuthorisation') ?? 0, 0, 'the payer was not sent to the bank again');
      assert.ok((watch.calls.get('completeAuthorisation') ?? 0) >= 2, 'the exchange was sent again');
    });

    it('a UK code exchange the bank took with its answer lost: the payer authorises a new consent once, and it completes', async () => {
      const { created, bankUrl } = await ukReturnWithLostExchange({ kind: 'timeout', holdMs: 2500, afterActing: true });
      // Meanwhile the payment waits at the payer's step (its processing status would leave no way back to the bank).
      assert.equal((await flowStateOf(created.paymentId)).detailedStatus, 'PAYMENT_CONSENT_REDIRECT_PENDING');
      const deadline = Date.now() + 2 * WAIT_BOUND_MS;
      let again: string | undefined;
      while (again === undefined) {
        const page = await get(created.redirectUrl, {}, flow.seen);
        const link = /<a class="button primary" href="([^"]+)">/.exec(page.html)?.[1]?.replace(/&amp;/g, '&');
        if (page.status === 200 && link !== undefined && !link.startsWith('/pay/')) again = new URL(link, created.redirectUrl).href;
        else {
          assert.ok(Date.now() < deadline, `the payer was not led back to the bank: ${headingOf(page.html)}`);
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
      }
      assert.notEqual(again, bankUrl, 'a new authorisation');
      const back = await approveAtAlbion(again);
      await post(back.address, back.fragment, {}, flow.seen);
      await flow.waitFor(created.paymentId, (status) => status.endsWith('_COMPLETED') || status.endsWith('_FAILED'));
      const history = statuses(await flow.history(created.paymentId));
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
      assert.equal(watch.calls.get('startAuthorisation'), 1, 'the payer was led to the bank once more');
    });

    it('a UK CIBA poll that redeemed the grant and submitted, its run dying before our commit: the held token submits again, and it completes', async () => {
      const created = await flow.create(ukPaymentRequest(PENNINE, { sender: { credentials: { id: 'alice' } } }));
      await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_CONSENT_REDIRECT_PENDING');
      // Only the poll that brings the payer's token (and submits) dies: the pending ones before it go as usual.
      watch.armCrashAfter(
        'completeAuthorisation',
        (result) => (result as { next?: { kind?: string } } | undefined)?.next?.kind === 'authorised',
      );
      assert.equal(await approveInUkBankApp(flow.app.baseUrl, 'pennine', 'alice'), 1);
      await flow.waitFor(created.paymentId, (status) => status.endsWith('_COMPLETED') || status.endsWith('_FAILED'));
      assert.ok(watch.crashed(), 'the run died after the submission');
      const history = statuses(await flow.history(created.paymentId));
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
    });

    it('a run that dies after the bank answered the consent status of the payer return: the job finishes it, the payer chooses the account', async () => {
      const created = await flow.create(paymentRequest({ provider: { id: NEMUNAS } }));
      const consentPages = await continueToBank(created.redirectUrl);
      const atBank = await completeBankPages(consentPages, { psuId: 'bob', password: TEST_PASSWORD, otp: '123456' });
      assert.ok(atBank.redirectedTo !== undefined, 'the bank sent the payer back to our callback');
      watch.armCrashAfter('getConsentStatus');
      const returned = await get(atBank.redirectedTo, {}, flow.seen);
      assert.ok(watch.crashed(), 'the run died after the bank answered');
      assert.equal(returned.status, 500);
      await flow.waitFor(created.paymentId, (status) => status === 'SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING');
      const choice = await get(created.redirectUrl, {}, flow.seen);
      const iban = /<input type="radio" name="iban" value="([^"]*)"/.exec(choice.html)?.[1];
      assert.ok(iban !== undefined, `no account choice: ${headingOf(choice.html)}`);
      const chosen = await submitAndFollow(created.redirectUrl, choice.html, 'account', { iban }, flow.seen);
      const paymentPages = chosen.location ?? /<a class="button primary" href="([^"]+)">/.exec(chosen.html)?.[1]?.replace(/&amp;/g, '&');
      assert.ok(paymentPages !== undefined, "to the bank's pages for the payment");
      const approved = await completeBankPages(new URL(paymentPages, created.redirectUrl).href, {
        psuId: 'bob',
        password: TEST_PASSWORD,
        otp: '123456',
      });
      assert.ok(approved.redirectedTo !== undefined);
      await get(approved.redirectedTo, {}, flow.seen);
      await flow.waitFor(created.paymentId, (status) => status.endsWith('_COMPLETED') || status.endsWith('_FAILED'));
      const history = statuses(await flow.history(created.paymentId));
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
    });
  });
}
