/**
 * The UK sandbox banks' memory and every status rule they follow: registered clients, tokens, authorisation
 * sessions (payer pages and CIBA requests), payment consents, payments, idempotency records and the test payers'
 * GBP balances. The test payers are the Berlin Group sandbox's (same ids, passwords and outcomes, from
 * `../shared/fixtures/test-payers.json`); each of their accounts is held here as a GBP account with a sort code and
 * account number, with the same opening balance, in a ledger of this app's own. Consents, payments and sessions are
 * handed out read-only: every change to them is made by a method of `UkSandboxState`.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import type { PayerOutcome, SandboxFixtures, TestPayer } from '../shared/fixtures.js';
import { executionTimeline, Ledger } from '../shared/ledger.js';
import { toMinor } from '../shared/money.js';
import { PageProgressKeeper } from '../shared/page-progress.js';
import { writable } from '../shared/writable.js';

/** Sort code of every sandbox account (a made-up one). */
export const SANDBOX_SORT_CODE = '040004';
/** Wrong passwords allowed before the authorisation fails. */
export const MAX_PASSWORD_ATTEMPTS = 3;
/** Idempotency records last this long (profile: "preceding 24 hours"). */
const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;
/** Lifetime of access tokens and authorisation codes. */
export const ACCESS_TOKEN_SECONDS = 3600;
const CODE_MS = 60_000;
/** How long a CIBA request waits for the payer. */
export const CIBA_EXPIRES_SECONDS = 600;

export interface UkAccount {
  /** The Berlin Group fixture's account id, kept as this account's id. */
  readonly accountId: string;
  readonly sortCodeAccountNumber: string;
  readonly name: string;
  readonly product: string;
}

export interface RegisteredClient {
  readonly clientId: string;
  readonly jwks: JSONWebKeySet;
  /** Redirect URIs the client may use; empty: any http(s) URI (sandbox convenience). */
  readonly redirectUris: readonly string[];
  /** The `http://openbanking.org.uk/iss` its message signatures carry; default the client id. */
  readonly signingIssuer: string;
  /** Set for a client registered through dynamic client registration (registration.ts). */
  readonly registration?: DynamicRegistration;
}

/** What dynamic client registration keeps of a client: its metadata as answered, and how it authenticates. */
export interface DynamicRegistration {
  /** The registration as the bank answers it (`GET /register/{ClientId}`), without the access token. */
  readonly answer: Readonly<Record<string, unknown>>;
  /** RFC 7592's bearer token for reading, updating and deleting the registration. */
  readonly registrationAccessToken: string;
  readonly tokenEndpointAuthMethod: 'private_key_jwt' | 'tls_client_auth';
  /** `tls_client_auth`: the DN the client's TLS certificate must carry at the token endpoint. */
  readonly tlsClientAuthSubjectDn: string | undefined;
}

export type ConsentStatus = 'AWAU' | 'AUTH' | 'RJCT';
export type PaymentStatus = 'RCVD' | 'PDNG' | 'ACSP' | 'ACSC' | 'ACCC' | 'RJCT';

export interface AccountIdentification {
  readonly SchemeName: string;
  readonly Identification: string;
  readonly Name?: string;
  readonly SecondaryIdentification?: string;
}

/** The consent's Initiation as the TPP sent it (echoed back verbatim, compared for POST /domestic-payments). */
export type Initiation = Record<string, unknown> & {
  readonly InstructionIdentification: string;
  readonly EndToEndIdentification: string;
  readonly InstructedAmount: { readonly Amount: string; readonly Currency: string };
  readonly CreditorAccount: AccountIdentification;
  readonly DebtorAccount?: AccountIdentification;
  readonly LocalInstrument?: string;
};

export interface StatusReason {
  readonly StatusReasonCode: string;
  readonly StatusReasonDescription: string;
}

export interface Consent {
  readonly id: string;
  readonly bank: string;
  readonly clientId: string;
  readonly createdAt: Date;
  readonly initiation: Initiation;
  readonly risk: Record<string, unknown>;
  readonly readRefundAccount: 'Yes' | 'No' | undefined;
  readonly amountMinor: bigint;
  readonly status: ConsentStatus;
  readonly statusUpdatedAt: Date;
  readonly reason: StatusReason | undefined;
  readonly payerId: string | undefined;
  /** The debtor account once the payer authorised (named by the TPP or chosen at the bank). */
  readonly debtorAccountId: string | undefined;
  /** The payment created from this consent (a consent pays once). */
  readonly paymentId: string | undefined;
  readonly failedPasswords: number;
}

export interface Payment {
  readonly id: string;
  readonly bank: string;
  readonly clientId: string;
  readonly consentId: string;
  readonly createdAt: Date;
  readonly initiation: Initiation;
  readonly amountMinor: bigint;
  readonly payerId: string;
  readonly debtorAccountId: string;
  readonly status: PaymentStatus;
  readonly statusUpdatedAt: Date;
  readonly reason: StatusReason | undefined;
  /** Set once the debit was booked or the payment rejected at execution. */
  readonly executed: boolean;
}

export type SessionStep = 'login' | 'account' | 'review' | 'done';

/** A payer at the bank's pages, authorising one consent through `/authorize` (redirect) or CIBA. */
export interface AuthorisationSession {
  readonly id: string;
  readonly bank: string;
  readonly consentId: string;
  readonly clientId: string;
  readonly kind: 'redirect' | 'ciba';
  /** Redirect flow: where and how to answer. */
  readonly redirectUri: string | undefined;
  readonly state: string | undefined;
  readonly nonce: string | undefined;
  readonly responseMode: 'fragment' | 'form_post';
  /** CIBA: the payer the TPP named (login_hint / login_hint_token). */
  readonly hintedPayerId: string | undefined;
  /** CIBA: the request id the TPP polls with. */
  readonly authReqId: string | undefined;
  readonly expiresAt: Date;
  /** Unguessable token in the page URL, and the anti-forgery token of its forms. */
  readonly pageToken: string;
  readonly formToken: string;
  readonly step: SessionStep;
  readonly notice: string | undefined;
  readonly outcome: 'approved' | 'denied' | undefined;
  /** Once approved (redirect): the authorisation code handed to the TPP. */
  readonly code: string | undefined;
}

export interface AuthorisationCode {
  readonly code: string;
  readonly clientId: string;
  readonly consentId: string;
  readonly redirectUri: string;
  readonly nonce: string | undefined;
  readonly expiresAt: Date;
}

export interface AccessToken {
  readonly token: string;
  readonly clientId: string;
  readonly scope: string;
  readonly grant: 'client_credentials' | 'authorization_code' | 'ciba';
  /** Tokens from a payer's authorisation are bound to the consent they authorised. */
  readonly consentId: string | undefined;
  readonly expiresAt: Date;
}

/** A signed-in payer in the sandbox "bank app" (decoupled bank), by session token. */
export interface AppSession {
  readonly token: string;
  readonly bank: string;
  readonly payerId: string;
  readonly formToken: string;
  readonly expiresAt: Date;
}

interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly resourceId: string;
  readonly at: Date;
}

export interface UkStateOptions {
  readonly fixtures: SandboxFixtures;
  readonly clock: () => Date;
  /** Time the payer has to authorise a consent before it is rejected. */
  readonly authorisationDeadlineMs: number;
  /** At most this many consents are held (with their payments); the oldest finished ones go first. */
  readonly maxConsents: number;
}

export type PasswordCheck = 'ok' | 'wrong' | 'locked';

export class UkSandboxState {
  private readonly clients = new Map<string, RegisteredClient>();
  private readonly consents = new Map<string, Consent>();
  private readonly payments = new Map<string, Payment>();
  private readonly sessions = new Map<string, AuthorisationSession>();
  private readonly sessionsByPageToken = new Map<string, string>();
  private readonly sessionsByAuthReqId = new Map<string, string>();
  private readonly codes = new Map<string, AuthorisationCode>();
  private readonly tokens = new Map<string, AccessToken>();
  private readonly appSessions = new Map<string, AppSession>();
  private readonly idempotency = new Map<string, IdempotencyRecord>();
  private readonly payers = new Map<string, TestPayer>();
  private readonly accounts = new Map<string, { payer: TestPayer; account: UkAccount; currencyOfFixture: string }>();
  private readonly accountsByIdentification = new Map<string, string>();
  /** Balances in pence, by account id; a ledger per app so tests never share money. */
  private readonly ledger = new Ledger();
  /** The payer pages' steps and notices of the authorisation sessions. */
  readonly pages = new PageProgressKeeper<SessionStep, Exclude<SessionStep, 'done'>>();

  constructor(readonly options: UkStateOptions) {
    let serial = 0;
    for (const payer of options.fixtures.payers) {
      this.payers.set(payer.psuId, payer);
      for (const fixtureAccount of payer.accounts) {
        serial += 1;
        const account: UkAccount = {
          accountId: fixtureAccount.resourceId,
          sortCodeAccountNumber: `${SANDBOX_SORT_CODE}${String(10_000_000 + serial * 1_001).padStart(8, '0')}`,
          name: fixtureAccount.name,
          product: fixtureAccount.product,
        };
        this.accounts.set(account.accountId, { payer, account, currencyOfFixture: fixtureAccount.currency });
        this.accountsByIdentification.set(account.sortCodeAccountNumber, account.accountId);
        // Same figure as the Berlin Group sandbox's opening balance, held in GBP.
        this.ledger.open(account.accountId, toMinor(fixtureAccount.balance, 'GBP') ?? 0n);
      }
    }
  }

  now(): Date {
    return this.options.clock();
  }

  // ---- payers and accounts ----------------------------------------------------------------------------------

  payer(psuId: string | undefined): TestPayer | undefined {
    return psuId === undefined ? undefined : this.payers.get(psuId);
  }

  allPayers(): readonly TestPayer[] {
    return [...this.payers.values()];
  }

  /** The payer's accounts at a bank: all of them where the payer chooses, else the main (first) one. */
  accountsOf(payerId: string, accountChoice: boolean): readonly UkAccount[] {
    const all = [...this.accounts.values()].filter((entry) => entry.payer.psuId === payerId).map((entry) => entry.account);
    return accountChoice ? all : all.slice(0, 1);
  }

  account(accountId: string | undefined): UkAccount | undefined {
    return accountId === undefined ? undefined : this.accounts.get(accountId)?.account;
  }

  /** The name of the test payer who owns the account (the account holder's name a bank reports). */
  accountHolderName(accountId: string): string | undefined {
    return this.accounts.get(accountId)?.payer.name;
  }

  accountByIdentification(identification: string): UkAccount | undefined {
    const id = this.accountsByIdentification.get(identification);
    return id === undefined ? undefined : this.account(id);
  }

  balance(accountId: string): bigint | undefined {
    this.refreshAll();
    return this.ledger.balance(accountId);
  }

  /** Constant-time password check; wrong passwords count per consent. */
  checkPassword(consent: Consent, psuId: string, password: string): PasswordCheck {
    const payer = this.payers.get(psuId);
    if (payer !== undefined && secretEquals(payer.password, password)) return 'ok';
    writable(consent).failedPasswords = consent.failedPasswords + 1;
    return consent.failedPasswords >= MAX_PASSWORD_ATTEMPTS ? 'locked' : 'wrong';
  }

  checkAppLogin(psuId: string, password: string): TestPayer | undefined {
    const payer = this.payers.get(psuId);
    return payer !== undefined && secretEquals(payer.password, password) ? payer : undefined;
  }

  // ---- clients ------------------------------------------------------------------------------------------------

  registerClient(client: RegisteredClient): void {
    this.clients.set(client.clientId, client);
  }

  client(clientId: string): RegisteredClient | undefined {
    return this.clients.get(clientId);
  }

  /** The client whose registration access token this is (compared in constant time). */
  clientByRegistrationToken(token: string): RegisteredClient | undefined {
    return [...this.clients.values()].find(
      (client) => client.registration !== undefined && secretEquals(client.registration.registrationAccessToken, token),
    );
  }

  /** Deletes a client and every access token issued to it (RFC 7592 "delete"). */
  removeClient(clientId: string): void {
    this.clients.delete(clientId);
    for (const [value, token] of this.tokens) if (token.clientId === clientId) this.tokens.delete(value);
  }

  /** Revokes one access token (an unknown client asked with it: DCR "immediately revokes the access token"). */
  revokeToken(value: string): void {
    this.tokens.delete(value);
  }

  // ---- tokens and codes ---------------------------------------------------------------------------------------

  issueToken(input: Omit<AccessToken, 'token' | 'expiresAt'>): AccessToken {
    const token: AccessToken = { ...input, token: secret(), expiresAt: new Date(this.now().getTime() + ACCESS_TOKEN_SECONDS * 1000) };
    this.tokens.set(token.token, token);
    return token;
  }

  token(value: string): AccessToken | undefined {
    const token = this.tokens.get(value);
    if (token === undefined) return undefined;
    if (token.expiresAt <= this.now()) {
      this.tokens.delete(value);
      return undefined;
    }
    return token;
  }

  issueCode(input: Omit<AuthorisationCode, 'code' | 'expiresAt'>): AuthorisationCode {
    const code: AuthorisationCode = { ...input, code: secret(), expiresAt: new Date(this.now().getTime() + CODE_MS) };
    this.codes.set(code.code, code);
    return code;
  }

  /** Codes are single-use: taking one removes it. */
  takeCode(value: string): AuthorisationCode | undefined {
    const code = this.codes.get(value);
    this.codes.delete(value);
    return code === undefined || code.expiresAt <= this.now() ? undefined : code;
  }

  // ---- consents -------------------------------------------------------------------------------------------------

  addConsent(input: Pick<Consent, 'bank' | 'clientId' | 'initiation' | 'risk' | 'readRefundAccount' | 'amountMinor'>): Consent {
    this.makeRoom();
    const now = this.now();
    const consent: Consent = {
      ...input,
      id: `pdc-${randomUUID()}`,
      createdAt: now,
      status: 'AWAU',
      statusUpdatedAt: now,
      reason: undefined,
      payerId: undefined,
      debtorAccountId: undefined,
      paymentId: undefined,
      failedPasswords: 0,
    };
    this.consents.set(consent.id, consent);
    return consent;
  }

  /**
   * Keeps a long-running sandbox bounded: drops expired tokens, codes, sessions and idempotency records, and when
   * the consent limit is reached, the oldest consents that are finished (with their payments) first.
   */
  private makeRoom(): void {
    const now = this.now();
    for (const [key, token] of this.tokens) if (token.expiresAt <= now) this.tokens.delete(key);
    for (const [key, code] of this.codes) if (code.expiresAt <= now) this.codes.delete(key);
    for (const [key, session] of this.appSessions) if (session.expiresAt <= now) this.appSessions.delete(key);
    // Authorisation sessions linger an hour past expiry, so a late CIBA poll still learns what happened.
    for (const session of [...this.sessions.values()])
      if (session.expiresAt.getTime() + 3600_000 <= now.getTime()) this.dropSession(session);
    for (const [key, record] of this.idempotency) if (now.getTime() - record.at.getTime() > IDEMPOTENCY_MS) this.idempotency.delete(key);
    while (this.consents.size >= this.options.maxConsents) {
      let victim: Consent | undefined;
      for (const consent of this.consents.values()) {
        this.refreshConsent(consent);
        const payment = consent.paymentId === undefined ? undefined : this.payment(consent.paymentId);
        const finished = consent.status === 'RJCT' || (payment !== undefined && ['ACSC', 'ACCC', 'RJCT'].includes(payment.status));
        if (finished) {
          victim = consent;
          break;
        }
      }
      victim ??= this.consents.values().next().value;
      if (victim === undefined) return;
      this.evict(victim);
    }
  }

  private evict(consent: Consent): void {
    this.consents.delete(consent.id);
    if (consent.paymentId !== undefined) this.payments.delete(consent.paymentId);
    for (const session of [...this.sessions.values()]) if (session.consentId === consent.id) this.dropSession(session);
  }

  private dropSession(session: AuthorisationSession): void {
    this.sessions.delete(session.id);
    this.sessionsByPageToken.delete(session.pageToken);
    if (session.authReqId !== undefined) this.sessionsByAuthReqId.delete(session.authReqId);
  }

  consent(id: string): Consent | undefined {
    const consent = this.consents.get(id);
    if (consent !== undefined) this.refreshConsent(consent);
    return consent;
  }

  private refreshConsent(consent: Consent): void {
    if (consent.status === 'AWAU' && this.now().getTime() - consent.createdAt.getTime() > this.options.authorisationDeadlineMs) {
      this.rejectConsent(consent, {
        StatusReasonCode: 'U036',
        StatusReasonDescription: 'The payer did not authorise the consent in time.',
      });
    }
  }

  /** A consent as it is, without bringing it up to date (to find the payer a call is about before admitting it). */
  peekConsent(id: string): Consent | undefined {
    return this.consents.get(id);
  }

  /** The payer logged in at the bank's pages to authorise the consent. */
  identifyPayer(consent: Consent, payerId: string): void {
    writable(consent).payerId = payerId;
  }

  /** The debtor account, chosen by the payer or the only one that fits. */
  chooseDebtorAccount(consent: Consent, accountId: string): void {
    writable(consent).debtorAccountId = accountId;
  }

  /** The payer approved: the consent is AUTH, with the debtor account set. */
  authoriseConsent(consent: Consent, payerId: string, debtorAccountId: string): void {
    const record = writable(consent);
    record.payerId = payerId;
    record.debtorAccountId = debtorAccountId;
    record.status = 'AUTH';
    record.statusUpdatedAt = this.now();
    record.reason = undefined;
  }

  rejectConsent(consent: Consent, reason: StatusReason): void {
    if (consent.status !== 'AWAU') return;
    const record = writable(consent);
    record.status = 'RJCT';
    record.statusUpdatedAt = this.now();
    record.reason = reason;
    for (const session of this.sessions.values()) {
      if (session.consentId === consent.id && session.step !== 'done') this.denySession(session);
    }
  }

  // ---- authorisation sessions ---------------------------------------------------------------------------------

  openSession(
    input: Omit<
      AuthorisationSession,
      'id' | 'pageToken' | 'formToken' | 'step' | 'notice' | 'outcome' | 'code' | 'expiresAt' | 'authReqId'
    > & { readonly expiresInSeconds: number },
  ): AuthorisationSession {
    const { expiresInSeconds, ...rest } = input;
    const session: AuthorisationSession = {
      ...rest,
      id: randomUUID(),
      authReqId: input.kind === 'ciba' ? randomUUID() : undefined,
      expiresAt: new Date(this.now().getTime() + expiresInSeconds * 1000),
      pageToken: secret(),
      formToken: secret(),
      step: 'login',
      notice: undefined,
      outcome: undefined,
      code: undefined,
    };
    this.sessions.set(session.id, session);
    this.sessionsByPageToken.set(session.pageToken, session.id);
    if (session.authReqId !== undefined) this.sessionsByAuthReqId.set(session.authReqId, session.id);
    return session;
  }

  /** The session ends without the payer's approval. */
  denySession(session: AuthorisationSession): void {
    const record = writable(session);
    record.step = 'done';
    record.outcome = 'denied';
  }

  /** Ends the page of a session whose consent was decided meanwhile or that ran out of time (denied, unless decided). */
  closeStaleSession(session: AuthorisationSession): void {
    const record = writable(session);
    record.step = 'done';
    record.outcome ??= 'denied';
  }

  /** The payer approved; a redirect session carries the authorisation code handed to the TPP. */
  approveSession(session: AuthorisationSession, code?: string): void {
    const record = writable(session);
    if (code !== undefined) record.code = code;
    record.step = 'done';
    record.outcome = 'approved';
  }

  /** A CIBA session's grant is exchanged once: its code slot marks the exchange. */
  redeemCibaSession(session: AuthorisationSession): void {
    writable(session).code = 'redeemed';
  }

  sessionByPageToken(token: string): AuthorisationSession | undefined {
    const id = this.sessionsByPageToken.get(token);
    return id === undefined ? undefined : this.sessions.get(id);
  }

  sessionByAuthReqId(authReqId: string): AuthorisationSession | undefined {
    const id = this.sessionsByAuthReqId.get(authReqId);
    return id === undefined ? undefined : this.sessions.get(id);
  }

  /** Open CIBA requests for a payer at a bank (what the sandbox bank app lists). */
  pendingCibaRequests(bank: string, payerId: string): AuthorisationSession[] {
    return [...this.sessions.values()].filter(
      (session) =>
        session.kind === 'ciba' &&
        session.bank === bank &&
        session.hintedPayerId === payerId &&
        session.step !== 'done' &&
        session.expiresAt > this.now(),
    );
  }

  /** The profile allows one open CIBA request per consent. */
  hasOpenCibaRequest(consentId: string): boolean {
    return [...this.sessions.values()].some(
      (session) => session.kind === 'ciba' && session.consentId === consentId && session.step !== 'done' && session.expiresAt > this.now(),
    );
  }

  openAppSession(bank: string, payerId: string): AppSession {
    const session: AppSession = {
      token: secret(),
      bank,
      payerId,
      formToken: secret(),
      expiresAt: new Date(this.now().getTime() + 3600_000),
    };
    this.appSessions.set(session.token, session);
    return session;
  }

  appSession(token: string): AppSession | undefined {
    const session = this.appSessions.get(token);
    return session === undefined || session.expiresAt <= this.now() ? undefined : session;
  }

  // ---- idempotency ----------------------------------------------------------------------------------------------

  /**
   * The resource an earlier request with the same client, operation and key made within 24 hours: `same` when the
   * body was the same, `different` when it was not (the caller refuses it), or undefined for a new key.
   */
  idempotent(scope: string, key: string, body: unknown): { readonly kind: 'same' | 'different'; readonly resourceId: string } | undefined {
    const record = this.idempotency.get(`${scope}\u0000${key}`);
    if (record === undefined || this.now().getTime() - record.at.getTime() > IDEMPOTENCY_MS) return undefined;
    return { kind: record.fingerprint === fingerprint(body) ? 'same' : 'different', resourceId: record.resourceId };
  }

  remember(scope: string, key: string, body: unknown, resourceId: string): void {
    this.idempotency.set(`${scope}\u0000${key}`, { fingerprint: fingerprint(body), resourceId, at: this.now() });
  }

  // ---- payments -------------------------------------------------------------------------------------------------

  /** Creates the payment of an authorised consent and runs it as far as the payer's outcome allows by now. */
  addPayment(consent: Consent): Payment {
    if (consent.payerId === undefined || consent.debtorAccountId === undefined) throw new Error('consent not authorised');
    const now = this.now();
    const payment: Payment = {
      id: `dp-${randomUUID()}`,
      bank: consent.bank,
      clientId: consent.clientId,
      consentId: consent.id,
      createdAt: now,
      initiation: consent.initiation,
      amountMinor: consent.amountMinor,
      payerId: consent.payerId,
      debtorAccountId: consent.debtorAccountId,
      status: 'RCVD',
      statusUpdatedAt: now,
      reason: undefined,
      executed: false,
    };
    writable(consent).paymentId = payment.id;
    this.payments.set(payment.id, payment);
    this.refreshPayment(payment);
    return payment;
  }

  payment(id: string): Payment | undefined {
    const payment = this.payments.get(id);
    if (payment !== undefined) this.refreshPayment(payment);
    return payment;
  }

  /** A payment as it is, without bringing it up to date. */
  peekPayment(id: string): Payment | undefined {
    return this.payments.get(id);
  }

  refreshAll(): void {
    for (const payment of this.payments.values()) this.refreshPayment(payment);
  }

  /**
   * The payer's outcome over time, as in the Berlin Group sandbox: PDNG for `technicalValidationSeconds`, then
   * execution (funds check and debit, or rejection), then ACSP for `settlementSeconds` before the final status.
   */
  private refreshPayment(payment: Payment): void {
    if (payment.status === 'RJCT' || payment.status === 'ACSC' || payment.status === 'ACCC') return;
    const outcome: PayerOutcome | undefined = this.payer(payment.payerId)?.outcome;
    if (outcome === undefined) return;
    const timeline = executionTimeline(outcome, this.now().getTime() - payment.createdAt.getTime());
    if (!timeline.executionDue) {
      this.setStatus(payment, 'PDNG');
      return;
    }
    if (!payment.executed && !this.execute(payment, outcome.execution)) return;
    if (payment.status === 'ACSP' && timeline.settled) this.setStatus(payment, outcome.finalStatus ?? 'ACSC');
  }

  /** Execution: the bank's own rejection, or the funds check and booking; false when the payment was rejected. */
  private execute(payment: Payment, execution: 'settle' | 'reject' | 'pending'): boolean {
    writable(payment).executed = true;
    if (execution === 'reject') {
      this.setStatus(payment, 'RJCT', { StatusReasonCode: 'NOAS', StatusReasonDescription: 'The bank rejected the payment at execution.' });
      return false;
    }
    // A payment to another test payer's account (by sort code and account number) is credited there.
    const creditor = this.accountsByIdentification.get(creditorIdentification(payment.initiation));
    if (this.ledger.execute(payment.debtorAccountId, [{ amountMinor: payment.amountMinor, creditor }]) !== 'booked') {
      this.setStatus(payment, 'RJCT', { StatusReasonCode: 'AM04', StatusReasonDescription: 'Insufficient funds on the debtor account.' });
      return false;
    }
    this.setStatus(payment, 'ACSP');
    return true;
  }

  private setStatus(payment: Payment, status: PaymentStatus, reason?: StatusReason): void {
    if (payment.status === status) return;
    const record = writable(payment);
    record.status = status;
    record.statusUpdatedAt = this.now();
    if (reason !== undefined) record.reason = reason;
  }
}

function creditorIdentification(initiation: Initiation): string {
  return initiation.CreditorAccount.Identification.replace(/\s+/g, '');
}

/** A body's fingerprint for idempotency: its JSON with keys sorted, so key order alone is not a different body. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function secret(): string {
  return randomBytes(24).toString('base64url');
}

function secretEquals(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
