/**
 * The flow engine: moves a payment through the phases of the spec, from the payer's actions on our pages, the
 * bank's return to our callback URL, and the background jobs (bank-status polling, expiry). docs/state-machine.md
 * describes the phases as run here.
 *
 * Every action follows one pattern:
 * 1. take a short lease on the payment (a version-guarded write of `flowState.leaseUntil`), so a double submit,
 *    a replayed callback or a second process finds the payment busy and never advances it twice;
 * 2. run the steps in memory, calling the bank where a step needs it; statuses are decided, not yet written;
 * 3. commit: the statuses, column changes, flow state and jobs in one transaction (`PaymentStateStore`), which
 *    also releases the lease. Only definite outcomes are recorded; a bank error that leaves the outcome open
 *    records nothing (the payer may try again) or, once the bank holds the payment, hands it to reconciliation.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { BankReturn, Connectors } from '../connectors/index.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Job } from '../jobs/job-queue.js';
import type { JobSchedule } from '../jobs/job-kinds.js';
import type { JobHandler, JobOutcome } from '../jobs/worker.js';
import { followsBulkLeader, leadsBulk, type Payment } from '../domain/payment.js';
import type { Bank, CatalogueView } from '../providers/catalogue.js';
import { isFinal, phaseOf, type DetailedStatus } from '../domain/detailed-status.js';
import { alertIfPendingTooLong } from './bank-pending.js';
import { toStoredFlowState, flowStateOf, withChanges, withUnleasedFields, type FlowState } from './flow-state.js';
import type { PaymentStateStore } from './payment-state-store.js';
import { FlowRun, type FlowContext, type Secrets } from './run.js';
import { PollBudget, PollingSchedule } from './polling.js';
import { advanceHandlerOf, isAutomatic, loginMayBeOpenAt, resumeHandlerOf, waitsForBank } from './step-table.js';
import { callbackMatches, parseReturnState, returnState } from './steps/callback.js';
import { expire, type ExpiryOutcome } from './steps/expiry.js';
import { awaitsNotification, notificationMatches, parseNotificationToken } from './steps/notification.js';
import { missingData, startsWithCredentials, type FollowupNeeds } from './steps/followup-data.js';
import { attemptsLeft, loginAttempts, oneTimeCodeAttempts } from './steps/login.js';
import { adoptStartedAuthorisation, afterUnansweredCode, authoriseAgain, processPaymentReturn } from './steps/payment-consent.js';
import { pollExecution } from './steps/payment-execution.js';
import { banksFor } from './steps/provider-selection.js';
import { RECONCILE_DELAY_MS, reconcile, startReconciling } from './steps/reconciliation.js';
import { needsAccountConsent, processConsent } from './steps/sender-account.js';
import { CONTINUE, STOP, type InputError, type Notice, type StepResult } from './steps/step-result.js';
import { mayGoBackFrom } from '../domain/transitions.js';

export type { InputError, Notice } from './steps/step-result.js';

export interface FlowEngineOptions {
  readonly store: PaymentStateStore;
  /** Seals what a connector asks the flow to hold between calls (the operator key ring, ADR 0005). */
  readonly secretBox: SecretBox;
  readonly catalogue: CatalogueView;
  readonly connectors: Connectors;
  readonly baseUrl: string;
  readonly logger: FastifyBaseLogger;
  readonly now?: () => Date;
  /** The bank-status polling schedule (src/flow/polling.ts): the delay of its fast first minute, and its cap. */
  readonly pollBaseMs?: number;
  readonly pollMaxMs?: number;
  /** Background calls this process makes to one bank per second at most (BANK_POLL_BUDGET_PER_SECOND). */
  readonly pollBudgetPerSecond?: number;
  /** Jitter source of the polling schedule (tests fix it). */
  readonly random?: () => number;
  /** How long one request may hold a payment; longer than any sequence of bank calls (timeouts included). */
  readonly leaseMs?: number;
  /** Age past which a payment pending at the bank is reported to the operator (BANK_PENDING_ALERT_SECONDS). */
  readonly bankPendingAlertSeconds?: number;
}

/** What the hosted routes do after an action. */
export type ActionOutcome =
  /**
   * Show the page of the payment's status again, with a notice or input errors (nothing was recorded), or after the
   * bank refused the payer's login or code (`refused`: the page says so, from the flow state, with the attempts left).
   */
  | {
      readonly kind: 'page';
      readonly payment: Payment;
      readonly notice?: Notice;
      readonly errors?: readonly InputError[];
      readonly refused?: boolean;
    }
  /** Send the payer to the bank's page. */
  | { readonly kind: 'redirect'; readonly url: string; readonly payment: Payment }
  /** Done: show the payment's current page (post/redirect/get). `busy`: nothing done, another request held it. */
  | { readonly kind: 'next'; readonly payment: Payment; readonly busy?: boolean };

/** Who acts: the request's logger (with its request id) and the id sent to the bank. */
export interface Actor {
  readonly log: FastifyBaseLogger;
  readonly requestId: string;
}

/** Statuses where the payer waits while we (or the bank) work: the page refreshes itself. */
export function isWaiting(payment: Payment): boolean {
  const state = flowStateOf(payment);
  if (state.reconciliation?.reconciling === true) return true;
  if (leaseActive(payment, new Date())) return true;
  return payment.detailedStatus === 'PAYMENT_CONSENT_REDIRECT_PENDING' && state.authorisation?.scaApproach === 'DECOUPLED';
}

function leaseActive(payment: Payment, now: Date): boolean {
  const until = flowStateOf(payment).leaseUntil;
  return until !== undefined && until > now.toISOString();
}

export class FlowEngine {
  private readonly store: PaymentStateStore;
  private readonly context: FlowContext;
  private readonly now: () => Date;
  private readonly logger: FastifyBaseLogger;
  private readonly polling: PollingSchedule;
  private readonly pollBudget: PollBudget;
  private readonly leaseMs: number;
  private readonly bankPendingAlertSeconds: number;

  constructor(options: FlowEngineOptions) {
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
    this.context = {
      catalogue: options.catalogue,
      connectors: options.connectors,
      baseUrl: options.baseUrl,
      now: this.now,
      secretBox: options.secretBox,
    };
    this.logger = options.logger;
    this.polling = new PollingSchedule({
      baseMs: options.pollBaseMs ?? 1000,
      maxMs: options.pollMaxMs ?? 2 * 60 * 1000,
      ...(options.random === undefined ? {} : { random: options.random }),
    });
    this.pollBudget = new PollBudget(options.pollBudgetPerSecond ?? 1000, () => this.now().getTime());
    this.leaseMs = options.leaseMs ?? 60_000;
    this.bankPendingAlertSeconds = options.bankPendingAlertSeconds ?? 60 * 60;
  }

  // ---- reading ---------------------------------------------------------------------------------------------

  loadByFlowToken(flowToken: string): Promise<Payment | undefined> {
    return this.store.loadByFlowToken(flowToken);
  }

  /** A payment by its id (a hand-over link names its payment by id). */
  loadById(paymentId: string): Promise<Payment | undefined> {
    return this.store.load(paymentId);
  }

  /** The refunds a bulk's leader carries besides itself (src/flow/refund-bulks.ts), oldest first; none outside a bulk. */
  bulkFollowersOf(payment: Payment): Promise<readonly Payment[]> {
    return leadsBulk(payment) ? this.store.loadFollowers(payment) : Promise.resolve([]);
  }

  /**
   * The banks of `environment` that could take a bulk of refunds in `currency`: they move the currency and their
   * connector makes bulk payments (the bank list of a bulk's leader narrows this further by scheme and preferences).
   */
  bulkPaymentBanks(environment: Payment['environment'], currency: string): Bank[] {
    return this.context.catalogue
      .banks(environment)
      .filter((bank) => bank.currencies.includes(currency) && this.context.connectors.for(bank.connector).bulkPayments !== undefined);
  }

  /** Banks the payer may choose for this payment (hosted mode). */
  banksFor(payment: Payment): Bank[] {
    return banksFor(payment, this.context);
  }

  bankOf(payment: Payment): Bank | undefined {
    if (payment.providerId === null) return undefined;
    const found = this.context.catalogue.find(payment.providerId, payment.environment);
    return found.kind === 'bank' ? found.bank : undefined;
  }

  /** What the payer's form must ask for (the phase 2 form, the login page): what the bank needs and lacks. */
  credentialFields(payment: Payment): FollowupNeeds {
    const run = new FlowRun(this.context, payment, this.logger, 'page');
    return missingData(run);
  }

  /**
   * Whether the payment waits at PAYMENT_CONSENT_REQUIRED_CHECK_PENDING for the payer's password (embedded) or login
   * id (decoupled): the bank holds the payment, its authorisation is still to be started with it, and the credential
   * of an earlier request is gone (a bank error took the answer to the login or to the start of the decoupled
   * authorisation). The payer's page is then our login page.
   */
  awaitsLogin(payment: Payment): boolean {
    const state = flowStateOf(payment);
    const bank = this.bankOf(payment);
    return (
      payment.detailedStatus === 'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING' &&
      state.reconciliation?.reconciling !== true &&
      state.bank?.payment !== undefined &&
      state.authorisation?.reference === undefined &&
      bank !== undefined &&
      startsWithCredentials(new FlowRun(this.context, payment, this.logger, 'page'))
    );
  }

  /**
   * Whether the payer will log in at the bank twice and has not logged in yet: the bank needs an account-information
   * consent before the payment (its profile), and the payment has not gone past the consent's redirect. The pages
   * say so before the first login.
   */
  twoLoginsAhead(payment: Payment): boolean {
    if (payment.providerId === null || this.bankOf(payment) === undefined) return false;
    const status = payment.detailedStatus;
    const beforeConsentLogin = phaseOf(status) <= 3 || SENDER_ACCOUNT_BEFORE_LOGIN.includes(status);
    if (isFinal(status) || !beforeConsentLogin) return false;
    return needsAccountConsent(new FlowRun(this.context, payment, this.logger, 'page'));
  }

  /**
   * How the payer goes on once the bank is called (for the review page's words): our form for the login details the
   * bank lacks, the bank's own pages, the bank's app, or a confirmation on our pages (a method, a code). Undefined
   * while no bank is chosen.
   */
  approachAhead(payment: Payment): 'credentials' | 'redirect' | 'decoupled' | 'embedded' | undefined {
    if (this.bankOf(payment) === undefined) return undefined;
    const run = new FlowRun(this.context, payment, this.logger, 'page');
    const missing = missingData(run);
    if (missing.loginId || missing.password) return 'credentials';
    const approach = run.profile().scaApproach;
    return approach === 'DECOUPLED' ? 'decoupled' : approach === 'EMBEDDED' ? 'embedded' : 'redirect';
  }

  /** Refusals of the bank so far, with the attempts left, for the login and code pages (none: undefined). */
  refusals(payment: Payment): { login?: number; code?: number } {
    const { failedLogins, failedCodes } = flowStateOf(payment).authorisation ?? {};
    const bank = this.bankOf(payment);
    if (bank === undefined) return {};
    return {
      ...(failedLogins === undefined ? {} : { login: attemptsLeft(loginAttempts(bank), failedLogins) }),
      ...(failedCodes === undefined ? {} : { code: attemptsLeft(oneTimeCodeAttempts(bank), failedCodes) }),
    };
  }

  /**
   * Non-status changes the pages make: the per-payment page key (created on the first visit), the payer's
   * language choice, and that the completed page was shown (it continues to the shop by itself once). Retries once on
   * a concurrent change.
   */
  async updatePage(
    payment: Payment,
    change: {
      pageKey?: string;
      locale?: string;
      outcomeShown?: true;
      /** Kept with a new page key only: the browser of the first visit (a refund's approver) is the PSU banks are told of. */
      psu?: { readonly ipAddress: string; readonly userAgent: string };
    },
  ): Promise<Payment> {
    let current: Payment | undefined = payment;
    for (let attempt = 0; attempt < 3 && current !== undefined; attempt += 1) {
      const state = flowStateOf(current);
      const newKey = change.pageKey !== undefined && state.page?.key === undefined;
      const newlyShown = change.outcomeShown === true && state.page?.outcomeShown !== true;
      if (!newKey && !newlyShown && change.locale === undefined) return current;
      const result = await this.store.update(current, {
        ...(change.locale === undefined ? {} : { locale: change.locale }),
        ...(newKey && change.psu !== undefined ? { psu: change.psu } : {}),
        ...(!newKey && !newlyShown
          ? {}
          : {
              flowState: toStoredFlowState(
                withChanges(state, {
                  page: { ...(newKey ? { key: change.pageKey } : {}), ...(newlyShown ? { outcomeShown: true } : {}) },
                }),
              ),
            }),
      });
      if (result.kind === 'applied') return result.payment;
      current = await this.store.load(payment.id);
    }
    return current ?? payment;
  }

  // ---- the payer's actions -----------------------------------------------------------------------------------
  // Each payer action is a flow command (src/flow/commands/) that runs through `perform`; the hosted pages only call
  // the commands. The engine keeps the bank's returns to our callback URL.

  /**
   * Runs a payer's action: `work` under the payment's lease, committed as one transaction; a `continue` it returns
   * goes on through the step table. `waitsIn` lists the statuses the action's page is shown in (`'any-open'`: any
   * status that is not final); a payment elsewhere (a stale form, a double submit that lost) is left as it is and the
   * payer sees its current page.
   */
  perform(
    payment: Payment,
    waitsIn: readonly DetailedStatus[] | 'any-open',
    actor: Actor,
    work: (run: FlowRun) => Promise<StepResult>,
  ): Promise<ActionOutcome> {
    return this.act(payment, waitsIn, actor, { payer: true }, work);
  }

  /**
   * Whether the payer may go back to the bank list now: hosted mode, phases 1 to 4 (the transition table's way back),
   * and no bank holds the payment or owes an answer about it.
   */
  canGoBack(payment: Payment): boolean {
    const state = flowStateOf(payment);
    return (
      payment.mode === 'hosted' &&
      mayGoBackFrom(payment.detailedStatus) &&
      state.bank?.payment === undefined &&
      state.reconciliation?.reconciling !== true
    );
  }

  /**
   * The bank sent the payer back to our callback URL, with what it brought (`returned`: the query and form without
   * our own routing parameters). Refused (undefined) unless the secret is the payment's open one; it is consumed in
   * the same write that records the return, so it works once. The connector reads the return, checked against the
   * `state` the secret makes.
   */
  async bankReturn(paymentId: string, secret: string, returned: BankReturn, actor: Actor): Promise<ActionOutcome | undefined> {
    const payment = await this.store.load(paymentId);
    if (payment === undefined) return undefined;
    const { callback, spentCallbackHash } = flowStateOf(payment).page ?? {};
    const expected: DetailedStatus | undefined =
      callback?.purpose === 'payment'
        ? 'PAYMENT_CONSENT_REDIRECT_PENDING'
        : callback?.purpose === 'consent'
          ? 'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING'
          : undefined;
    const over = isFinal(payment.detailedStatus) || phaseOf(payment.detailedStatus) === 7;
    // Our callback used once already (the payer reloads it, or comes back through the browser's history) of a
    // payment whose flow is over: the payer is led to the outcome page. A spent callback of a payment still under
    // way, and any other secret, is refused.
    if (over && spentCallbackHash !== undefined && callbackMatches({ hash: spentCallbackHash }, secret)) return { kind: 'next', payment };
    if (expected === undefined || !callbackMatches(callback, secret)) return undefined;
    // The flow ended while the payer was at the bank (expiry, cancel): an unused callback just leads them on.
    if (isFinal(payment.detailedStatus) || phaseOf(payment.detailedStatus) === 7) return { kind: 'next', payment };
    if (payment.detailedStatus !== expected) return undefined;
    const outcome = await this.act(payment, [expected], actor, { payer: true }, async (run) => {
      run.returnedNok = returned.nok;
      run.bankReturn = { data: returned, expectedState: returnState(paymentId, secret) };
      run.setState({
        page: { callback: undefined, spentCallbackHash: callback?.hash },
        authorisation: { bankRedirectUrl: undefined },
      });
      if (expected === 'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING') {
        run.enter('SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING');
        return processConsent(run);
      }
      // Its CALLBACK_PROCESSING is recorded with the bank's answer to the completion (see `processPaymentReturn`).
      return processPaymentReturn(run);
    });
    // Busy: a racing copy of the same callback holds the payment (and consumes the secret).
    return outcome.kind === 'next' && outcome.busy === true ? undefined : outcome;
  }

  /**
   * The bank sent the payer back to our one fixed return URL (banks that accept only registered redirect URIs): the
   * `state` we gave names the payment and holds its callback secret, checked and consumed as for `bankReturn`.
   */
  async bankReturnByState(state: string, returned: BankReturn, actor: Actor): Promise<ActionOutcome | undefined> {
    const parsed = parseReturnState(state);
    return parsed === undefined ? undefined : this.bankReturn(parsed.paymentId, parsed.secret, returned, actor);
  }

  /**
   * A waiting page asked again (decoupled approval, an open bank answer): ask the bank now rather than wait for
   * the job, so the payer sees the outcome at once. Read-only at the bank; records only a definite answer.
   */
  async refresh(payment: Payment, actor: Actor): Promise<Payment> {
    if (!isWaiting(payment) || leaseActive(payment, this.now())) return payment;
    const outcome = await this.act(payment, 'any-open', actor, { quiet: true, payer: true }, (run) => this.reconcileStep(run));
    return outcome.payment;
  }

  /**
   * Creation with the payer's credentials in the request (custom mode, decisions §7): the flow runs now, up to the
   * first step that needs the payer, so the password is used within this request and then forgotten.
   */
  async runWithCredentials(payment: Payment, secrets: Secrets, actor: Actor): Promise<Payment> {
    const outcome = await this.act(
      payment,
      ['FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING'],
      actor,
      { secrets, payer: true },
      async () => CONTINUE,
    );
    if (outcome.kind !== 'page') return outcome.payment;
    // Nothing definite was recorded: the bank refused the login (only the count is kept), or could not be reached
    // before anything at the bank could execute (the password is gone with this request). The payment must not rest
    // at its first status with no future: the flow goes on without the credentials to the payer's form, so the
    // client hears at once that the payer is needed at the redirectUrl (docs/state-machine.md, payer-less payments).
    const asked = await this.act(
      outcome.payment,
      ['FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING'],
      actor,
      { payer: true },
      async () => CONTINUE,
    );
    return asked.payment;
  }

  // ---- jobs ----------------------------------------------------------------------------------------------------

  /**
   * The bank-status job a run leaves behind it in case it dies: due just after the lease a run takes now would end.
   * The creation of a payment whose flow runs within the request is born with it; durable steps renew it.
   */
  safetyNet(): JobSchedule {
    return { kind: 'bank-status', runAt: new Date(this.now().getTime() + this.leaseMs + RECONCILE_DELAY_MS).toISOString() };
  }

  /**
   * Finds open payments without a future (no bank-status job, and not a payer's page with its expiry job), logs each
   * and gives it one: the expiry job for a payer's page, else the bank-status job now, which goes on from any status
   * (`reconcileStep`). Run at start-up and periodically by the workers. Returns how many were found.
   */
  async sweepPaymentsWithoutFuture(limit = 500): Promise<number> {
    const stranded = await this.store.findWithoutFuture(limit);
    const nowIso = this.now().toISOString();
    for (const payment of stranded) {
      const payerPage =
        payment.detailedStatus.endsWith('_REDIRECT_PENDING') ||
        (payment.detailedStatus === 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING' && payment.untouched);
      this.logger.warn(
        { paymentId: payment.id, detailedStatus: payment.detailedStatus },
        'open payment without a future found; scheduling it',
      );
      await this.store.schedule(payment, [
        payerPage && phaseOf(payment.detailedStatus) !== 7
          ? { kind: 'flow-expiry', runAt: payment.flowExpiresAt < nowIso ? nowIso : payment.flowExpiresAt }
          : { kind: 'bank-status', runAt: nowIso },
      ]);
    }
    return stranded.length;
  }

  /**
   * The bank notified a change of the payment (src/flow/steps/notification.ts) at our address `token`. What the
   * notification says is never believed: the bank-status job becomes due now and asks the bank. False (nothing done)
   * when the token is not a payment's notification address.
   */
  async bankNotified(token: string): Promise<boolean> {
    const parsed = parseNotificationToken(token);
    const payment = parsed === undefined ? undefined : await this.store.load(parsed.paymentId);
    if (parsed === undefined || payment === undefined || !notificationMatches(payment, parsed.secret)) return false;
    if (!isFinal(payment.detailedStatus)) await this.store.schedule(payment, [{ kind: 'bank-status', runAt: this.now().toISOString() }]);
    return true;
  }

  jobHandlers(): { 'bank-status': JobHandler; 'flow-expiry': JobHandler } {
    return {
      // A failed look at the bank (a bug, the database away a moment) is tried again at the polling pace, never
      // minutes later: the payment's status must follow the bank's.
      'bank-status': Object.assign((job: Job) => this.bankStatusJob(job), {
        delayAfterErrorMs: (job: Job) => this.polling.delayMs(job.attempts),
      }),
      'flow-expiry': (job) => this.expiryJob(job),
    };
  }

  private later(ms: number): string {
    return new Date(this.now().getTime() + ms).toISOString();
  }

  /**
   * A job that finds the payment leased looks again shortly. A lease is normally released within a request's bank
   * calls; its end (`leaseUntil`, a minute ahead) only bounds a crashed holder. Waiting for that end would let a
   * frequent poller push the expiry (or a status poll) a minute back each time it happens to hold the payment.
   */
  private whenReleased(leaseUntil: string): JobOutcome {
    const soon = this.later(BUSY_RETRY_MS);
    return { kind: 'retry', runAt: soon < leaseUntil ? soon : leaseUntil, note: 'payment busy' };
  }

  /**
   * The next look of a wait `job` has been in for `job.attempts` looks (src/flow/polling.ts), at the fallback's pace
   * when the bank will notify the change awaited.
   */
  private nextLook(job: Job, payment: Payment, retryAfterSeconds?: number): string {
    return this.later(this.polling.delayMs(job.attempts, retryAfterSeconds, awaitsNotification(payment)));
  }

  private async bankStatusJob(job: Job): Promise<JobOutcome> {
    let payment = await this.store.load(job.subjectId);
    // A bulk's follower is carried by its leader's jobs (it has none of its own once in the bulk).
    if (payment === undefined || isFinal(payment.detailedStatus) || followsBulkLeader(payment)) return { kind: 'done' };
    const leaseUntil = flowStateOf(payment).leaseUntil;
    if (leaseUntil !== undefined && leaseUntil > this.now().toISOString()) return this.whenReleased(leaseUntil);
    // Nothing to ask the bank: the payer has the next move (a page of ours or the bank's) and no bank answer is open.
    // This is the safety net a durable step leaves behind it, finding the run finished.
    const executing = phaseOf(payment.detailedStatus) === 7;
    if (!executing && !needsBankLook(payment) && !isAutomatic(payment.detailedStatus)) return { kind: 'done' };
    const bank = this.bankOf(payment);
    const wait = bank === undefined ? 0 : this.pollBudget.take(bank.id);
    if (wait > 0) return { kind: 'retry', runAt: this.later(wait), note: 'bank poll budget' };
    const log = this.logger.child({ jobId: job.id, paymentId: payment.id });
    payment = await this.alertIfPendingTooLong(payment, log);
    const actor: Actor = { log, requestId: job.id };
    if (executing) {
      const run = new FlowRun(this.context, payment, log, actor.requestId);
      const poll = await pollExecution(run);
      if (poll.kind === 'pending') {
        // A pending answer that told the payer's account: kept now (with no status), not asked for again. A write
        // that finds the payment changed meanwhile keeps nothing: the next look asks again.
        if (run.changes.payer !== undefined) await this.commit(run);
        return { kind: 'retry', runAt: this.nextLook(job, payment, poll.retryAfterSeconds), note: 'execution pending' };
      }
      const committed = await this.commit(run);
      return committed ? { kind: 'done' } : { kind: 'retry', runAt: this.later(BUSY_RETRY_MS), note: 'conflict' };
    }
    const outcome = await this.act(payment, 'any-open', actor, { quiet: true }, (run) => this.reconcileStep(run));
    const after = outcome.payment;
    if (isFinal(after.detailedStatus)) return { kind: 'done' };
    if (phaseOf(after.detailedStatus) === 7) return { kind: 'retry', runAt: this.later(0), note: 'execution' };
    if (outcome.kind === 'next' && outcome.busy === true) return { kind: 'retry', runAt: this.later(BUSY_RETRY_MS), note: 'payment busy' };
    if (!needsBankLook(after)) return { kind: 'done' };
    return { kind: 'retry', runAt: this.nextLook(job, after), note: 'bank outcome open' };
  }

  private async expiryJob(job: Job): Promise<JobOutcome> {
    let payment = await this.store.load(job.subjectId);
    if (payment === undefined || isFinal(payment.detailedStatus) || phaseOf(payment.detailedStatus) === 7 || followsBulkLeader(payment))
      return { kind: 'done' };
    const nowIso = this.now().toISOString();
    if (payment.flowExpiresAt > nowIso) return { kind: 'retry', runAt: payment.flowExpiresAt };
    const leaseUntil = flowStateOf(payment).leaseUntil;
    if (leaseUntil !== undefined && leaseUntil > nowIso) return this.whenReleased(leaseUntil);
    const log = this.logger.child({ jobId: job.id, paymentId: payment.id });
    payment = await this.alertIfPendingTooLong(payment, log);
    // Under the lease like every other work on the payment: no request or job may ask the bank about it while expiry
    // withdraws it there, or it would take our own withdrawal for the payer's cancellation.
    let expiry: ExpiryOutcome = 'nothing-to-do';
    const acted = await this.act(payment, 'any-open', { log, requestId: job.id }, { quiet: true }, async (run) => {
      expiry = await expire(run);
      return STOP;
    });
    if (acted.kind === 'next' && acted.busy === true) return { kind: 'retry', runAt: this.later(BUSY_RETRY_MS), note: 'payment busy' };
    const after = await this.store.load(payment.id);
    if (after === undefined || isFinal(after.detailedStatus) || phaseOf(after.detailedStatus) === 7) return { kind: 'done' };
    if (expiry === 'nothing-to-do') return { kind: 'done' };
    return {
      kind: 'retry',
      runAt: this.later(expiry === 'try-later' ? this.polling.delayMs(job.attempts) : 200),
      note: expiry === 'try-later' ? 'bank outcome open' : 'not recorded',
    };
  }

  /** The operator's warning for a payment the bank has held too long, once per payment (src/flow/bank-pending.ts). */
  private alertIfPendingTooLong(payment: Payment, log: FastifyBaseLogger): Promise<Payment> {
    return alertIfPendingTooLong(this.store, payment, { now: this.now(), alertAfterSeconds: this.bankPendingAlertSeconds, log });
  }

  /**
   * One look at the bank for a payment whose outcome is open, or a payment found resting where the engine goes on
   * by itself (a run that died, a payment from an older version: the sweep). Every status has its way forward here.
   */
  private async reconcileStep(run: FlowRun): Promise<StepResult> {
    this.adoptProviderPaymentId(run);
    // Steps that go on without asking the bank about the payment (the consent's, before the bank holds a payment).
    const resume = resumeHandlerOf(run.status);
    if (resume !== undefined) return resume(run);
    if (phaseOf(run.status) === 7) return STOP;
    if (run.state.bank?.payment === undefined) {
      // No reference at the bank: a registration whose answer was lost (or whose run died) left at most an
      // unauthorised payment there, which cannot execute. Forget it and go on from where the payment rests; the
      // flow stops at the first step that needs the payer.
      if (run.state.reconciliation?.openCall !== undefined || run.state.reconciliation?.reconciling === true)
        run.setState({ reconciliation: { openCall: undefined, reconciling: undefined } });
      return isAutomatic(run.status) ? CONTINUE : STOP;
    }
    if (
      run.status === 'PAYMENT_CONSENT_REDIRECT_PENDING' &&
      run.state.authorisation?.scaApproach === 'EMBEDDED' &&
      run.state.reconciliation?.reconciling === true
    ) {
      // A one-time code whose answer was lost: the bank's SCA status tells whether the payer must type it again.
      return afterUnansweredCode(run, 'in-background');
    }
    if (
      run.status === 'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING' &&
      run.state.reconciliation?.reconciling === true
    ) {
      // A method choice whose run died after the call: choosing a method authorises nothing, so, as when its answer
      // is lost within the request, the payer chooses again (the bank takes a repeated choice).
      run.setState({ reconciliation: { openCall: undefined, reconciling: undefined } });
      return STOP;
    }
    const outcome = await reconcile(run);
    if (outcome === 'moved') return STOP;
    // The bank spent the authorisation without a payment (a UK code exchanged by a call whose answer was lost).
    if (outcome === 'authorise-again') return authoriseAgain(run);
    if (outcome === 'pending' && this.loginLost(run)) {
      // The bank may show the login taken: its authorisation is adopted, and the payer asked only for the code.
      const adopted = await adoptStartedAuthorisation(run);
      if (adopted !== undefined) return adopted;
      // The bank holds the payment, not authorised, and the login under way had no answer. The bank may still be
      // working on it: only after the settle window is it taken as lost, and the payer logs in again on our page
      // (the bank knows the user ID from the registration). The open call stays, so the job keeps asking the bank
      // meanwhile: a late login that the bank took still completes the payment.
      if (!run.openCallSettled()) return startReconciling(run);
      run.setState({ reconciliation: { reconciling: undefined } });
      return isAutomatic(run.status) ? CONTINUE : STOP;
    }
    if (run.state.reconciliation?.reconciling === true) return startReconciling(run);
    // Nothing open at the bank and the payment rests at an automatic status (a run that died before its first call).
    return isAutomatic(run.status) ? CONTINUE : STOP;
  }

  /** The bank's payment id a durable step committed in the flow state, written to its column (a run that died). */
  private adoptProviderPaymentId(run: FlowRun): void {
    const id = (run.checkpointed ?? run.state).bank?.providerPaymentId;
    if (id !== undefined && run.changes.providerPaymentId === undefined) run.changes = { ...run.changes, providerPaymentId: id };
    run.setState({ bank: { providerPaymentId: undefined } });
  }

  /** Whether an open bank answer is the one to the start of the authorisation with the payer's password or login id. */
  private loginLost(run: FlowRun): boolean {
    return run.state.authorisation?.reference === undefined && startsWithCredentials(run) && loginMayBeOpenAt(run.status);
  }

  // ---- running steps ---------------------------------------------------------------------------------------------

  /**
   * Runs the steps that need neither the payer nor a bank answer still outstanding: the step table's handler of each
   * status the run reaches (src/flow/step-table.ts), until one stops the run (a page of the payer's, the bank's, a
   * bank answer open) or the run reaches a status no step goes on from by itself.
   */
  private async advance(run: FlowRun): Promise<StepResult> {
    for (let guard = 0; guard < 50; guard += 1) {
      const handler = advanceHandlerOf(run.status);
      if (handler === undefined) return STOP;
      const result = await handler(run);
      if (result.kind !== 'continue') return result;
    }
    throw new Error(`The flow of payment ${run.payment.id} did not settle`);
  }

  /**
   * Takes the lease, runs `work`, commits. `allowed` lists the statuses the action is meant for; a payment
   * elsewhere (a stale form, a double submit that lost) just shows its current page.
   */
  private async act(
    payment: Payment,
    allowed: readonly DetailedStatus[] | 'any-open',
    actor: Actor,
    options: { secrets?: Secrets; quiet?: boolean; payer?: boolean },
    work: (run: FlowRun) => Promise<StepResult>,
  ): Promise<ActionOutcome> {
    const open = allowed === 'any-open' ? !isFinal(payment.detailedStatus) : allowed.includes(payment.detailedStatus);
    // A bulk's follower only takes its leader's statuses (src/flow/refund-bulks.ts): nothing acts on it alone.
    if (!open || leaseActive(payment, this.now()) || followsBulkLeader(payment)) return { kind: 'next', payment, busy: true };
    const leaseUntil = new Date(this.now().getTime() + this.leaseMs).toISOString();
    // From a status the engine goes on from by itself, a run that dies before its first durable step would leave the
    // payment there with nothing due: the lease comes with the bank-status job due when it ends.
    // A job's own run needs none: its job row, locked while it runs, is claimed again if the process dies (and
    // rescheduling the row under the job would disturb the queue's bookkeeping of it).
    const safetyNet = options.payer === true && isAutomatic(payment.detailedStatus) ? [this.safetyNet()] : [];
    const leased = await this.store.update(
      payment,
      { flowState: toStoredFlowState(withChanges(flowStateOf(payment), { leaseUntil })) },
      { schedule: safetyNet },
    );
    if (leased.kind === 'conflict') {
      if (options.quiet !== true) actor.log.info({ paymentId: payment.id }, 'payment busy: concurrent request refused');
      return { kind: 'next', payment: (await this.store.load(payment.id)) ?? payment, busy: true };
    }
    const run = new FlowRun(this.context, leased.payment, actor.log, actor.requestId, options.secrets ?? {});
    if (leadsBulk(run.payment)) run.bulkFollowers = await this.store.loadFollowers(run.payment);
    run.payerPresent = options.payer === true;
    run.checkpointer = (current, statuses) => this.checkpoint(current, statuses);
    let result: StepResult;
    // Set in `finally`, before the password leaves memory.
    let carriedPassword: boolean;
    try {
      result = await work(run);
      // A step that ends where the engine goes on by itself says `continue`: the step table's steps run from there
      // (no step calls the next one itself).
      if (result.kind === 'continue') result = await this.advance(run);
    } catch (error) {
      // Unexpected (a bug, or a process that dies in the middle, as tests simulate): nothing the run decided is
      // recorded, the lease is released. What a durable step committed stays: a call the bank may have acted on is
      // reconciled by the bank-status job (decisions §8), never forgotten.
      run.rollBack('committed');
      this.adoptProviderPaymentId(run);
      if (run.state.reconciliation?.openCall !== undefined || run.state.reconciliation?.reconciling === true) {
        run.setState({ reconciliation: { reconciling: true } });
        run.scheduleJob('bank-status', new Date(this.now().getTime() + RECONCILE_DELAY_MS));
      } else if (waitsForBank(run.status)) {
        // A processing status a checkpoint committed (`FlowRun.commitProgress`): the job goes on from it soon, rather
        // than when the checkpoint's safety net falls due after the lease.
        run.scheduleJob('bank-status', new Date(this.now().getTime() + RECONCILE_DELAY_MS));
      }
      await this.commit(run).catch(() => undefined);
      throw error;
    } finally {
      carriedPassword = run.secrets.password !== undefined;
      // Whatever happened, the password leaves memory with this request.
      run.secrets = {};
      run.checkpointer = undefined;
    }
    if (result.kind === 'invalid' || result.kind === 'refused' || (result.kind === 'retry' && carriedPassword)) {
      // Nothing definite: the payer corrects the input, or enters the password again, from the stored status. Only
      // the count of refused attempts stays (a refused attempt's bank payment was withdrawn or stays in the state the run began with).
      // A durable step of this run may have committed an open call meanwhile: the state written now replaces it.
      run.rollBack('start', (state) =>
        result.kind === 'refused'
          ? {
              authorisation: {
                failedLogins: state.authorisation?.failedLogins,
                failedCodes: state.authorisation?.failedCodes,
                codeNotProcessed: state.authorisation?.codeNotProcessed,
              },
            }
          : {},
      );
    } else if (result.kind === 'retry') {
      // The statuses decided before the failed call stand; the bank never got a usable callback from us.
      run.setState({ page: { callback: undefined } });
    }
    await this.commit(run);
    const after = run.payment;
    switch (result.kind) {
      case 'invalid':
        return { kind: 'page', payment: after, errors: result.errors };
      case 'refused':
        return { kind: 'page', payment: after, refused: true };
      case 'retry':
        return { kind: 'page', payment: after, notice: result.notice };
      case 'redirect':
        return { kind: 'redirect', url: result.url, payment: after };
      default:
        return { kind: 'next', payment: after };
    }
  }

  /**
   * A durable step (decisions §8): before a call that may change what the bank holds, the flow state the run holds
   * (the previous call's answer, the call now open) is committed under the lease, with the bank-status job due just
   * after the lease ends. A process that dies during the call leaves the payment with a reference to reconcile and
   * work due; statuses are recorded by the run's own commit, as before — unless the step asks for them (`statuses`,
   * `FlowRun.commitProgress`): then the statuses decided so far are committed too, with their history records,
   * events, column changes and jobs, and become the run's new start.
   */
  private async checkpoint(run: FlowRun, statuses?: 'statuses'): Promise<void> {
    const lease = flowStateOf(run.payment).leaseUntil;
    if (lease === undefined) throw new Error(`A durable step of payment ${run.payment.id} outside a lease`);
    // In a job's own run the job row is the safety net (see `act`).
    const safetyNet = run.payerPresent
      ? [{ kind: 'bank-status' as const, runAt: new Date(Date.parse(lease) + RECONCILE_DELAY_MS).toISOString() }]
      : [];
    const withStatuses = statuses === 'statuses' && run.path.length > 0;
    let base = run.payment;
    let state = run.state;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const providerPaymentId = run.changes.providerPaymentId;
      // The column is written with the run's statuses; until then the id travels with the bank reference.
      // With the statuses, the column itself is written.
      const stored: FlowState = withStatuses
        ? withChanges(state, { bank: { providerPaymentId: undefined } })
        : providerPaymentId === undefined
          ? state
          : withChanges(state, { bank: { providerPaymentId } });
      const flowState = toStoredFlowState(withChanges(stored, { leaseUntil: lease }));
      const result = withStatuses
        ? await this.store.transition({
            payment: base,
            path: run.path,
            changes: {
              ...run.changes,
              ...(state.bank?.providerPaymentId === undefined
                ? {}
                : { providerPaymentId: providerPaymentId ?? state.bank?.providerPaymentId }),
              flowState,
            },
            // The run's own jobs after the safety net: where both name the bank-status job, the run's time stands.
            schedule: [...safetyNet, ...run.schedule],
          })
        : await this.store.update(base, { flowState }, { schedule: safetyNet });
      if (result.kind === 'applied') {
        if (withStatuses) {
          this.logTransitions(run, base.detailedStatus);
          run.progressCommitted(stored);
        }
        run.payment = result.payment;
        run.state = state;
        run.checkpointed = stored;
        return;
      }
      // Only a write that does not take the lease (the page key, the language, the pending alert) may come between.
      const current = await this.store.load(run.payment.id);
      if (current === undefined || flowStateOf(current).leaseUntil !== lease || current.detailedStatus !== base.detailedStatus) break;
      base = current;
      state = withUnleasedFields(state, flowStateOf(current));
    }
    throw new Error(`Payment ${run.payment.id} changed under its lease; the bank call was not sent`);
  }

  /**
   * Writes the run (statuses, changes, flow state without the lease, jobs) and logs every status change. A run under
   * the lease whose write finds the payment changed by a write that does not take the lease (the page key, the
   * language, the pending alert: the lease still ours, the status unchanged) commits on top of it: what the run holds
   * may be a bank answer that cannot be asked for again (a spent authorisation code or CIBA grant, a submitted payment).
   */
  private async commit(run: FlowRun): Promise<boolean> {
    const from = run.payment.detailedStatus;
    const lease = flowStateOf(run.payment).leaseUntil;
    let base = run.payment;
    // A credential held for the authorisation has no use once the payment is over.
    let state = isFinal(run.status) ? withChanges(run.state, { authorisation: { heldSecret: undefined } }) : run.state;
    for (let attempt = 1; ; attempt += 1) {
      const flowState = toStoredFlowState(withChanges(state, { leaseUntil: undefined, bank: { providerPaymentId: undefined } }));
      const result =
        run.path.length === 0
          ? await this.store.update(base, { ...run.changes, flowState }, { schedule: run.schedule })
          : await this.store.transition({ payment: base, path: run.path, changes: { ...run.changes, flowState }, schedule: run.schedule });
      if (result.kind === 'applied') {
        this.logTransitions(run, from);
        run.payment = result.payment;
        return true;
      }
      const current = attempt < 5 && lease !== undefined ? await this.store.load(run.payment.id) : undefined;
      if (current === undefined || flowStateOf(current).leaseUntil !== lease || current.detailedStatus !== from) {
        run.log.warn(
          { paymentId: run.payment.id, requestId: run.requestId, detailedStatus: from },
          'payment changed meanwhile; nothing recorded',
        );
        return false;
      }
      base = current;
      state = withUnleasedFields(state, flowStateOf(current));
    }
  }

  private logTransitions(run: FlowRun, from: DetailedStatus): void {
    let previous = from;
    for (const entry of run.path) {
      run.log.info(
        {
          paymentId: run.payment.id,
          requestId: run.requestId,
          from: previous,
          to: entry.status,
          ...(entry.failureReasons ? { failureCodes: entry.failureReasons.map((reason) => reason.code) } : {}),
        },
        'payment status changed',
      );
      previous = entry.status;
    }
  }
}

/** Phase 4 statuses before the payer logs in at the bank for the consent. */
const SENDER_ACCOUNT_BEFORE_LOGIN: readonly DetailedStatus[] = [
  'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING',
];

/** How soon a job that found the payment busy looks again (ms). */
const BUSY_RETRY_MS = 200;

/**
 * Whether the bank is to be asked about the payment in the background: a bank answer is open (`reconciling`), a call
 * the bank may have acted on is unsettled (`openCall`), the payment rests at a status that waits for the bank (the
 * step table's `bank` rows: a processing status, execution), or the payer approves in the bank's app (decoupled).
 */
function needsBankLook(payment: Payment): boolean {
  const state = flowStateOf(payment);
  if (state.reconciliation?.reconciling === true || state.reconciliation?.openCall !== undefined || waitsForBank(payment.detailedStatus))
    return true;
  return payment.detailedStatus === 'PAYMENT_CONSENT_REDIRECT_PENDING' && state.authorisation?.scaApproach === 'DECOUPLED';
}
