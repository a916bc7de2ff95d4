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
 *
 * Flows, each on SQLite and PostgreSQL: Berlin Group embedded (Hansa/dave without a code, Banca Italia/bob with one,
 * Hansa/carla choosing one of three SCA methods on our page, then its code), Berlin Group redirect (Rheinland/alice:
 * our review page, the bank's pages, our callback), account information with account choice (Nemunas/bob: the consent
 * on the bank's pages, bob's two EUR accounts on our choice page, then the payment on the bank's pages), Berlin Group
 * decoupled (Crédit du Midi/alice, login id in the request, approved on the sandbox's bank-app page linked from our
 * waiting page), UK Open Banking redirect (Albion/alice: the bank's pages, its fragment answer posted to our return
 * address as our return page's script does) and UK Open Banking CIBA (Pennine/alice, approved in the UK
 * sandbox's bank app). A Rheinland flow starts no authorisation (the initiation's answer carries the bank's link); UK
 * faults name no payer (the authorisation server knows none), and the UK `token` operation is not a CIBA column (one
 * endpoint answers both the client-credentials token — fetched once and reused while it lives, so which call fetches
 * it depends on the flows before — and every CIBA poll, so a rule on it cannot pick one call); in the UK redirect
 * flow its code exchange is one, the rule laid just before the authorisation is completed (`armedBefore`). Each
 * flow's run without a fault prints the connector calls it makes. A cell the engine does not get right yet
 * would be a node:test `todo` naming the defect (`defects` of its flow): it runs and prints its row, and does not
 * fail the suite. None is left: every cell is asserted.
 *
 * This module holds the matrix; each test file beside it runs one flow on one database (`describeFaultMatrix`), so
 * the test runner spreads the matrix over its parallel files. Within a file the cells run side by side, each on a lane
 * of its own (a copy of the service with its own sandbox bank and database, `LANES` of them): a fault rule names no
 * payment, so a lane runs one cell at a time, each final before the next.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Connectors } from '../../../src/connectors/index.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../../e2e/flow-harness.js';
import { testDatabaseKind, type TestDatabaseKind } from '../../helpers/databases.js';
import { WAIT_BOUND_MS } from '../../helpers/wait.js';
import { completeBankPages } from '../../connectors/helpers/psu-browser.js';
import { paymentRequest, ukPaymentRequest } from '../../helpers/payment-requests.js';
import { approveInUkBankApp, sandboxCatalogueWithTimeouts } from '../../helpers/sandbox-payments.js';
import { injectSandboxFault } from '../../helpers/test-app.js';
import { fieldsAsked, get, headingOf, post, submit, submitAndFollow } from '../../hosted/http-payer.js';
import { payerAtBank } from '../../sandbox-bank/uk-open-banking/tpp.js';

const ANSWER_TIMEOUT_MS = 1000;
/**
 * How long a payer keeps at it before the cell fails: far past the settle window (2 s) and the polling cap (0.4 s)
 * here, and generous like every wait bound, since a machine loaded many times over its cores stretches each step.
 */
const PAYER_BOUND_MS = 2 * WAIT_BOUND_MS;
/** A cell with a known defect (a `todo`) is given less: still four settle windows, so its row shows what it does. */
const KNOWN_DEFECT_BOUND_MS = 8_000;

/** The Berlin Group sandbox's operation names and the connector method that makes each call. */
const BERLIN_GROUP_METHODS: Readonly<Record<string, string>> = {
  initiatePayment: 'registerPayment',
  startAuthorisation: 'startAuthorisation',
  updateAuthorisation: 'authoriseTransaction',
  getScaStatus: 'completeAuthorisation',
  getPaymentStatus: 'getPaymentStatus',
};

/** The UK sandbox's operation names (src/sandbox-bank/uk-open-banking/faults.ts) and the connector method making each. */
const UK_METHODS: Readonly<Record<string, string>> = {
  createDomesticPaymentConsent: 'registerPayment',
  backchannelAuthentication: 'startAuthorisation',
  getFundsConfirmation: 'completeAuthorisation',
  createDomesticPayment: 'completeAuthorisation',
  getDomesticPayment: 'getPaymentStatus',
};

const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';
const ALBION = '6ed27f43-4c88-4544-81eb-366a9a31cf0b';
const NEMUNAS = 'dae5f840-0eb1-4585-a0cc-3aca700d5e2b';

/**
 * How the payer takes part: at our pages (embedded), at the bank's pages (redirect: a Berlin Group bank's; uk-redirect:
 * a UK bank's, back through our fixed return address), in the bank's app (decoupled, CIBA).
 */
type PayerKind = 'embedded' | 'redirect' | 'uk-redirect' | 'decoupled' | 'ciba';

interface Flow {
  readonly name: string;
  readonly payer: PayerKind;
  /** The bank's path below /sandbox-bank/ (its fault routes and pages). */
  readonly bank: string;
  readonly psuId: string;
  /**
   * Whether fault rules name the payer. Where the bank does not know the payer at the call (a redirect flow before
   * the bank's login page, the UK authorisation server) a rule with a payer never fires, so it names none (the
   * tests run one at a time and each ends final, so no other payment's calls are about).
   */
  readonly faultNamesPayer: boolean;
  /** The creation request (made anew each time: each carries its own end-to-end id). */
  readonly request: () => Record<string, unknown>;
  /**
   * The bank calls, each a column: the sandbox's operation name, with a note in brackets where one operation serves
   * two calls of the flow (`updateAuthorisation (method)`, `updateAuthorisation (code)`); such a call is in
   * `armedBefore`.
   */
  readonly calls: readonly string[];
  /** The connector method making each operation's call (the crash column throws after it). */
  readonly methods: Readonly<Record<string, string>>;
  /**
   * Calls whose operation the flow makes more than once, by the connector method making this one: the cell's fault
   * rule is laid just before that method is called (the flow's earlier calls of the operation pass untouched), and the
   * crash column throws after that method.
   */
  readonly armedBefore?: Readonly<Record<string, string>>;
  /**
   * Cells the engine does not get right yet, by call (every fault) or `call × fault`, each with the defect in one
   * line (node:test `todo`: run and printed, not hidden).
   */
  readonly defects?: Readonly<Record<string, string>>;
}

const FLOWS = {
  hansa: {
    name: 'embedded, login first, no code (Hansa, dave)',
    payer: 'embedded',
    bank: 'hansa',
    psuId: 'dave',
    faultNamesPayer: true,
    request: () => paymentRequest({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'dave', password: TEST_PASSWORD } } }),
    calls: ['initiatePayment', 'startAuthorisation', 'getPaymentStatus'],
    methods: BERLIN_GROUP_METHODS,
  },
  italia: {
    name: 'embedded with a one-time code (Banca Italia, bob)',
    payer: 'embedded',
    bank: 'italia',
    psuId: 'bob',
    faultNamesPayer: true,
    request: () => paymentRequest({ provider: { id: BANKS.italia }, sender: { credentials: { id: 'bob', password: TEST_PASSWORD } } }),
    // The code's answer is final (finalised): the flow never asks the authorisation's status.
    calls: ['initiatePayment', 'startAuthorisation', 'updateAuthorisation', 'getPaymentStatus'],
    methods: BERLIN_GROUP_METHODS,
  },
  rheinland: {
    name: 'redirect (Rheinland, alice)',
    payer: 'redirect',
    bank: 'rheinland',
    psuId: 'alice',
    faultNamesPayer: false,
    request: () => paymentRequest({ provider: { id: BANKS.rheinland } }),
    // The initiation's answer carries the link to the bank's pages: no authorisation is started.
    calls: ['initiatePayment', 'getScaStatus', 'getPaymentStatus'],
    methods: BERLIN_GROUP_METHODS,
  },
  midi: {
    name: 'decoupled (Crédit du Midi, alice)',
    payer: 'decoupled',
    bank: 'midi',
    psuId: 'alice',
    faultNamesPayer: true,
    request: () => paymentRequest({ provider: { id: BANKS.midi }, sender: { credentials: { id: 'alice' } } }),
    calls: ['initiatePayment', 'startAuthorisation', 'getScaStatus', 'getPaymentStatus'],
    methods: BERLIN_GROUP_METHODS,
  },
  pennine: {
    name: 'UK CIBA (Pennine, alice)',
    payer: 'ciba',
    bank: 'uk/pennine',
    psuId: 'alice',
    faultNamesPayer: false,
    request: () => ukPaymentRequest(PENNINE, { sender: { credentials: { id: 'alice' } } }),
    calls: ['createDomesticPaymentConsent', 'backchannelAuthentication', 'createDomesticPayment', 'getDomesticPayment'],
    methods: UK_METHODS,
  },
  methods: {
    name: 'SCA method choice and a one-time code (Hansa, carla)',
    payer: 'embedded',
    bank: 'hansa',
    psuId: 'carla',
    faultNamesPayer: true,
    request: () => paymentRequest({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'carla', password: TEST_PASSWORD } } }),
    // Three methods: the payer chooses one on our page (an update of the authorisation), then types its code (another).
    calls: ['initiatePayment', 'startAuthorisation', 'updateAuthorisation (method)', 'updateAuthorisation (code)', 'getPaymentStatus'],
    methods: BERLIN_GROUP_METHODS,
    armedBefore: { 'updateAuthorisation (method)': 'selectScaMethod', 'updateAuthorisation (code)': 'authoriseTransaction' },
  },
  accounts: {
    name: 'account information and account choice, then redirect (Nemunas, bob)',
    payer: 'redirect',
    bank: 'nemunas',
    psuId: 'bob',
    faultNamesPayer: false,
    request: () => paymentRequest({ provider: { id: NEMUNAS } }),
    // A consent granted on the bank's pages, the account list, our choice among bob's two EUR accounts, then the
    // payment (the bank needs the sender's account in it) approved on the bank's pages.
    calls: ['createConsent', 'getConsentStatus', 'getAccounts', 'initiatePayment', 'getScaStatus', 'getPaymentStatus'],
    methods: { ...BERLIN_GROUP_METHODS, createConsent: 'createConsent', getConsentStatus: 'getConsentStatus', getAccounts: 'listAccounts' },
  },
  albion: {
    name: 'UK redirect (Albion, alice)',
    payer: 'uk-redirect',
    bank: 'uk/albion',
    psuId: 'alice',
    faultNamesPayer: false,
    request: () => ukPaymentRequest(ALBION),
    // The code exchange is a `token` call, laid just before the consent's authorisation is completed (the
    // client-credentials token it would otherwise meet was fetched, and is reused, at the consent's creation).
    calls: ['createDomesticPaymentConsent', 'token (code exchange)', 'getFundsConfirmation', 'createDomesticPayment', 'getDomesticPayment'],
    methods: UK_METHODS,
    armedBefore: { 'token (code exchange)': 'completeAuthorisation' },
  },
} as const satisfies Record<string, Flow>;

/** The flows of the matrix, each run by a test file of its own. */
export type FlowKey = keyof typeof FLOWS;

type FaultName = 'no answer, nothing done' | 'no answer, done' | '5xx, done' | 'slow, done late' | 'crash before our commit';

const SANDBOX_FAULTS: Readonly<Record<Exclude<FaultName, 'crash before our commit'>, Record<string, unknown>>> = {
  'no answer, nothing done': { kind: 'timeout', holdMs: 2500 },
  'no answer, done': { kind: 'timeout', holdMs: 2500, afterActing: true },
  '5xx, done': { kind: 'error', status: 503, afterActing: true },
  'slow, done late': { kind: 'delay', delayMs: ANSWER_TIMEOUT_MS + 400 },
};
const FAULTS: readonly FaultName[] = [
  'no answer, nothing done',
  'no answer, done',
  '5xx, done',
  'slow, done late',
  'crash before our commit',
];

/** Connectors that, when armed, throw after the bank answered the next call of one method (a process dying there). */
class Crasher {
  private armed: string | undefined;
  /** A fault rule to lay at the sandbox just before the next call of one method, and whether it was laid. */
  private laying: { method: string; lay: () => Promise<void>; laid: boolean } | undefined;
  /** The connector methods called since the last `record()`, in order (shows which calls a flow makes). */
  private recorded: string[] = [];

  record(): string[] {
    this.recorded = [];
    return this.recorded;
  }

  arm(method: string): void {
    this.armed = method;
  }

  /** Lays a fault (`lay`) just before the next call of `method` goes to the bank. */
  layBefore(method: string, lay: () => Promise<void>): void {
    this.laying = { method, lay, laid: false };
  }

  /** Forgets the fault to lay; whether it was laid. */
  stopLaying(): boolean {
    const laid = this.laying?.laid === true;
    this.laying = undefined;
    return laid;
  }

  /** Disarms; whether the crash happened (it had been armed and its method was called). */
  disarm(): boolean {
    const fired = this.armed === undefined;
    this.armed = undefined;
    return fired;
  }

  wrap(connectors: Connectors): Connectors {
    return {
      for: (settings, caller) => this.crashing(connectors.for(settings, caller)),
      close: () => connectors.close(),
    };
  }

  /**
   * The object with its methods watched, and those of its embedded-authentication part (authoriseTransaction…) and
   * its account-information part (createConsent…).
   */
  private crashing<T extends object>(subject: T): T {
    return new Proxy(subject, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if ((property === 'embedded' || property === 'accountInformation') && typeof value === 'object' && value !== null)
          return this.crashing(value);
        if (typeof property !== 'string' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          this.recorded.push(property);
          if (this.laying?.method === property && !this.laying.laid) {
            this.laying.laid = true;
            await this.laying.lay();
          }
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (this.armed === property) {
            this.armed = undefined;
            throw new Error(`simulated crash after the bank answered ${property}`);
          }
          return result;
        };
      },
    });
  }
}

/** The sandbox operation a call column names (`updateAuthorisation (code)` → `updateAuthorisation`). */
function operationOf(call: string): string {
  return call.replace(/ \(.*\)$/, '');
}

/**
 * Independent copies of the service, each with its own sandbox bank and database, that the cells of a file share
 * out (a cell takes a free one for its whole run).
 */
const LANES = 4;

interface Lane {
  readonly flow: FlowHarness;
  /** The connectors' crash hook of this lane's service. */
  readonly crasher: Crasher;
}

function defectOf(subject: Flow, call: string, fault: FaultName): string | undefined {
  return subject.defects?.[`${call} × ${fault}`] ?? subject.defects?.[call];
}

/**
 * Registers the matrix of one flow on one database (a test file's whole content). PostgreSQL is left out when it is
 * not reachable and not required, as everywhere (test/helpers/databases.ts).
 */
export async function describeFaultMatrix(flowKey: FlowKey, database: TestDatabaseKind['name']): Promise<void> {
  const kind = await testDatabaseKind(database);
  if (kind === undefined) return;
  const subjects: readonly Flow[] = [FLOWS[flowKey]];
  describe(`fault matrix [${kind.name}] ${FLOWS[flowKey].name}`, () => {
    let dir: string;
    const lanes: Lane[] = [];
    const idle: Lane[] = [];
    const waiting: ((lane: Lane) => void)[] = [];
    const matrix: string[] = [];
    const baselines: string[] = [];

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'openpis-matrix-'));
      const catalogue = sandboxCatalogueWithTimeouts(dir, ANSWER_TIMEOUT_MS);
      // One at a time: each start migrates a database and starts a sandbox bank, the busiest part of a lane's life.
      for (let index = 0; index < LANES; index += 1) {
        const crasher = new Crasher();
        const flow = await startFlowHarness(
          kind,
          { PROVIDER_CATALOGUE_FILE: catalogue, BANK_STATUS_POLL_BASE_MS: '100', BANK_STATUS_POLL_MAX_MS: '400' },
          { wrapConnectors: (connectors) => crasher.wrap(connectors) },
        );
        lanes.push({ flow, crasher });
      }
      idle.push(...lanes);
    });
    after(async () => {
      await Promise.all(lanes.map((lane) => lane.flow.close()));
      rmSync(dir, { recursive: true, force: true });
    });

    /** Runs `cell` on a lane of its own (waiting for one to be free): a fault rule there meets no other cell's payment. */
    async function onLane<T>(cell: (lane: Lane) => Promise<T>): Promise<T> {
      const lane = idle.pop() ?? (await new Promise<Lane>((resolve) => waiting.push(resolve)));
      try {
        return await cell(lane);
      } finally {
        const next = waiting.shift();
        if (next === undefined) idle.push(lane);
        else next(lane);
      }
    }

    /** Open payments with neither a job nor a payer's page with its expiry job. */
    async function withoutFuture({ flow }: Lane): Promise<string[]> {
      const rows = await flow.app.database.db
        .selectFrom('payments')
        .select(['id', 'detailed_status'])
        .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.subject_id', '=', 'payments.id'))))
        .execute();
      return rows
        .filter((row) => !row.detailed_status.endsWith('_COMPLETED') && !row.detailed_status.endsWith('_FAILED'))
        .map((row) => row.id);
    }

    /**
     * The payer at the bank's pages from `url` (log in, approve) and back at our return address as the bank sends
     * them: a Berlin Group bank redirects to our callback; a UK bank puts its answer in the URL fragment, which our
     * return page's script posts to the same address (done here as that script does).
     */
    async function throughBankPages({ flow }: Lane, subject: Flow, url: string): Promise<void> {
      if (subject.payer === 'uk-redirect') {
        const visit = await payerAtBank(url, { psuId: subject.psuId, password: TEST_PASSWORD });
        if (visit.location === undefined) return;
        const [address = '', fragment = ''] = visit.location.split('#');
        if (fragment === '') await get(address, {}, flow.seen);
        else await post(address, Object.fromEntries(new URLSearchParams(fragment)), {}, flow.seen);
        return;
      }
      const atBank = await completeBankPages(url, { psuId: subject.psuId, password: TEST_PASSWORD, otp: '123456' });
      if (atBank.redirectedTo !== undefined) await get(atBank.redirectedTo, {}, flow.seen);
    }

    /**
     * The payer until the payment is final, doing what our pages ask and nothing else: types the password or the
     * code (embedded), presses Continue on our review page and completes the bank's pages back to our callback
     * (redirect), approves in the bank's app what the bank asks there (decoupled, CIBA), and otherwise waits.
     * Returns how many times the payer was asked for something.
     */
    async function payerUntilFinal(
      lane: Lane,
      subject: Flow,
      paymentId: string,
      redirectUrl: string,
      boundMs = PAYER_BOUND_MS,
    ): Promise<number> {
      const { flow } = lane;
      let asked = 0;
      const deadline = Date.now() + boundMs;
      for (;;) {
        const latest = await flow.waitFor(paymentId, () => true);
        if (latest.endsWith('_COMPLETED') || latest.endsWith('_FAILED')) return asked;
        const page = await get(redirectUrl, {}, flow.seen);
        if (Date.now() > deadline) {
          // What the engine did and holds, for the report of a payment that went nowhere.
          const row = await flow.app.database.db
            .selectFrom('payments')
            .select(['flow_state'])
            .where('id', '=', paymentId)
            .executeTakeFirstOrThrow();
          const jobs = await flow.app.database.db
            .selectFrom('jobs')
            .select(['kind', 'run_at'])
            .where('subject_id', '=', paymentId)
            .execute();
          assert.fail(
            `payment ${paymentId} still ${latest} after ${boundMs / 1000} s: ${statuses(await flow.history(paymentId)).join(' > ')}; ` +
              `flow state ${row.flow_state ?? 'none'}; jobs ${JSON.stringify(jobs)}; the payer's page answers ${page.status} ${page.location ?? headingOf(page.html)}`,
          );
        }
        const fields = fieldsAsked(page.html);
        // Our "approve at your bank" page's link to the bank (the outcome page's Continue link carries an id).
        const bankLink = /<a class="button primary" href="([^"]+)">/.exec(page.html)?.[1]?.replace(/&amp;/g, '&');
        const firstChoice = (name: string) => new RegExp(`<input type="radio" name="${name}" value="([^"]*)"`).exec(page.html)?.[1];
        const method = firstChoice('methodId');
        const account = firstChoice('iban');
        const appLink = /<a href="([^"]+)"[^>]*>Open the sandbox bank app<\/a>/.exec(page.html)?.[1]?.replace(/&amp;/g, '&');
        if (page.status === 200 && method !== undefined) {
          asked += 1;
          await submitAndFollow(redirectUrl, page.html, 'method', { methodId: method }, flow.seen);
        } else if (page.status === 200 && account !== undefined) {
          asked += 1;
          await submitAndFollow(redirectUrl, page.html, 'account', { iban: account }, flow.seen);
        } else if (page.status === 200 && fields.includes('otp')) {
          asked += 1;
          await submitAndFollow(redirectUrl, page.html, 'code', { otp: '123456' }, flow.seen);
        } else if (page.status === 200 && (fields.includes('password') || fields.includes('loginId'))) {
          asked += 1;
          await submitAndFollow(
            redirectUrl,
            page.html,
            'details',
            {
              ...(fields.includes('loginId') ? { loginId: subject.psuId } : {}),
              ...(fields.includes('password') ? { password: TEST_PASSWORD } : {}),
            },
            flow.seen,
          );
        } else if (page.status === 200 && page.html.includes('/continue"')) {
          const continued = await submit(redirectUrl, page.html, 'continue', {}, flow.seen);
          const location = continued.location ?? '';
          if (continued.status === 303 && !location.startsWith('/pay/')) {
            // To the bank's pages, and back to our callback.
            asked += 1;
            await throughBankPages(lane, subject, new URL(location, redirectUrl).href);
          }
        } else if (page.status === 200 && bankLink !== undefined && (subject.payer === 'redirect' || subject.payer === 'uk-redirect')) {
          // Our "approve at your bank" page (the payer is back after a restart, or the review was passed): its link.
          asked += 1;
          await throughBankPages(lane, subject, new URL(bankLink, redirectUrl).href);
        } else if (page.status === 200 && appLink !== undefined && subject.payer === 'decoupled') {
          const inApp = await completeBankPages(new URL(appLink, redirectUrl).href, {
            psuId: subject.psuId,
            password: TEST_PASSWORD,
            otp: '123456',
          });
          if (inApp.steps.length > 0) asked += 1;
          else await new Promise((resolve) => setTimeout(resolve, 150));
        } else if (page.status === 200 && subject.payer === 'ciba') {
          const approved = await approveInUkBankApp(lane.flow.app.baseUrl, subject.bank.replace(/^uk\//, ''), subject.psuId);
          asked += approved;
          if (approved === 0) await new Promise((resolve) => setTimeout(resolve, 150));
        } else {
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
      }
    }

    /** Creates the payment; a crash inside the creation request answers 500, and the payment exists all the same. */
    async function create({ flow }: Lane, subject: Flow): Promise<{ paymentId: string; redirectUrl: string }> {
      const created = await flow.app.request('/api/v1/ob/payments', {
        method: 'POST',
        token: await flow.client.token(),
        json: subject.request(),
      });
      const paymentId =
        created.status === 201
          ? ((await created.json()) as { paymentId: string }).paymentId
          : (
              await flow.app.database.db
                .selectFrom('payments')
                .select('id')
                .orderBy('created_at', 'desc')
                .limit(1)
                .executeTakeFirstOrThrow()
            ).id;
      const payment = (await (await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token: await flow.client.token() })).json()) as {
        redirectUrl: string;
      };
      return { paymentId, redirectUrl: payment.redirectUrl };
    }

    // The cells run side by side, each on a lane of its own: most of a cell's time is waiting (timeouts, settle
    // windows, polls), so lanes shorten the file's time by about their number while the machine has CPU to spare.
    describe('cells', { concurrency: LANES }, () => {
      for (const subject of subjects) {
        it(`${subject.name} without a fault: completes (the connector calls it makes are printed)`, () =>
          onLane(async (lane) => {
            const { flow, crasher } = lane;
            const calls = crasher.record();
            const { paymentId, redirectUrl } = await create(lane, subject);
            const asked = await payerUntilFinal(lane, subject, paymentId, redirectUrl);
            const history = statuses(await flow.history(paymentId));
            baselines.push(`${subject.name} | no fault -> ${history.at(-1) ?? '?'} (payer asked ${asked}×; calls ${calls.join(', ')})`);
            assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
          }));
        for (const call of subject.calls) {
          for (const fault of FAULTS) {
            const defect = defectOf(subject, call, fault);
            it(
              `${subject.name} × ${call} × ${fault}: the bank's truth, never FAILED, always a future`,
              defect === undefined ? {} : { todo: defect },
              () =>
                onLane(async (lane) => {
                  const { flow, crasher } = lane;
                  const operation = operationOf(call);
                  const armedBefore = subject.armedBefore?.[call];
                  if (fault === 'crash before our commit') {
                    crasher.arm(armedBefore ?? subject.methods[operation] ?? operation);
                  } else {
                    const sandboxFault = SANDBOX_FAULTS[fault];
                    const lay = async () => {
                      const response = await injectSandboxFault(flow.app, subject.bank, {
                        ...(subject.faultNamesPayer ? { psuId: subject.psuId } : {}),
                        operations: [operation],
                        fault: sandboxFault,
                        times: 1,
                      });
                      assert.equal(response.status, 201, await response.text());
                    };
                    if (armedBefore === undefined) await lay();
                    else crasher.layBefore(armedBefore, lay);
                  }
                  const { paymentId, redirectUrl } = await create(lane, subject);
                  assert.deepEqual(await withoutFuture(lane), [], 'right after creation');
                  let asked: number;
                  let fired: boolean;
                  try {
                    asked = await payerUntilFinal(
                      lane,
                      subject,
                      paymentId,
                      redirectUrl,
                      defect === undefined ? PAYER_BOUND_MS : KNOWN_DEFECT_BOUND_MS,
                    );
                  } catch (error) {
                    const history = statuses(await flow.history(paymentId));
                    matrix.push(
                      `${subject.name} | ${call} | ${fault} -> not final, resting at ${history.at(-1) ?? '?'}${defect === undefined ? '' : ' [todo]'}`,
                    );
                    throw error;
                  } finally {
                    const operator = { authorization: `Bearer ${flow.app.config.sandboxOperatorToken}` };
                    if (fault === 'crash before our commit') {
                      fired = crasher.disarm();
                    } else {
                      // A rule used up its one time is gone from the bank's list (one laid before a call, once laid).
                      const laid = armedBefore === undefined || crasher.stopLaying();
                      const listed = (await (
                        await flow.app.request(`/sandbox-bank/${subject.bank}/sandbox/faults`, { headers: operator })
                      ).json()) as { faults: unknown[] };
                      fired = laid && listed.faults.length === 0;
                    }
                    await flow.app.request(`/sandbox-bank/${subject.bank}/sandbox/faults`, { method: 'DELETE', headers: operator });
                  }
                  const history = statuses(await flow.history(paymentId));
                  matrix.push(
                    `${subject.name} | ${call} | ${fault} -> ${history.at(-1) ?? '?'} (payer asked ${asked}×)${fired ? '' : ' (the fault never met its call)'}${defect === undefined ? '' : ' [todo]'}`,
                  );
                  assert.ok(fired, 'the fault never met its call: this cell would test nothing');
                  assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
                  assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
                  assert.deepEqual(await withoutFuture(lane), []);
                }),
            );
          }
        }
      }
    });

    it('prints the matrix', (context) => {
      for (const line of [...baselines, ...matrix]) context.diagnostic(line);
      const cells = subjects.flatMap((subject) =>
        subject.calls.flatMap((call) => FAULTS.filter((fault) => defectOf(subject, call, fault) === undefined)),
      ).length;
      // Every cell expected to pass printed its row (a todo cell prints one only if it passed).
      assert.ok(matrix.filter((line) => !line.endsWith('[todo]')).length === cells, `${matrix.length} rows for ${cells} cells`);
    });
  });
}
