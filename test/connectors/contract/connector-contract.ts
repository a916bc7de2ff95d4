/**
 * The connector contract suite: the standard scenarios every bank connector must pass, written once against the
 * `BankConnector` interface only. A "bank under test" fixture supplies connectors for banks of each SCA approach,
 * test payers, the payer's actions at the bank (browser pages, banking app), fault injection and a clock. Run it
 * with `describeConnectorContract('<name>', setup)`; see docs/adding-a-connector.md.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test, type TestContext } from 'node:test';
import {
  BankRejectedError,
  BankUnavailableError,
  consentOutcome,
  scaOutcome,
  type AccountInformation,
  type AuthorisationResult,
  type BankConnector,
  type BankReference,
  type BankReturn,
  type CallContext,
  type EmbeddedAuthentication,
  type PaymentOrder,
  type PaymentStatusResult,
  type ReturnAddress,
} from '../../../src/connectors/index.js';
import type { FailureCode } from '../../../src/domain/detailed-status.js';
import type { PaymentSchemeName } from '../../../src/domain/reference-data.js';

/** What a test payer can do: log in, produce a one-time code. */
export interface ContractPayer {
  readonly psuId: string;
  readonly password: string;
  readonly otp: string;
}

/** The kinds of bank the scenarios need. */
export type BankKind = 'redirect' | 'embedded' | 'decoupled' | 'account-information';

/** What the payer's browser brought back from the bank's pages. */
export interface RedirectReturn {
  /** Where the bank finally sent the browser (a redirect, or the action of the form it posts on). */
  readonly redirectedTo: string | undefined;
  /**
   * What the bank sent back, as our callback receives it: the query, the fragment (our return page posts it on as
   * form fields) or the posted form (`form_post`). Undefined when the bank sent the browser nowhere.
   */
  readonly returned: BankReturn | undefined;
}

export interface BankUnderTest {
  /**
   * A connector for a bank of that kind; `timeoutMs` overrides the bank's call timeout, `fundsConfirmation` the
   * bank's funds check before execution (only values listed in {@link fundsConfirmationSettings}).
   */
  connector(kind: BankKind, overrides?: { readonly timeoutMs?: number; readonly fundsConfirmation?: boolean }): BankConnector;
  /** Scheme of the payments sent to the banks (`SEPA`, `DOMESTIC`). */
  readonly scheme: PaymentSchemeName;
  /** Currency of the payments sent to the banks. */
  readonly currency: string;
  /** A creditor the banks accept. */
  readonly creditor: PaymentOrder['creditor'];
  /** Where the bank sends the payer back (never fetched by the suite); registered with the bank where needed. */
  readonly redirectUri: string;
  readonly payers: {
    /** One SCA method; payments settle. */
    readonly happy: ContractPayer;
    /** Several SCA methods to choose from; payments settle. */
    readonly manyMethods: ContractPayer & { readonly methodCount: number };
    /** Too little money for `amount`. */
    readonly poor: ContractPayer & { readonly amountAboveBalance: string };
    /** Has several accounts; `accountCount` of them in the payment currency or not. */
    readonly manyAccounts: ContractPayer & { readonly accountCount: number };
  };
  /**
   * Facts of the standard where the scenarios' expectations truly differ:
   * - `redirectLinkAt`: the link to the bank's pages comes with the registration (Berlin Group: the bank starts
   *   the authorisation implicitly) or from `startAuthorisation` (UK: the consent, then the authorisation request);
   * - `cancelledPaymentStatus`: after `cancelPayment` of an unauthorised payment the bank reads `cancelled`
   *   (Berlin Group), or the payment was never submitted and its consent stays `received` (UK: nothing can execute);
   * - `expiryFailureCodes`: the failure codes a payment not authorised in time may get;
   * - `fundsConfirmationSettings`: the values of the bank's funds check before execution the fixture can build
   *   redirect connectors with (each is played in the insufficient funds scenario).
   */
  readonly redirectLinkAt: 'registration' | 'start-authorisation';
  readonly cancelledPaymentStatus: 'cancelled' | 'never-submitted';
  readonly expiryFailureCodes: readonly FailureCode[];
  readonly fundsConfirmationSettings: readonly boolean[];
  /** The payer at the bank's pages (redirect approach): log in, choose, approve or cancel. */
  completeRedirect(url: string, payer: ContractPayer, options?: { readonly cancel?: boolean }): Promise<RedirectReturn>;
  /** The payer approves in the bank's app (decoupled approach), given the bank's waiting step. */
  approveDecoupled(started: AuthorisationResult, payer: ContractPayer): Promise<void>;
  /**
   * Makes the bank answer 5xx, or never answer: the next `times` calls, or every call until {@link clearFaults}
   * without `times`. With `only: 'payment-status'` only the payment status endpoint fails (in Berlin Group
   * `GET …/{paymentId}/status`, in UK `GET /domestic-payments/{id}`); every other call, the payment resource
   * itself (UK: its payment-details) included, still works.
   */
  injectFault(kind: BankKind, fault: 'server-error' | 'timeout', times?: number, only?: 'payment-status'): void;
  /** Ends every fault injected for banks of that kind. */
  clearFaults(kind: BankKind): void;
  /** Moves the bank's clock forward (for the SCA deadline). */
  advanceClock(ms: number): void;
  /** How long a payer has to finish SCA at this bank. */
  readonly scaDeadlineMs: number;
  close(): Promise<void>;
}

/**
 * The call timeout of the scenarios that make the bank hold a call (a `timeout` fault holds it up to a minute): long
 * enough that the calls that are answered (the UK client-credentials token, signed and verified with RSA) finish on a
 * busy machine, short enough that the held call is cut long before the bank would let it go.
 */
const IMPATIENT_MS = 2_000;

const context = (): CallContext => ({ requestId: randomUUID(), psuIpAddress: '192.0.2.10', psuUserAgent: 'contract-suite/1.0' });

function order(bank: BankUnderTest, amount = '0.10'): PaymentOrder {
  return {
    endToEndId: `E2E-${randomUUID().slice(0, 8)}`,
    amount,
    currency: bank.currency,
    scheme: bank.scheme,
    instantPreferred: false,
    creditor: bank.creditor,
    remittanceInformation: 'Contract suite',
  };
}

/** Our return address for the bank (never fetched by the suite): the fixture's URI for both of ours. */
function returnTo(uri: string): ReturnAddress {
  return { uri, registeredUri: uri, state: randomUUID() };
}

/**
 * Skips a scenario the connector cannot play: another standard's connector may lack a capability (its banks never
 * ask for embedded steps, or offer no account information), and the same suite runs for it.
 */
function skipWithout(t: TestContext, connector: BankConnector, capability: 'embedded' | 'accountInformation'): boolean {
  if (connector[capability] !== undefined) return false;
  t.skip(`the connector offers no ${capability}`);
  return true;
}

/** The connector's embedded steps; scenarios that need them skip connectors without them. */
function embedded(connector: BankConnector): EmbeddedAuthentication {
  assert.ok(connector.embedded !== undefined, 'the connector offers embedded authentication');
  return connector.embedded;
}

function accountInformation(connector: BankConnector): AccountInformation {
  assert.ok(connector.accountInformation !== undefined, 'the connector offers account information');
  return connector.accountInformation;
}

/** Polls the payment status until it is final (or `limit` reads pass). */
async function settle(connector: BankConnector, payment: BankReference, limit = 20): Promise<PaymentStatusResult> {
  let status = await connector.getPaymentStatus({ context: context(), payment });
  for (let read = 1; read < limit && status.outcome === 'pending'; read += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    status = await connector.getPaymentStatus({ context: context(), payment });
  }
  return status;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

/** Embedded: initiation, then authorisation with the password; returns the authorisation result. */
async function embeddedStart(bank: BankUnderTest, connector: BankConnector, payer: ContractPayer, amount?: string) {
  const initiated = await connector.registerPayment({
    context: context(),
    idempotencyKey: randomUUID(),
    payment: order(bank, amount),
    psuId: payer.psuId,
  });
  assert.equal(initiated.next.kind, 'start-authorisation');
  const started = await connector.startAuthorisation({
    context: context(),
    payment: initiated.payment,
    psu: { id: payer.psuId, password: payer.password },
  });
  return { initiated, started };
}

/** Finishes an embedded authorisation whose next step is the one-time code (or a method choice before it). */
async function embeddedFinish(connector: BankConnector, payment: BankReference, started: AuthorisationResult, payer: ContractPayer) {
  let step = started;
  if (step.next.kind === 'select-sca-method') {
    const [method] = step.next.methods;
    assert.ok(method !== undefined);
    step = await embedded(connector).selectScaMethod({
      context: context(),
      resource: payment,
      authorisation: step.authorisation,
      methodId: method.id,
    });
  }
  assert.equal(step.next.kind, 'authorise-transaction');
  return embedded(connector).authoriseTransaction({
    context: context(),
    resource: payment,
    authorisation: step.authorisation,
    scaAuthenticationData: payer.otp,
  });
}

/**
 * Redirect: registration, then (where the standard starts it separately) the authorisation; returns the link to
 * the bank's pages, the authorisation and the return address whose state the bank must bring back.
 */
async function redirectStart(bank: BankUnderTest, connector: BankConnector, amount?: string) {
  const registrationAddress = returnTo(bank.redirectUri);
  const initiated = await connector.registerPayment({
    context: context(),
    idempotencyKey: randomUUID(),
    payment: order(bank, amount),
    returnAddress: registrationAddress,
  });
  assert.equal(initiated.transactionStatus.state, 'received');
  assert.equal(initiated.scaApproach, 'REDIRECT');
  if (bank.redirectLinkAt === 'registration') {
    assert.equal(initiated.next.kind, 'redirect');
    assert.ok(initiated.next.kind === 'redirect');
    assert.ok(initiated.authorisation !== undefined, 'the bank started the authorisation with the registration');
    return { initiated, authorisation: initiated.authorisation, url: initiated.next.url, address: registrationAddress };
  }
  assert.deepEqual(initiated.next, { kind: 'start-authorisation', needs: 'nothing' });
  const address = returnTo(bank.redirectUri);
  const started = await connector.startAuthorisation({ context: context(), payment: initiated.payment, returnAddress: address });
  assert.equal(started.next.kind, 'redirect');
  assert.ok(started.next.kind === 'redirect');
  assert.equal(scaOutcome(started.scaStatus), 'pending');
  return { initiated, authorisation: started.authorisation, url: started.next.url, address };
}

type RedirectFlow = Awaited<ReturnType<typeof redirectStart>>;

/** Hands what the payer's browser brought back to the connector, with the state we gave in the return address. */
async function completeFromReturn(
  connector: BankConnector,
  flow: RedirectFlow,
  back: RedirectReturn,
  payment: BankReference = flow.initiated.payment,
) {
  assert.ok(back.returned !== undefined, 'the bank sent something back');
  return connector.completeAuthorisation({
    context: context(),
    payment,
    authorisation: flow.authorisation,
    returned: { data: back.returned, expectedState: flow.address.state },
  });
}

export function describeConnectorContract(name: string, setup: () => Promise<BankUnderTest>): void {
  describe(`connector contract: ${name}`, () => {
    let bank: BankUnderTest;
    before(async () => {
      bank = await setup();
    });
    after(async () => {
      await bank.close();
    });

    test('redirect: initiation, the payer approves at the bank, the payment completes', async () => {
      const connector = bank.connector('redirect');
      const flow = await redirectStart(bank, connector);
      const back = await bank.completeRedirect(flow.url, bank.payers.happy);
      assert.ok(back.redirectedTo?.startsWith(bank.redirectUri), 'the bank sends the payer back to the TPP');
      const completed = await completeFromReturn(connector, flow, back);
      assert.equal(scaOutcome(completed.scaStatus), 'authorised');
      assert.deepEqual(completed.next, { kind: 'authorised' });
      // The reference may change (UK: the payment submitted on the authorised consent).
      const payment = completed.payment ?? flow.initiated.payment;
      const status = await settle(connector, payment);
      assert.equal(status.outcome, 'completed');
      assert.equal(status.failureCode, undefined);
      // The same return again (a reload, a retried callback) gives the same outcome, and never a second payment.
      const again = await completeFromReturn(connector, flow, back, payment);
      assert.equal(scaOutcome(again.scaStatus), 'authorised');
      assert.equal(again.providerPaymentId, completed.providerPaymentId);
    });

    test('redirect: the payer cancels at the bank, the payment fails and is never completed', async () => {
      const connector = bank.connector('redirect');
      const flow = await redirectStart(bank, connector);
      const back = await bank.completeRedirect(flow.url, bank.payers.happy, { cancel: true });
      assert.ok(back.redirectedTo?.startsWith(bank.redirectUri), 'the bank sends the payer back to the TPP');
      const completed = await completeFromReturn(connector, flow, back);
      assert.equal(scaOutcome(completed.scaStatus), 'failed');
      assert.deepEqual(completed.next, { kind: 'failed' });
      assert.equal(completed.payment, undefined, 'nothing submitted');
      const status = await settle(connector, flow.initiated.payment);
      assert.equal(status.outcome, 'failed');
    });

    test('embedded with one SCA method: password, one-time code, completed', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const { initiated, started } = await embeddedStart(bank, connector, bank.payers.happy);
      assert.equal(started.next.kind, 'authorise-transaction');
      assert.ok(started.chosenScaMethod !== undefined, 'the only method is chosen implicitly');
      const done = await embeddedFinish(connector, initiated.payment, started, bank.payers.happy);
      assert.deepEqual(done.next, { kind: 'authorised' });
      assert.equal(scaOutcome(done.scaStatus), 'authorised');
      assert.equal((await settle(connector, initiated.payment)).outcome, 'completed');
    });

    test('embedded: an authorisation started with the password whose answer we lost is found at the bank, waiting for the code', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const { initiated, started } = await embeddedStart(bank, connector, bank.payers.happy);
      assert.equal(started.next.kind, 'authorise-transaction');
      // As if the answer above never came: only the payment's reference is known.
      const found = await embedded(connector).findAuthorisation({ context: context(), resource: initiated.payment });
      assert.ok(found !== undefined, 'the bank lists the authorisation');
      assert.equal(found.next.kind, 'authorise-transaction');
      const done = await embedded(connector).authoriseTransaction({
        context: context(),
        resource: initiated.payment,
        authorisation: found.authorisation,
        scaAuthenticationData: bank.payers.happy.otp,
      });
      assert.deepEqual(done.next, { kind: 'authorised' });
      assert.equal((await settle(connector, initiated.payment)).outcome, 'completed');
    });

    test('embedded: a payment without an authorisation has none to find', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        psuId: bank.payers.happy.psuId,
      });
      assert.equal(await embedded(connector).findAuthorisation({ context: context(), resource: initiated.payment }), undefined);
    });

    test('embedded with several SCA methods: the payer chooses one', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const payer = bank.payers.manyMethods;
      const { initiated, started } = await embeddedStart(bank, connector, payer);
      assert.equal(started.next.kind, 'select-sca-method');
      if (started.next.kind !== 'select-sca-method') return;
      assert.equal(started.next.methods.length, payer.methodCount);
      const last = started.next.methods.at(-1);
      assert.ok(last !== undefined);
      const selected = await embedded(connector).selectScaMethod({
        context: context(),
        resource: initiated.payment,
        authorisation: started.authorisation,
        methodId: last.id,
      });
      assert.equal(selected.next.kind, 'authorise-transaction');
      assert.equal(selected.chosenScaMethod?.id, last.id);
      const done = await embedded(connector).authoriseTransaction({
        context: context(),
        resource: initiated.payment,
        authorisation: selected.authorisation,
        scaAuthenticationData: payer.otp,
      });
      assert.equal(done.next.kind, 'authorised');
      assert.equal((await settle(connector, initiated.payment)).outcome, 'completed');
    });

    test('embedded: the password can also be sent to an authorisation started without it', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const payer = bank.payers.happy;
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        psuId: payer.psuId,
      });
      const started = await connector.startAuthorisation({ context: context(), payment: initiated.payment, psu: { id: payer.psuId } });
      assert.equal(started.next.kind, 'authenticate');
      const authenticated = await embedded(connector).updatePsuAuthentication({
        context: context(),
        resource: initiated.payment,
        authorisation: started.authorisation,
        psu: { id: payer.psuId, password: payer.password },
      });
      const done = await embeddedFinish(connector, initiated.payment, authenticated, payer);
      assert.equal(done.next.kind, 'authorised');
    });

    test('decoupled: the payer approves in the banking app while we poll', async () => {
      const connector = bank.connector('decoupled');
      const payer = bank.payers.happy;
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        psuId: payer.psuId,
      });
      assert.equal(initiated.transactionStatus.state, 'received');
      assert.equal(initiated.next.kind, 'start-authorisation');
      const started = await connector.startAuthorisation({ context: context(), payment: initiated.payment, psu: { id: payer.psuId } });
      assert.equal(started.next.kind, 'wait');
      assert.equal(started.scaApproach, 'DECOUPLED');
      const before = await connector.completeAuthorisation({
        context: context(),
        payment: initiated.payment,
        authorisation: started.authorisation,
      });
      assert.equal(scaOutcome(before.scaStatus), 'pending');
      assert.equal(before.payment, undefined, 'nothing submitted before the payer approves');
      await bank.approveDecoupled(started, payer);
      let after = await connector.completeAuthorisation({
        context: context(),
        payment: initiated.payment,
        authorisation: before.authorisation,
      });
      for (let poll = 1; poll < 20 && scaOutcome(after.scaStatus) === 'pending'; poll += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        after = await connector.completeAuthorisation({
          context: context(),
          payment: initiated.payment,
          authorisation: after.authorisation,
        });
      }
      assert.equal(scaOutcome(after.scaStatus), 'authorised');
      assert.deepEqual(after.next, { kind: 'authorised' });
      assert.equal((await settle(connector, after.payment ?? initiated.payment)).outcome, 'completed');
    });

    test('wrong password: PSU_AUTHENTICATION_FAILED, definite; the right one still works', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const payer = bank.payers.happy;
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        psuId: payer.psuId,
      });
      const error = await rejection(
        connector.startAuthorisation({
          context: context(),
          payment: initiated.payment,
          psu: { id: payer.psuId, password: `${payer.password}-wrong` },
        }),
      );
      assert.ok(error instanceof BankRejectedError, String(error));
      assert.equal(error.failureCode, 'PSU_AUTHENTICATION_FAILED');
      assert.equal(error.indeterminate, false);
      assert.ok(!error.message.includes(payer.password), 'no password in the message');
      const retried = await connector.startAuthorisation({
        context: context(),
        payment: initiated.payment,
        psu: { id: payer.psuId, password: payer.password },
      });
      assert.equal(retried.next.kind, 'authorise-transaction');
    });

    test('wrong one-time code: SCA_FAILED; the right one still works', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const payer = bank.payers.happy;
      const { initiated, started } = await embeddedStart(bank, connector, payer);
      const wrongCode = payer.otp === '000000' ? '111111' : '000000';
      const error = await rejection(
        embedded(connector).authoriseTransaction({
          context: context(),
          resource: initiated.payment,
          authorisation: started.authorisation,
          scaAuthenticationData: wrongCode,
        }),
      );
      assert.ok(error instanceof BankRejectedError, String(error));
      assert.equal(error.failureCode, 'SCA_FAILED');
      const done = await embedded(connector).authoriseTransaction({
        context: context(),
        resource: initiated.payment,
        authorisation: started.authorisation,
        scaAuthenticationData: payer.otp,
      });
      assert.equal(done.next.kind, 'authorised');
    });

    test('cancel before authorisation: nothing can execute any more, and the status says so', async () => {
      const connector = bank.connector('redirect');
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        returnAddress: returnTo(bank.redirectUri),
      });
      const cancelled = await connector.cancelPayment({ context: context(), payment: initiated.payment });
      assert.equal(cancelled.cancelled, true);
      assert.equal(cancelled.authorisationRequired, false);
      const status = await connector.getPaymentStatus({ context: context(), payment: initiated.payment });
      if (bank.cancelledPaymentStatus === 'cancelled') {
        assert.equal(status.transactionStatus.state, 'cancelled');
        assert.equal(status.outcome, 'failed');
      } else {
        // Never submitted: the bank holds only the unauthorised consent, which can never execute on its own.
        assert.equal(status.transactionStatus.state, 'received');
        assert.equal(status.outcome, 'pending');
        assert.equal(status.failureCode, undefined);
      }
    });

    test('insufficient funds: the payment fails with INSUFFICIENT_FUNDS', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const payer = bank.payers.poor;
      const { initiated, started } = await embeddedStart(bank, connector, payer, payer.amountAboveBalance);
      const done = await embeddedFinish(connector, initiated.payment, started, payer);
      assert.equal(done.next.kind, 'authorised');
      const status = await settle(connector, initiated.payment);
      assert.equal(status.outcome, 'failed');
      assert.equal(status.failureCode, 'INSUFFICIENT_FUNDS');
    });

    test('insufficient funds (redirect): INSUFFICIENT_FUNDS at the funds check, or at execution', async (t) => {
      for (const fundsConfirmation of bank.fundsConfirmationSettings) {
        await t.test(
          fundsConfirmation ? 'the bank checks funds before execution' : 'the bank rejects the payment at execution',
          async () => {
            const connector = bank.connector('redirect', { fundsConfirmation });
            assert.equal(connector.profile.fundsConfirmation, fundsConfirmation);
            const payer = bank.payers.poor;
            const flow = await redirectStart(bank, connector, payer.amountAboveBalance);
            const back = await bank.completeRedirect(flow.url, payer);
            const completed = await completeFromReturn(connector, flow, back);
            if (fundsConfirmation) {
              assert.deepEqual(completed.next, { kind: 'failed' });
              assert.equal(scaOutcome(completed.scaStatus), 'failed');
              assert.equal(completed.failureCode, 'INSUFFICIENT_FUNDS');
              assert.equal(completed.payment, undefined, 'no payment submitted');
            } else {
              assert.equal(scaOutcome(completed.scaStatus), 'authorised');
              const status = await settle(connector, completed.payment ?? flow.initiated.payment);
              assert.equal(status.outcome, 'failed');
              assert.equal(status.transactionStatus.state, 'rejected');
              assert.equal(status.failureCode, 'INSUFFICIENT_FUNDS');
            }
          },
        );
      }
    });

    test('account information: consent, the payer shares accounts, the list is read', async (t) => {
      const connector = bank.connector('account-information');
      if (skipWithout(t, connector, 'accountInformation')) return;
      const payer = bank.payers.manyAccounts;
      const created = await accountInformation(connector).createConsent({ context: context(), returnAddress: returnTo(bank.redirectUri) });
      assert.equal(consentOutcome(created.consentStatus), 'pending');
      let next = created.next;
      if (next.kind === 'start-authorisation') {
        next = (
          await accountInformation(connector).startConsentAuthorisation({
            context: context(),
            consent: created.consent,
            returnAddress: returnTo(bank.redirectUri),
          })
        ).next;
      }
      assert.equal(next.kind, 'redirect');
      if (next.kind !== 'redirect') return;
      await bank.completeRedirect(next.url, payer);
      const status = await accountInformation(connector).getConsentStatus({ context: context(), consent: created.consent });
      assert.equal(consentOutcome(status), 'valid');
      const accounts = await accountInformation(connector).listAccounts({ context: context(), consent: created.consent });
      assert.equal(accounts.length, payer.accountCount);
      for (const account of accounts) {
        assert.ok(account.iban !== undefined && /^[A-Z]{2}\d{2}/.test(account.iban));
        assert.match(account.currency, /^[A-Z]{3}$/);
      }
    });

    test('account information before the payer agreed: CONSENT_REJECTED-like refusal, definite', async (t) => {
      const connector = bank.connector('account-information');
      if (skipWithout(t, connector, 'accountInformation')) return;
      const created = await accountInformation(connector).createConsent({ context: context(), returnAddress: returnTo(bank.redirectUri) });
      const error = await rejection(accountInformation(connector).listAccounts({ context: context(), consent: created.consent }));
      assert.ok(error instanceof BankRejectedError, String(error));
      assert.equal(error.failureCode, 'CONSENT_REJECTED');
    });

    test('bank 5xx: BankUnavailableError, indeterminate; the next call works', async () => {
      const connector = bank.connector('redirect');
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        returnAddress: returnTo(bank.redirectUri),
      });
      // The whole bank is down: every source of the payment's status fails.
      bank.injectFault('redirect', 'server-error');
      try {
        const error = await rejection(connector.getPaymentStatus({ context: context(), payment: initiated.payment }));
        assert.ok(error instanceof BankUnavailableError, String(error));
        assert.equal(error.reason, 'server-error');
        assert.equal(error.indeterminate, true);
        assert.equal(error.failureCode, 'BANK_UNAVAILABLE');
      } finally {
        bank.clearFaults('redirect');
      }
      assert.equal((await connector.getPaymentStatus({ context: context(), payment: initiated.payment })).outcome, 'pending');
    });

    test('payment status endpoint down (5xx): the status is read from the payment resource', async (t) => {
      const connector = bank.connector('embedded');
      if (skipWithout(t, connector, 'embedded')) return;
      const payer = bank.payers.happy;
      const { initiated, started } = await embeddedStart(bank, connector, payer);
      bank.injectFault('embedded', 'server-error', undefined, 'payment-status');
      try {
        const before = await connector.getPaymentStatus({ context: context(), payment: initiated.payment });
        assert.equal(before.transactionStatus.state, 'received');
        assert.equal(before.outcome, 'pending');
        await embeddedFinish(connector, initiated.payment, started, payer);
        const after = await settle(connector, initiated.payment);
        assert.equal(after.outcome, 'completed');
        assert.equal(after.failureCode, undefined);
      } finally {
        bank.clearFaults('embedded');
      }
    });

    test('payment status endpoint not answering: the status is read from the payment resource, each within the bank timeout', async () => {
      const connector = bank.connector('redirect', { timeoutMs: IMPATIENT_MS });
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        returnAddress: returnTo(bank.redirectUri),
      });
      bank.injectFault('redirect', 'timeout', undefined, 'payment-status');
      try {
        const started = Date.now();
        const status = await connector.getPaymentStatus({ context: context(), payment: initiated.payment });
        assert.equal(status.transactionStatus.state, 'received');
        assert.equal(status.outcome, 'pending');
        assert.ok(Date.now() - started < IMPATIENT_MS * 5, 'bounded by timeoutMs, not by the bank holding the call');
      } finally {
        bank.clearFaults('redirect');
      }
    });

    test('payment status endpoint down: a cancelled payment is seen failed through the payment resource', async () => {
      const connector = bank.connector('redirect');
      const initiated = await connector.registerPayment({
        context: context(),
        idempotencyKey: randomUUID(),
        payment: order(bank),
        returnAddress: returnTo(bank.redirectUri),
      });
      assert.equal((await connector.cancelPayment({ context: context(), payment: initiated.payment })).cancelled, true);
      bank.injectFault('redirect', 'server-error', undefined, 'payment-status');
      try {
        const status = await connector.getPaymentStatus({ context: context(), payment: initiated.payment });
        if (bank.cancelledPaymentStatus === 'cancelled') {
          assert.equal(status.transactionStatus.state, 'cancelled');
          assert.equal(status.outcome, 'failed');
          assert.ok(status.failureCode !== undefined);
        } else {
          assert.equal(status.transactionStatus.state, 'received');
          assert.equal(status.outcome, 'pending');
          assert.equal(status.failureCode, undefined);
        }
      } finally {
        bank.clearFaults('redirect');
      }
    });

    test('payment status endpoint down after authorisation (5xx, then no answer): the status is read from the payment resource', async () => {
      const connector = bank.connector('redirect');
      const flow = await redirectStart(bank, connector);
      const completed = await completeFromReturn(connector, flow, await bank.completeRedirect(flow.url, bank.payers.happy));
      assert.equal(scaOutcome(completed.scaStatus), 'authorised');
      const payment = completed.payment ?? flow.initiated.payment;
      bank.injectFault('redirect', 'server-error', undefined, 'payment-status');
      try {
        const status = await settle(connector, payment);
        assert.equal(status.outcome, 'completed');
        assert.equal(status.failureCode, undefined);
      } finally {
        bank.clearFaults('redirect');
      }
      const impatient = bank.connector('redirect', { timeoutMs: IMPATIENT_MS });
      bank.injectFault('redirect', 'timeout', undefined, 'payment-status');
      try {
        const started = Date.now();
        const status = await impatient.getPaymentStatus({ context: context(), payment });
        assert.equal(status.outcome, 'completed');
        assert.ok(Date.now() - started < IMPATIENT_MS * 5, 'bounded by timeoutMs, not by the bank holding the call');
      } finally {
        bank.clearFaults('redirect');
      }
    });

    test('bank timeout: BankUnavailableError within the bank timeout', async () => {
      const connector = bank.connector('redirect', { timeoutMs: IMPATIENT_MS });
      bank.injectFault('redirect', 'timeout', 1);
      const started = Date.now();
      const error = await rejection(
        connector.registerPayment({
          context: context(),
          idempotencyKey: randomUUID(),
          payment: order(bank),
          returnAddress: returnTo(bank.redirectUri),
        }),
      );
      assert.ok(error instanceof BankUnavailableError, String(error));
      assert.equal(error.reason, 'timeout');
      assert.ok(Date.now() - started < IMPATIENT_MS * 5, 'bounded by timeoutMs, not by the bank holding the call');
    });

    test('expiry: a payment the payer never authorises is rejected after the deadline, never completed', async () => {
      const connector = bank.connector('redirect');
      const flow = await redirectStart(bank, connector);
      assert.equal((await connector.getPaymentStatus({ context: context(), payment: flow.initiated.payment })).outcome, 'pending');
      bank.advanceClock(bank.scaDeadlineMs + 60_000);
      try {
        const status = await connector.getPaymentStatus({ context: context(), payment: flow.initiated.payment });
        assert.equal(status.outcome, 'failed');
        assert.equal(status.transactionStatus.state, 'rejected');
        // Each standard's banks say it their way (Berlin Group: EXPIRED from RESOURCE_EXPIRED, or a plain
        // rejection; UK: a rejected consent, a failed authorisation). Never a success code.
        assert.ok(status.failureCode !== undefined && bank.expiryFailureCodes.includes(status.failureCode), status.failureCode);
        const { scaStatus, next, payment } = await connector.completeAuthorisation({
          context: context(),
          payment: flow.initiated.payment,
          authorisation: flow.authorisation,
        });
        assert.equal(scaOutcome(scaStatus), 'failed');
        assert.deepEqual(next, { kind: 'failed' });
        assert.equal(payment, undefined, 'nothing submitted');
      } finally {
        bank.advanceClock(-(bank.scaDeadlineMs + 60_000));
      }
    });
  });
}
