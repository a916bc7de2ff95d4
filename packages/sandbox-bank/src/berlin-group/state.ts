/**
 * The sandbox bank's memory: payments, consents, their authorisation sub-resources and the test payers' balances.
 * It is its own small in-process store, never the service's database, with a size bound so a long-running sandbox
 * cannot grow without limit. Every status rule of the bank lives here, shared by the XS2A API and the payer pages,
 * and every change to a payment, consent or authorisation is made by a method of `SandboxState` (the records are
 * handed out read-only); money moves through the shared ledger.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ScaApproach } from '../shared/catalogue.js';
import type { PayerAccount, SandboxFixtures, ScaMethod, TestPayer } from '../shared/fixtures.js';
import { executionTimeline, Ledger } from '../shared/ledger.js';
import { toMinor } from '../shared/money.js';
import { PageProgressKeeper } from '../shared/page-progress.js';
import { writable } from '../shared/writable.js';

/** ISO 20022 transaction statuses the sandbox bank uses. */
export type TransactionStatus = 'RCVD' | 'ACTC' | 'ACSP' | 'ACSC' | 'ACCC' | 'RJCT' | 'CANC';
export type ScaStatus =
  'received' | 'psuIdentified' | 'psuAuthenticated' | 'scaMethodSelected' | 'started' | 'finalised' | 'failed' | 'exempted';
export type ConsentStatus = 'received' | 'rejected' | 'valid' | 'expired' | 'terminatedByTpp';

const FINAL_TRANSACTION: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'ACCC', 'RJCT', 'CANC']);
const FINAL_SCA: ReadonlySet<ScaStatus> = new Set(['finalised', 'failed', 'exempted']);

export function isFinalScaStatus(status: ScaStatus): boolean {
  return FINAL_SCA.has(status);
}

/** Wrong passwords or one-time codes allowed before the authorisation fails. */
/** Attempts a bank allows for wrong passwords and one-time codes; the catalogue says (see `banks.ts`). */
export interface AttemptLimits {
  readonly loginAttempts: number;
  readonly oneTimeCodeAttempts: number;
}

/** Why a payment was rejected or cancelled; `code` is a NextGenPSD2/ISO-flavoured reason for the TPP. */
export interface StatusReason {
  readonly code: string;
  readonly text: string;
}

export interface AccountReference {
  readonly iban: string;
  readonly currency?: string;
}

/** The standard's payment services the sandbox banks serve (the `{payment-service}` path segment). */
export type PaymentService = 'payments' | 'bulk-payments';

/** One transfer to one creditor: the whole of a single payment, or one payment of a bulk. */
export interface Transfer {
  readonly instructedAmount: { readonly currency: string; readonly amount: string };
  readonly amountMinor: bigint;
  readonly creditorAccount: AccountReference;
  readonly creditorName: string;
  readonly creditorAddress: Readonly<Record<string, string>> | undefined;
  readonly creditorAgent: string | undefined;
  readonly remittanceInformationUnstructured: string | undefined;
  readonly endToEndIdentification: string | undefined;
}

/** What a bulk payment's body says besides its payments. */
export interface BulkDetails {
  readonly batchBookingPreferred: boolean | undefined;
  readonly debtorName: string | undefined;
  readonly requestedExecutionDate: string | undefined;
}

export interface PaymentData {
  /** In the request's order: one for a single payment, one per payment of a bulk. */
  readonly transfers: readonly Transfer[];
  /** The one currency of every transfer. */
  readonly currency: string;
  /** What the payer is debited in all: the sum of the transfers, in minor units. */
  readonly amountMinor: bigint;
  readonly debtorAccount: AccountReference | undefined;
  /** Set for a bulk payment only. */
  readonly bulk: BulkDetails | undefined;
}

/** Where the payer goes after the redirect approach, and the approach itself. */
interface ScaContext {
  readonly approach: ScaApproach;
  readonly redirectUri: string | undefined;
  readonly nokRedirectUri: string | undefined;
  /** PSU-ID sent by the TPP, if any. */
  readonly psuId: string | undefined;
  /** The test payer once identified. */
  readonly payerId: string | undefined;
  /** Wrong passwords so far, across all authorisations of the resource. */
  readonly failedPasswords: number;
  readonly authorisationIds: readonly string[];
}

export interface Payment extends ScaContext {
  readonly kind: 'payment';
  readonly id: string;
  readonly bank: string;
  /** Single (`payments`) or several payments authorised once (`bulk-payments`). */
  readonly service: PaymentService;
  readonly product: string;
  readonly data: PaymentData;
  readonly createdAt: Date;
  readonly status: TransactionStatus;
  readonly reason: StatusReason | undefined;
  /** The debtor account once known (from the request or chosen by the payer). */
  readonly debtorIban: string | undefined;
  readonly authorisedAt: Date | undefined;
  /** Set once the debit has been booked (or the payment rejected at execution). */
  readonly executed: boolean;
}

export interface ConsentAccess {
  readonly availableAccounts: 'allAccounts' | 'allAccountsWithOwnerName' | undefined;
  readonly availableAccountsWithBalance: 'allAccounts' | 'allAccountsWithOwnerName' | undefined;
  readonly allPsd2: 'allAccounts' | 'allAccountsWithOwnerName' | undefined;
  /** IBANs named in accounts / balances / transactions. */
  readonly accounts: readonly AccountReference[];
  readonly balances: readonly AccountReference[];
  readonly transactions: readonly AccountReference[];
}

export interface Consent extends ScaContext {
  readonly kind: 'consent';
  readonly id: string;
  readonly bank: string;
  readonly createdAt: Date;
  readonly access: ConsentAccess;
  readonly recurringIndicator: boolean;
  readonly validUntil: string;
  readonly frequencyPerDay: number;
  readonly combinedServiceIndicator: boolean;
  readonly status: ConsentStatus;
  readonly lastActionDate: string;
  /** Account resource ids the payer granted. */
  readonly grantedAccountIds: readonly string[];
}

/** Steps of the payer pages (redirect approach, and the decoupled "app"). */
export type PageStep = 'login' | 'account' | 'review' | 'method' | 'otp' | 'done';

export interface Authorisation {
  readonly id: string;
  readonly parentKind: 'payment' | 'consent';
  readonly parentId: string;
  readonly bank: string;
  readonly approach: ScaApproach;
  readonly createdAt: Date;
  readonly scaStatus: ScaStatus;
  readonly chosenMethodId: string | undefined;
  readonly failedCodes: number;
  /** Unguessable token in the payer-page URL (redirect and decoupled). */
  readonly pageToken: string;
  /** Per-authorisation anti-forgery token, carried in every form as a hidden field. */
  readonly formToken: string;
  readonly step: PageStep;
  /** A message for the payer on the next page render (wrong password, …). */
  readonly notice: string | undefined;
  /** Whether the payer finished with success (for the page that ends the flow). */
  readonly outcome: 'ok' | 'nok' | undefined;
}

export type Resource = Payment | Consent;

export interface StateOptions {
  readonly fixtures: SandboxFixtures;
  readonly clock: () => Date;
  /** How long a payer has to finish SCA before the resource is rejected. */
  readonly scaDeadlineMs: number;
  /** At most this many payments and consents are held; the oldest finished ones are evicted first. */
  readonly maxResources: number;
  /** The limits of a bank (by slug), as its catalogue entry says, so the bank and the service count alike. */
  readonly attemptLimits: (bank: string) => AttemptLimits;
}

export type CredentialCheck = 'ok' | 'wrong' | 'locked';

export class SandboxState {
  private readonly payments = new Map<string, Payment>();
  private readonly consents = new Map<string, Consent>();
  private readonly authorisations = new Map<string, Authorisation>();
  private readonly pageTokens = new Map<string, string>();
  private readonly payers = new Map<string, TestPayer>();
  /** Balances by IBAN, in each account's currency; a ledger per app so tests never share money. */
  private readonly ledger = new Ledger();
  private readonly accountsByIban = new Map<string, { payer: TestPayer; account: PayerAccount }>();
  /** The payer pages' steps and notices of the authorisations. */
  readonly pages = new PageProgressKeeper<PageStep, Exclude<PageStep, 'done'>>();

  constructor(readonly options: StateOptions) {
    for (const payer of options.fixtures.payers) {
      this.payers.set(payer.psuId, payer);
      for (const account of payer.accounts) {
        this.accountsByIban.set(account.iban, { payer, account });
        this.ledger.open(account.iban, toMinor(account.balance, account.currency) ?? 0n);
      }
    }
  }

  now(): Date {
    return this.options.clock();
  }

  payer(psuId: string | undefined): TestPayer | undefined {
    return psuId === undefined ? undefined : this.payers.get(psuId);
  }

  allPayers(): readonly TestPayer[] {
    return [...this.payers.values()];
  }

  balance(iban: string): bigint | undefined {
    return this.ledger.balance(iban);
  }

  accountOwner(iban: string): TestPayer | undefined {
    return this.accountsByIban.get(iban)?.payer;
  }

  // ---- resources -------------------------------------------------------------------------------------------

  addPayment(
    input: Omit<
      Payment,
      | 'kind'
      | 'id'
      | 'createdAt'
      | 'status'
      | 'reason'
      | 'authorisedAt'
      | 'executed'
      | 'failedPasswords'
      | 'authorisationIds'
      | 'payerId'
      | 'debtorIban'
    >,
  ): Payment {
    this.makeRoom();
    const payment: Payment = {
      ...input,
      kind: 'payment',
      id: randomUUID(),
      createdAt: this.now(),
      status: 'RCVD',
      reason: undefined,
      payerId: undefined,
      debtorIban: input.data.debtorAccount?.iban,
      authorisedAt: undefined,
      executed: false,
      failedPasswords: 0,
      authorisationIds: [],
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  addConsent(
    input: Omit<
      Consent,
      'kind' | 'id' | 'createdAt' | 'status' | 'lastActionDate' | 'grantedAccountIds' | 'failedPasswords' | 'authorisationIds' | 'payerId'
    >,
  ): Consent {
    this.makeRoom();
    const now = this.now();
    const consent: Consent = {
      ...input,
      kind: 'consent',
      id: randomUUID(),
      createdAt: now,
      status: 'received',
      lastActionDate: isoDate(now),
      grantedAccountIds: [],
      payerId: undefined,
      failedPasswords: 0,
      authorisationIds: [],
    };
    this.consents.set(consent.id, consent);
    return consent;
  }

  /** A payment, brought up to date with the clock (expiry, execution, settlement). */
  payment(id: string): Payment | undefined {
    const payment = this.payments.get(id);
    if (payment !== undefined) this.refreshPayment(payment);
    return payment;
  }

  consent(id: string): Consent | undefined {
    const consent = this.consents.get(id);
    if (consent !== undefined) this.refreshConsent(consent);
    return consent;
  }

  /** A payment as it is, without bringing it up to date (to find the payer a call is about before admitting it). */
  peekPayment(id: string): Payment | undefined {
    return this.payments.get(id);
  }

  /** A consent as it is, without bringing it up to date. */
  peekConsent(id: string): Consent | undefined {
    return this.consents.get(id);
  }

  /** An authorisation of a resource; undefined when the id is not one of the resource's. */
  authorisationOf(resource: Resource, authorisationId: string): Authorisation | undefined {
    return resource.authorisationIds.includes(authorisationId) ? this.authorisations.get(authorisationId) : undefined;
  }

  parentOf(authorisation: Authorisation): Resource | undefined {
    return authorisation.parentKind === 'payment' ? this.payment(authorisation.parentId) : this.consent(authorisation.parentId);
  }

  authorisationByPageToken(token: string): Authorisation | undefined {
    const id = this.pageTokens.get(token);
    return id === undefined ? undefined : this.authorisations.get(id);
  }

  /** Brings every payment up to date, so that balances reflect executions due by now. */
  refreshAll(): void {
    for (const payment of this.payments.values()) this.refreshPayment(payment);
    for (const consent of this.consents.values()) this.refreshConsent(consent);
  }

  get size(): number {
    return this.payments.size + this.consents.size;
  }

  private makeRoom(): void {
    while (this.size >= this.options.maxResources) {
      const victim = this.oldestFinished() ?? this.oldest();
      if (victim === undefined) return;
      this.evict(victim);
    }
  }

  private oldestFinished(): Resource | undefined {
    // Maps iterate in insertion order, so the first finished entry met is the oldest finished one of its kind.
    let oldest: Resource | undefined;
    for (const payment of this.payments.values()) {
      this.refreshPayment(payment);
      if (FINAL_TRANSACTION.has(payment.status)) {
        oldest = payment;
        break;
      }
    }
    for (const consent of this.consents.values()) {
      this.refreshConsent(consent);
      if (consent.status !== 'received') {
        if (oldest === undefined || consent.createdAt < oldest.createdAt) oldest = consent;
        break;
      }
    }
    return oldest;
  }

  private oldest(): Resource | undefined {
    const payment = this.payments.values().next().value;
    const consent = this.consents.values().next().value;
    if (payment === undefined) return consent;
    if (consent === undefined) return payment;
    return consent.createdAt < payment.createdAt ? consent : payment;
  }

  private evict(resource: Resource): void {
    for (const authorisationId of resource.authorisationIds) {
      const authorisation = this.authorisations.get(authorisationId);
      if (authorisation !== undefined) this.pageTokens.delete(authorisation.pageToken);
      this.authorisations.delete(authorisationId);
    }
    if (resource.kind === 'payment') this.payments.delete(resource.id);
    else this.consents.delete(resource.id);
  }

  // ---- time-driven transitions -----------------------------------------------------------------------------

  private deadlinePassed(resource: Resource): boolean {
    return this.now().getTime() - resource.createdAt.getTime() > this.options.scaDeadlineMs;
  }

  private refreshPayment(payment: Payment): void {
    if (payment.status === 'RCVD' && this.deadlinePassed(payment)) {
      this.failOpenAuthorisations(payment);
      this.finishPayment(payment, 'RJCT', { code: 'RESOURCE_EXPIRED', text: 'The payer did not complete the authorisation in time.' });
      return;
    }
    if ((payment.status !== 'ACTC' && payment.status !== 'ACSP') || payment.authorisedAt === undefined) return;
    const outcome = this.payer(payment.payerId)?.outcome;
    if (outcome === undefined) return;
    const timeline = executionTimeline(outcome, this.now().getTime() - payment.authorisedAt.getTime());
    if (!timeline.executionDue) return;
    if (!payment.executed && !this.execute(payment, outcome.execution)) return;
    if (payment.status === 'ACSP' && timeline.settled) writable(payment).status = outcome.finalStatus ?? 'ACSC';
  }

  /** Execution: the bank's own rejection, or the funds check and booking; false when the payment was rejected. */
  private execute(payment: Payment, execution: 'settle' | 'reject' | 'pending'): boolean {
    writable(payment).executed = true;
    if (execution === 'reject') {
      this.finishPayment(payment, 'RJCT', { code: 'PAYMENT_FAILED', text: 'The bank rejected the payment at execution.' });
      return false;
    }
    const { transfers, currency } = payment.data;
    // A payment to another test payer's account is credited there when that account holds the payment's currency.
    const bookings = transfers.map(({ creditorAccount, amountMinor }) => ({
      amountMinor,
      creditor: this.accountsByIban.get(creditorAccount.iban)?.account.currency === currency ? creditorAccount.iban : undefined,
    }));
    // A bulk is booked whole or not at all: the funds check is on its total (each transfer is still its own booking).
    switch (this.ledger.execute(payment.debtorIban, bookings)) {
      case 'unknownDebtor':
        this.finishPayment(payment, 'RJCT', { code: 'PAYMENT_FAILED', text: 'The debtor account is unknown.' });
        return false;
      case 'insufficientFunds':
        this.finishPayment(payment, 'RJCT', { code: 'FUNDS_NOT_AVAILABLE', text: 'Insufficient funds on the debtor account.' });
        return false;
      case 'booked':
        writable(payment).status = 'ACSP';
        return true;
    }
  }

  private refreshConsent(consent: Consent): void {
    if (consent.status === 'received' && this.deadlinePassed(consent)) {
      this.failOpenAuthorisations(consent);
      this.setConsentStatus(consent, 'rejected');
    } else if (consent.status === 'valid' && isoDate(this.now()) > consent.validUntil) {
      this.setConsentStatus(consent, 'expired');
    }
  }

  private setConsentStatus(consent: Consent, status: ConsentStatus): void {
    writable(consent).status = status;
    this.consentUsed(consent);
  }

  private failOpenAuthorisations(resource: Resource): void {
    for (const id of resource.authorisationIds) {
      const authorisation = this.authorisations.get(id);
      if (authorisation !== undefined && !isFinalScaStatus(authorisation.scaStatus)) this.endAuthorisation(authorisation, 'failed', 'nok');
    }
  }

  private endAuthorisation(authorisation: Authorisation, scaStatus: 'finalised' | 'exempted' | 'failed', outcome: 'ok' | 'nok'): void {
    const record = writable(authorisation);
    record.scaStatus = scaStatus;
    record.step = 'done';
    record.outcome = outcome;
  }

  private finishPayment(payment: Payment, status: 'RJCT' | 'CANC', reason: StatusReason): void {
    const record = writable(payment);
    record.status = status;
    record.reason = reason;
  }

  // ---- authorisation -----------------------------------------------------------------------------------------

  createAuthorisation(resource: Resource): Authorisation {
    const authorisation: Authorisation = {
      id: randomUUID(),
      parentKind: resource.kind,
      parentId: resource.id,
      bank: resource.bank,
      approach: resource.approach,
      createdAt: this.now(),
      scaStatus: resource.payerId === undefined ? 'received' : 'psuIdentified',
      chosenMethodId: undefined,
      failedCodes: 0,
      pageToken: randomBytes(24).toString('base64url'),
      formToken: randomBytes(24).toString('base64url'),
      // The bank's app stands in for login and second factor in the decoupled approach: the payer only reviews
      // and approves there.
      step: resource.approach !== 'DECOUPLED' ? 'login' : this.needsAccountChoice(resource) ? 'account' : 'review',
      notice: undefined,
      outcome: undefined,
    };
    this.authorisations.set(authorisation.id, authorisation);
    this.pageTokens.set(authorisation.pageToken, authorisation.id);
    writable(resource).authorisationIds = [...resource.authorisationIds, authorisation.id];
    return authorisation;
  }

  /** Whether the resource still accepts SCA work (not final, not already authorised). */
  isOpen(resource: Resource): boolean {
    return resource.kind === 'payment' ? resource.status === 'RCVD' : resource.status === 'received';
  }

  /** Identifies the payer of a resource; false when the PSU-ID is unknown or contradicts an earlier one. */
  identify(resource: Resource, psuId: string): boolean {
    const payer = this.payers.get(psuId);
    if (payer === undefined) return false;
    if (resource.payerId !== undefined && resource.payerId !== psuId) return false;
    if (resource.psuId !== undefined && resource.psuId !== psuId) return false;
    writable(resource).payerId = psuId;
    return true;
  }

  /** In the redirect approach a PSU-ID is only a hint (the payer logs in at the bank anyway): the first one is kept. */
  notePsuIdHint(resource: Resource, psuId: string): void {
    if (resource.psuId === undefined) writable(resource).psuId = psuId;
  }

  /**
   * Checks a password. Wrong passwords count against the resource; the last one the bank allows fails every open
   * authorisation and rejects the resource.
   */
  checkPassword(resource: Resource, psuId: string | undefined, password: string): CredentialCheck {
    const candidate = psuId ?? resource.payerId ?? resource.psuId;
    const payer = this.payer(candidate);
    if (payer !== undefined && secretEquals(payer.password, password) && candidate !== undefined && this.identify(resource, candidate)) {
      return 'ok';
    }
    writable(resource).failedPasswords = resource.failedPasswords + 1;
    if (resource.failedPasswords >= this.options.attemptLimits(resource.bank).loginAttempts) {
      this.failResource(resource, { code: 'PSU_CREDENTIALS_INVALID', text: 'Too many wrong passwords.' });
      return 'locked';
    }
    return 'wrong';
  }

  /** Checks a one-time code on an authorisation, with the same limit. */
  checkCode(authorisation: Authorisation, resource: Resource, code: string): CredentialCheck | 'scaFailed' {
    const payer = this.payer(resource.payerId);
    if (payer === undefined) return 'wrong';
    if (payer.outcome.scaFails) {
      this.failResource(resource, { code: 'SCA_INVALID', text: 'Strong customer authentication failed.' }, authorisation);
      return 'scaFailed';
    }
    if (secretEquals(payer.otp, code)) return 'ok';
    writable(authorisation).failedCodes = authorisation.failedCodes + 1;
    if (authorisation.failedCodes >= this.options.attemptLimits(resource.bank).oneTimeCodeAttempts) {
      this.failResource(resource, { code: 'SCA_INVALID', text: 'Too many wrong one-time codes.' }, authorisation);
      return 'locked';
    }
    return 'wrong';
  }

  /** Password attempts the payer has left on a resource (for the login page's notice). */
  passwordAttemptsLeft(resource: Resource): number {
    return this.options.attemptLimits(resource.bank).loginAttempts - resource.failedPasswords;
  }

  /** One-time code attempts left on an authorisation (for the code page). */
  codeAttemptsLeft(authorisation: Authorisation, resource: Resource): number {
    return this.options.attemptLimits(resource.bank).oneTimeCodeAttempts - authorisation.failedCodes;
  }

  /** The PSU identification arrived (no password yet). */
  markIdentified(authorisation: Authorisation): void {
    writable(authorisation).scaStatus = 'psuIdentified';
  }

  /** The password was right; the payer has several SCA methods to choose from. */
  markAuthenticated(authorisation: Authorisation): void {
    writable(authorisation).scaStatus = 'psuAuthenticated';
  }

  /** The SCA method is chosen (by the payer, or because it is the only one): the code is sent by it. */
  selectScaMethod(authorisation: Authorisation, methodId: string): void {
    const record = writable(authorisation);
    record.chosenMethodId = methodId;
    record.scaStatus = 'scaMethodSelected';
  }

  /** Decoupled SCA is under way in the bank's app. */
  markDecoupledStarted(authorisation: Authorisation): void {
    writable(authorisation).scaStatus = 'started';
  }

  // ---- payer pages -------------------------------------------------------------------------------------------

  /** Ends the pages of an authorisation whose resource was decided meanwhile (expired, cancelled by the TPP). */
  closeStalePages(authorisation: Authorisation): void {
    const record = writable(authorisation);
    record.step = 'done';
    record.outcome = 'nok';
  }

  // ---- accounts ----------------------------------------------------------------------------------------------

  scaMethods(resource: Resource): readonly ScaMethod[] {
    return this.payer(resource.payerId)?.scaMethods ?? [];
  }

  /** Accounts of the identified payer that can pay this resource (same currency), or all for a consent. */
  eligibleAccounts(resource: Resource): readonly PayerAccount[] {
    const payer = this.payer(resource.payerId);
    if (payer === undefined) return [];
    if (resource.kind === 'consent') return payer.accounts;
    return payer.accounts.filter((account) => account.currency === resource.data.currency);
  }

  needsAccountChoice(resource: Resource): boolean {
    if (resource.kind === 'consent') return resource.payerId !== undefined;
    return resource.debtorIban === undefined && this.eligibleAccounts(resource).length > 1;
  }

  /**
   * Settles the debtor account after the payer is known: a requested account must be the payer's own, in the
   * payment's currency; without one, a single eligible account is taken. Returns a reason when the payment
   * cannot go on.
   */
  resolveDebtor(payment: Payment, pickFirst: boolean): StatusReason | undefined {
    const eligible = this.eligibleAccounts(payment);
    if (payment.debtorIban !== undefined) {
      const owned = eligible.find((account) => account.iban === payment.debtorIban);
      return owned === undefined
        ? { code: 'PAYMENT_FAILED', text: 'The debtor account does not belong to this payer or has another currency.' }
        : undefined;
    }
    if (eligible.length === 0) {
      return { code: 'PAYMENT_FAILED', text: `The payer has no account in ${payment.data.currency}.` };
    }
    if (eligible.length === 1 || pickFirst) writable(payment).debtorIban = eligible[0]?.iban;
    return undefined;
  }

  chooseAccount(payment: Payment, resourceId: string): boolean {
    const account = this.eligibleAccounts(payment).find((candidate) => candidate.resourceId === resourceId);
    if (account === undefined) return false;
    writable(payment).debtorIban = account.iban;
    return true;
  }

  grantAccounts(consent: Consent, resourceIds: readonly string[]): boolean {
    const granted = this.consentAccounts(consent).filter((account) => resourceIds.includes(account.resourceId));
    if (granted.length === 0 || granted.length !== resourceIds.length) return false;
    writable(consent).grantedAccountIds = granted.map((account) => account.resourceId);
    return true;
  }

  /** Without a choice by the payer (embedded, decoupled), a consent covers every account the TPP asked for. */
  grantRequestedAccountsUnlessChosen(consent: Consent): void {
    if (consent.grantedAccountIds.length === 0) {
      writable(consent).grantedAccountIds = this.consentAccounts(consent).map((account) => account.resourceId);
    }
  }

  /** Accounts a consent may show before the payer picks (all the payer's accounts the TPP asked for). */
  consentAccounts(consent: Consent): readonly PayerAccount[] {
    const named = new Set(
      [...consent.access.accounts, ...consent.access.balances, ...consent.access.transactions].map((reference) => reference.iban),
    );
    return this.eligibleAccounts(consent).filter((account) => named.size === 0 || named.has(account.iban));
  }

  /** The TPP used the consent (read accounts): its `lastActionDate` is today. */
  consentUsed(consent: Consent): void {
    writable(consent).lastActionDate = isoDate(this.now());
  }

  // ---- outcomes ----------------------------------------------------------------------------------------------

  /** SCA done: the payment is accepted for technical validation, the consent becomes valid. */
  completeAuthorisation(authorisation: Authorisation, resource: Resource, status: 'finalised' | 'exempted'): void {
    this.endAuthorisation(authorisation, status, 'ok');
    if (resource.kind === 'payment') {
      const record = writable(resource);
      record.status = 'ACTC';
      record.authorisedAt = this.now();
      this.refreshPayment(resource);
    } else {
      this.grantRequestedAccountsUnlessChosen(resource);
      this.setConsentStatus(resource, 'valid');
    }
  }

  /** SCA failed or the payer gave up: the authorisation fails and the resource is rejected (or cancelled). */
  failResource(resource: Resource, reason: StatusReason, authorisation?: Authorisation, cancelledByPayer = false): void {
    if (authorisation !== undefined) this.endAuthorisation(authorisation, 'failed', 'nok');
    this.failOpenAuthorisations(resource);
    if (resource.kind === 'payment') {
      if (resource.status === 'RCVD') this.finishPayment(resource, cancelledByPayer ? 'CANC' : 'RJCT', reason);
    } else if (resource.status === 'received') {
      this.setConsentStatus(resource, 'rejected');
    }
  }

  /** Cancellation by the TPP (DELETE): only before execution. */
  cancelPayment(payment: Payment): boolean {
    if (payment.status !== 'RCVD' && !(payment.status === 'ACTC' && !payment.executed)) return false;
    this.failOpenAuthorisations(payment);
    this.finishPayment(payment, 'CANC', { code: 'CANCELLED', text: 'Cancelled by the TPP.' });
    return true;
  }

  /** The TPP deletes a consent: open authorisations fail, and the consent ends whatever its status. */
  terminateConsent(consent: Consent): void {
    this.failResource(consent, { code: 'CONSENT_INVALID', text: 'Terminated by the TPP.' });
    this.setConsentStatus(consent, 'terminatedByTpp');
  }
}

/** The payment's path at its bank (`/v1/{payment-service}/{payment-product}/{paymentId}`), for links and notifications. */
export function paymentPath(payment: Payment): string {
  return `/v1/${payment.service}/${payment.product}/${payment.id}`;
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Compares secrets in constant time, so response timing does not leak how much of a password matched. */
function secretEquals(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
