/**
 * One piece of work on one payment (a payer's request or a job): the statuses it decides, in order, the column
 * and flow-state changes and the jobs to schedule, all written by `commit` in one version-guarded transaction.
 * Steps decide in memory and call the bank in between; nothing is recorded until the outcome is definite, so an
 * error of the bank that leaves the outcome open records no status at all.
 */
import type { FastifyBaseLogger } from 'fastify';
import { BankUnavailableError } from '../connectors/index.js';
import type {
  AccountInformation,
  BankConnector,
  BankProfile,
  BankReference,
  BankReturn,
  CallContext,
  Connectors,
  EmbeddedAuthentication,
  NextScaStep,
  PaymentStatusResult,
} from '../connectors/index.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { JobKind, JobSchedule } from '../jobs/job-kinds.js';
import type { PayerDetails, Payment, SenderDetails } from '../domain/payment.js';
import type { Bank, CatalogueView } from '../providers/catalogue.js';
import { failureReason, type DetailedStatus, type FailureCode, type FailureReason } from '../domain/detailed-status.js';
import {
  flowStateOf,
  heldSecretContext,
  withChanges,
  type FlowState,
  type FlowStateChanges,
  type StateChangingCall,
} from './flow-state.js';
import { callBank, type BankCall } from './steps/bank-errors.js';
import type { StatusEntry } from './status-writer.js';
import { assertTransition, failureStatusFrom } from '../domain/transitions.js';

/** Credentials of this request only: passed to the bank, never stored, logged or returned (decisions §7). */
export interface Secrets {
  readonly loginId?: string;
  readonly password?: string;
}

/** What every step needs besides the run. */
export interface FlowContext {
  readonly catalogue: CatalogueView;
  readonly connectors: Connectors;
  readonly baseUrl: string;
  readonly now: () => Date;
  /** Seals what a connector asks us to hold between calls (ADR 0005's key ring). */
  readonly secretBox: SecretBox;
}

/** How long after sending a call the bank may still act on it: twice the time we wait for its answer. */
export function settleWindowMs(answerTimeoutMs: number): number {
  return 2 * answerTimeoutMs;
}

export class FlowRun {
  readonly path: StatusEntry[] = [];
  readonly schedule: JobSchedule[] = [];
  readonly cancel: JobKind[] = [];
  changes: { providerId?: string | null; providerPaymentId?: string; sender?: SenderDetails | null; payer?: PayerDetails } = {};
  state: FlowState;
  secrets: Secrets;
  /** The latest SCA step the bank asked for in this run (from initiation or an authorisation call). */
  next: NextScaStep | undefined;
  /** Method id the payer chose on our page, waiting to be sent. */
  chosenMethodId: string | undefined;
  /** Set by the bank's return to our callback URL: whether it came back through the "not OK" address. */
  returnedNok = false;
  /**
   * What the payer's browser brought back to our callback URL, and the `state` it was verified against; taken by the
   * first call that hands it to the connector.
   */
  bankReturn: { readonly data: BankReturn; readonly expectedState: string } | undefined;
  /**
   * The single-use secret of the callback this run made (only its hash is stored): a later call of the same run
   * (the authorisation started after the registration) gives the bank the same return address.
   */
  callbackSecret: string | undefined;
  /**
   * The followers of a bulk this payment leads (src/flow/refund-bulks.ts), loaded with the lease: the registration
   * sends them to the bank after the leader, as one bulk payment. Empty outside a bulk.
   */
  bulkFollowers: readonly Payment[] = [];
  /** Whether this run registered the payment at the bank (with the login id it carries, if any). */
  registeredInRun = false;
  /**
   * Whether the payer is in the session (a request from their browser, or the creation request that carries their
   * details). Background work (jobs) is not: the PSU-present headers are then left out (decisions §8).
   */
  payerPresent = false;
  /**
   * Commits what the run holds so far (flow state, bank references) under the lease, before a call that may change
   * what the bank holds (set by the engine; absent in runs that only read, such as pages). With `statuses`, the
   * statuses the run decided so far are committed too, with their history records, events and column changes
   * (`commitProgress`).
   */
  checkpointer: ((run: FlowRun, statuses?: 'statuses') => Promise<void>) | undefined;
  /** The flow state as last committed by a checkpoint of this run (undefined: none yet). */
  checkpointed: FlowState | undefined;
  /**
   * The flow state the run began with (its first checkpoint, held in memory), or the one its last status checkpoint
   * committed: a run rolls back no further than a status it recorded.
   */
  started: FlowState;
  /** The payment was already handed to reconciliation when the run began (its job is the one running, or due). */
  readonly reconcilingAtStart: boolean;

  constructor(
    readonly context: FlowContext,
    public payment: Payment,
    readonly log: FastifyBaseLogger,
    readonly requestId: string,
    secrets: Secrets = {},
  ) {
    this.state = flowStateOf(payment);
    this.started = this.state;
    this.secrets = secrets;
    this.reconcilingAtStart = this.state.reconciliation?.reconciling === true;
  }

  /**
   * Forgets what the run decided (its statuses, jobs and column changes) and takes its flow state back to a
   * checkpoint: the one it began with (`'start'`), or the one its last durable step committed (`'committed'`, the
   * start if none did). `keep` picks what stays as the run has it now (the count of refused attempts), applied on top.
   */
  rollBack(to: 'start' | 'committed', keep: (state: FlowState) => FlowStateChanges = () => ({})): void {
    const base = to === 'committed' ? (this.checkpointed ?? this.started) : this.started;
    const kept = keep(this.state);
    this.path.length = 0;
    this.schedule.length = 0;
    this.changes = {};
    this.state = withChanges(base, kept);
  }

  /**
   * A durable step of its own for a processing status (decisions §8): commits the statuses the run has decided so
   * far, with its column and flow-state changes and its jobs, under the lease, and the bank-status job due just after
   * the lease (the engine's checkpoint). For the processing of what the payer brings back from the bank's pages
   * (the account-information consent's return): a run that dies after the bank answered then leaves the payment at
   * its CALLBACK_PROCESSING status, which the bank-status job finishes, not back at the page the payer already left.
   * Without a checkpointer (a page's run) or with nothing decided, nothing happens.
   */
  async commitProgress(): Promise<void> {
    if (this.checkpointer === undefined || this.path.length === 0) return;
    await this.checkpointer(this, 'statuses');
  }

  /**
   * The engine's checkpoint recorded the run's statuses, changes and jobs (`stored`: the flow state it wrote): they
   * are the run's new start.
   */
  progressCommitted(stored: FlowState): void {
    this.path.length = 0;
    this.schedule.length = 0;
    this.changes = {};
    this.started = stored;
    this.checkpointed = stored;
  }

  /**
   * Holds what the connector asks us to keep before its next call (`CompleteAuthorisationInput.hold`: the payer's
   * single-use code before its exchange, the payer's token before the submission), sealed, and commits it at once
   * under the lease: a lost answer or a run that dies leaves it for the retry.
   */
  async holdDurably(secret: string): Promise<void> {
    this.holdSecret(secret);
    await this.checkpointer?.(this);
  }

  /** The status the run has reached (recorded or not yet). */
  get status(): DetailedStatus {
    return this.path[this.path.length - 1]?.status ?? this.payment.detailedStatus;
  }

  enter(status: DetailedStatus, failureReasons?: readonly FailureReason[]): void {
    assertTransition(this.status, status);
    this.path.push(failureReasons === undefined ? { status } : { status, failureReasons });
  }

  /** Fails from the current status at the step's own failure (decisions §3), with one reason. */
  fail(code: FailureCode): void {
    const to = failureStatusFrom(this.status);
    if (to === undefined) throw new Error(`No failure status from ${this.status}`);
    this.enter(to, [failureReason(code)]);
  }

  /** Changes the run's flow state, group by group (a new state object: a state is never changed in place). */
  setState(changes: FlowStateChanges): void {
    this.state = withChanges(this.state, changes);
  }

  providerId(): string | null {
    return this.changes.providerId !== undefined ? this.changes.providerId : this.payment.providerId;
  }

  sender(): SenderDetails | null {
    return this.changes.sender !== undefined ? this.changes.sender : this.payment.sender;
  }

  /** The payer's account as the bank told it: learnt by this run, or stored before it. */
  payer(): PayerDetails | null {
    return this.changes.payer ?? this.payment.payer;
  }

  /**
   * Reads the bank's status of the payment it holds (`payment`: its reference), as a read that changes nothing at the
   * bank. The first answer that tells the payer's account has it kept for the run's commit, so it is written with the
   * statuses this answer decides (or on its own when it decides none); a connector that needs a call of its own to
   * learn it is spared that call once the account is known. What the connector left out of the bank's account data
   * is logged, with its reason (never the values).
   */
  async paymentStatus(payment: BankReference): Promise<BankCall<PaymentStatusResult>> {
    const payerKnown = this.payer() !== null;
    const status = await callBank(() => this.connector().getPaymentStatus({ context: this.callContext(), payment, payerKnown }));
    if (status.ok) {
      const { payer, payerIgnored } = status.value;
      if (payerIgnored !== undefined) {
        this.log.warn(
          { paymentId: this.payment.id, requestId: this.requestId, reason: payerIgnored },
          "the bank's account data of the payer was left out",
        );
      }
      if (payer !== undefined && !payerKnown) this.changes = { ...this.changes, payer };
    }
    return status;
  }

  /** The payment's bank (a stand-alone bank or a subsidiary) in the payment's environment. */
  bank(): Bank {
    const id = this.providerId();
    const found = id === null ? undefined : this.context.catalogue.find(id, this.payment.environment);
    if (found?.kind !== 'bank') throw new Error(`Payment ${this.payment.id} has no usable bank`);
    return found.bank;
  }

  connector(): BankConnector {
    const bank = this.bank();
    return this.context.connectors.for(bank.connector, { bankId: bank.id, clientId: this.payment.clientId, paymentId: this.payment.id });
  }

  /** What the bank asks of the payer and the flow (its connector's profile). */
  profile(): BankProfile {
    return this.connector().profile;
  }

  /** The bank's embedded steps; asked for only where the bank's answer leads to one, so absent is our bug. */
  embedded(): EmbeddedAuthentication {
    const embedded = this.connector().embedded;
    if (embedded === undefined) {
      throw new Error(
        `The bank of payment ${this.payment.id} asks for an embedded step, but its connector offers no embedded authentication`,
      );
    }
    return embedded;
  }

  /** The bank's account information; asked for only after the connector said it has it. */
  accountInformation(): AccountInformation {
    const accountInformation = this.connector().accountInformation;
    if (accountInformation === undefined) {
      throw new Error(`The bank of payment ${this.payment.id} offers no account information`);
    }
    return accountInformation;
  }

  callContext(): CallContext {
    // The PSU-present headers say the payer is in the session: sent only while they are (decisions §8).
    if (!this.payerPresent) return { requestId: this.requestId };
    return { requestId: this.requestId, psuIpAddress: this.payment.psuIpAddress, psuUserAgent: this.payment.psuUserAgent };
  }

  /**
   * Sends a call that may change what the bank holds, as a durable step (decisions §8): the call is recorded as open
   * and committed with everything the run learnt so far (the previous call's answer) before it is sent; its definite
   * answer closes it. An answer that does not come (timeout, 5xx) leaves it open, with the time it was sent, for
   * reconciliation to settle with the bank.
   */
  async send<T>(operation: StateChangingCall, call: () => Promise<T>): Promise<BankCall<T>> {
    const reconcilingBefore = this.state.reconciliation?.reconciling;
    this.setState({ reconciliation: { openCall: { operation, sentAt: this.context.now().toISOString() }, reconciling: true } });
    await this.checkpointer?.(this);
    const result = await callBank(call);
    if (result.ok || result.definite) {
      this.setState({ reconciliation: { openCall: undefined, reconciling: reconcilingBefore } });
    } else {
      const open = this.state.reconciliation?.openCall;
      const noAnswer =
        result.error instanceof BankUnavailableError && (result.error.reason === 'timeout' || result.error.reason === 'connection');
      this.setState({
        reconciliation: {
          reconciling: reconcilingBefore,
          ...(open === undefined || noAnswer ? {} : { openCall: { ...open, answered: true } }),
        },
      });
    }
    return result;
  }

  /**
   * Whether the bank can no longer be working on the open call (none, or sent longer ago than twice the bank's answer
   * timeout): only then is the bank's "nothing happened" taken as the call's outcome.
   */
  openCallSettled(): boolean {
    const open = this.state.reconciliation?.openCall;
    if (open === undefined || open.answered === true) return true;
    return this.context.now().getTime() - Date.parse(open.sentAt) >= settleWindowMs(this.profile().answerTimeoutMs);
  }

  /** What the connector asked us to hold for the authorisation under way, opened for the call that needs it. */
  heldSecret(): string | undefined {
    const sealed = this.state.authorisation?.heldSecret;
    return sealed === undefined ? undefined : this.context.secretBox.open(sealed, heldSecretContext(this.payment.id));
  }

  /** Holds (sealed) what the connector's last answer asked for, or drops what was held when it asked for nothing. */
  holdSecret(secret: string | undefined): void {
    this.setState({
      authorisation: {
        heldSecret: secret === undefined ? undefined : this.context.secretBox.seal(secret, heldSecretContext(this.payment.id)),
      },
    });
  }

  /** The payer's login id, held in memory for this request only (decisions §7). */
  loginId(): string | undefined {
    return this.secrets.loginId;
  }

  scheduleJob(kind: JobKind, runAt: Date): void {
    const existing = this.schedule.findIndex((job) => job.kind === kind);
    if (existing >= 0) this.schedule.splice(existing, 1);
    this.schedule.push({ kind, runAt: runAt.toISOString() });
  }
}
