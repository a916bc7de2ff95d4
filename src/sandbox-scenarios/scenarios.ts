/**
 * Scenario payments: a sandbox payment that reaches a named outcome with no browser, for trying a client's webhook
 * or status handling. Started by `openpis trigger <scenario>` (src/cli) and by the console's Sandbox page
 * (src/console/sandbox), which is why it lives in neither.
 *
 * The payment is made through the running service's API (BASE_URL), as a client would make it, with an access
 * token issued here for the chosen sandbox client (the caller holds the database; a client secret is never needed,
 * and the token is deleted by `close`). It goes to the sandbox's embedded-approach bank (Hansa Direktbank), whose
 * payer credentials travel in the creation request, and uses the sandbox's test payers with fixed outcomes
 * (docs/sandbox-bank.md). Where the payer must still act (a one-time code, the cancel button), `play` posts our
 * payer page's form, as the payer's browser would. `expired` shortens the payment's flow deadline in the database
 * to `deadlineSeconds`, so the service's own expiry job fails it.
 *
 * A run has three steps, so a caller that must answer at once (the console) can leave the last to the service:
 * `startScenario` creates the payment (its id is known from then on), `play` does the payer's part and moves the
 * deadline (after it the outcome is up to the service), `awaitOutcome` waits for the final status.
 */
import type { Kysely } from 'kysely';
import { TokenService } from '../auth/tokens.js';
import { sha256Hex } from '../crypto/hashes.js';
import { parseScopes } from '../auth/scopes.js';
import type { Bank, CatalogueView } from '../providers/catalogue.js';
import type { Database } from '../storage/schema.js';

export const SCENARIOS = ['completed', 'insufficient-funds', 'rejected', 'cancelled', 'expired', 'refunded'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export function isScenario(value: string | undefined): value is Scenario {
  return (SCENARIOS as readonly (string | undefined)[]).includes(value);
}

interface ScenarioPlan {
  /** The sandbox test payer (docs/sandbox-bank.md) whose fixed behaviour gives the outcome. */
  readonly payer: string;
  readonly amount: number;
  /** Whether the payer's login id and password travel in the creation request; without them the payer is awaited on our page. */
  readonly credentialsInRequest: boolean;
  /** What the payer does on our page once the bank asks for a code. */
  readonly payerAction?: 'enter-code' | 'cancel';
  readonly expected: ExpectedOutcome;
  /**
   * refunded: the merchant's account (the payment's recipient) is this sandbox payer's, who then approves the refund
   * of the whole payment on our pages at the same bank, as the merchant's approver.
   */
  readonly refundApprover?: { readonly psuId: string; readonly iban: string };
}

export interface ExpectedOutcome {
  readonly status: 'COMPLETED' | 'FAILED';
  readonly failureCode?: string;
}

/** The sandbox's fixed test data behind each scenario. */
const PLANS: Record<Scenario, ScenarioPlan> = {
  // dave needs no one-time code: the bank executes at once after the login.
  completed: { payer: 'dave', amount: 1, credentialsInRequest: true, expected: { status: 'COMPLETED' } },
  // dave holds 1000.00 EUR: the bank rejects 5000.00 at execution with FUNDS_NOT_AVAILABLE.
  'insufficient-funds': {
    payer: 'dave',
    amount: 5000,
    credentialsInRequest: true,
    expected: { status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' },
  },
  // fiona passes SCA, then the bank rejects the payment.
  rejected: {
    payer: 'fiona',
    amount: 1,
    credentialsInRequest: true,
    payerAction: 'enter-code',
    expected: { status: 'FAILED', failureCode: 'BANK_REJECTED' },
  },
  cancelled: {
    payer: 'alice',
    amount: 1,
    credentialsInRequest: true,
    payerAction: 'cancel',
    expected: { status: 'FAILED', failureCode: 'PSU_CANCELLED' },
  },
  // Nobody logs in: the shortened deadline passes while the payer is awaited on our page.
  expired: { payer: 'alice', amount: 1, credentialsInRequest: false, expected: { status: 'FAILED', failureCode: 'EXPIRED' } },
  // dave pays alice's account (the merchant's); the bank tells dave's account, and alice approves its refund with a code.
  refunded: {
    payer: 'dave',
    amount: 1,
    credentialsInRequest: true,
    expected: { status: 'COMPLETED' },
    refundApprover: { psuId: 'alice', iban: 'DE54500105171000007919' },
  },
};

/** The outcome a scenario promises. */
export function expectedOutcome(scenario: Scenario): ExpectedOutcome {
  return PLANS[scenario].expected;
}

const SANDBOX_PASSWORD = 'sandbox';
const SANDBOX_ONE_TIME_CODE = '123456';

/** What a scenario needs of the service: its database, its catalogue and the addresses of the service and the sandbox banks. */
export interface ScenarioContext {
  readonly db: Kysely<Database>;
  readonly catalogue: CatalogueView;
  /** The service's address, whose API the payment is made through. */
  readonly baseUrl: string;
  /** SANDBOX_BANK_URL: the sandbox banks' root. */
  readonly sandboxBankUrl: string;
}

export interface ScenarioOptions {
  readonly scenario: Scenario;
  /** The sandbox client; default: the only active sandbox client. */
  readonly clientId: string | undefined;
  /** expired: the flow deadline given to the payment. */
  readonly deadlineSeconds: number;
}

export interface StatusRecordView {
  readonly id: string;
  readonly status: string;
  readonly detailedStatus: string;
  readonly failureReasons: { readonly code: string; readonly message: string }[] | null;
  readonly createdAt: string;
}

export interface TriggerResult {
  readonly scenario: Scenario;
  readonly paymentId: string;
  readonly endToEndId: string;
  readonly clientId: string;
  readonly provider: { readonly id: string; readonly name: string };
  readonly payer: string;
  readonly status: string;
  readonly detailedStatus: string;
  readonly failureReasons: StatusRecordView['failureReasons'];
  /** Whether the payment ended as the scenario promises. */
  readonly reachedExpectedOutcome: boolean;
  /** refunded: the payment is the refund, and this the completed payment it refunds. */
  readonly refundOf?: string;
  readonly history: readonly StatusRecordView[];
}

/** Why a scenario could not run (bad client, no sandbox bank, the service not answering as expected). */
export class TriggerError extends Error {}

/** A scenario payment on its way: created, its payer's part still to play. */
export class ScenarioRun {
  private closed = false;
  readonly paymentId: string;
  readonly endToEndId: string;
  readonly clientId: string;
  readonly provider: { readonly id: string; readonly name: string };
  /** Our payer page for the payment, where the payer's part is played. */
  private readonly redirectUrl: string;
  /** refunded: the refund made of the payment, once `play` made it. */
  private refund: { readonly paymentId: string; readonly endToEndId: string } | undefined;

  constructor(
    private readonly context: ScenarioContext,
    private readonly options: ScenarioOptions,
    private readonly plan: ScenarioPlan,
    /** The access token issued for the run, and the API client that sends it. */
    private readonly access: { readonly token: string; readonly api: Api },
    created: {
      readonly paymentId: string;
      readonly endToEndId: string;
      readonly clientId: string;
      readonly provider: { readonly id: string; readonly name: string };
      readonly redirectUrl: string;
    },
  ) {
    this.paymentId = created.paymentId;
    this.endToEndId = created.endToEndId;
    this.clientId = created.clientId;
    this.provider = created.provider;
    this.redirectUrl = created.redirectUrl;
  }

  get scenario(): Scenario {
    return this.options.scenario;
  }

  get payer(): string {
    return this.plan.payer;
  }

  /** The payer's part on our page and, for `expired`, the shortened deadline: afterwards the outcome is up to the service. */
  async play(): Promise<void> {
    if (this.plan.payerAction !== undefined) await actAsPayer(this.redirectUrl, this.plan.payerAction);
    if (this.options.scenario === 'expired') await shortenFlowDeadline(this.context.db, this.paymentId, this.options.deadlineSeconds);
    if (this.plan.refundApprover !== undefined) await this.refundAsMerchant(this.plan.refundApprover.psuId);
  }

  /**
   * refunded: waits for the payment to complete with the payer's account known, refunds all of it through the API and
   * plays the merchant's approver on our pages: the bank chosen, the approver's login, the one-time code.
   */
  private async refundAsMerchant(approver: string): Promise<void> {
    const api = this.access.api;
    const deadline = Date.now() + REFUND_WAIT_MS;
    for (;;) {
      const payment = await api<{ status: string; detailedStatus: string; payer?: unknown }>(
        'GET',
        `/api/v1/ob/payments/${this.paymentId}`,
        undefined,
        200,
      );
      if (payment.status === 'COMPLETED' && payment.payer !== undefined) break;
      if (payment.status === 'FAILED' || Date.now() > deadline)
        throw new TriggerError(`Payment ${this.paymentId} did not complete with the payer's account known (${payment.detailedStatus})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const endToEndId = `${this.endToEndId}-refund`;
    const refund = await api<{ paymentId: string; redirectUrl: string }>(
      'POST',
      `/api/v1/ob/payments/${this.paymentId}/refunds`,
      {
        reference: `openpis trigger refund`,
        metadata: { redirectUri: returnAddress(this.context.baseUrl.replace(/\/+$/, '')), endToEndId },
      },
      201,
    );
    this.refund = { paymentId: refund.paymentId, endToEndId };
    await postForm(refund.redirectUrl, requiredForm(await payerPage(refund.redirectUrl), 'select-bank'), { providerId: this.provider.id });
    let page = await payerPage(refund.redirectUrl);
    const review = formOf(page, 'continue');
    if (review !== undefined) {
      await postForm(refund.redirectUrl, review, {});
      page = await payerPage(refund.redirectUrl);
    }
    await postForm(refund.redirectUrl, requiredForm(page, 'details'), {
      loginId: approver,
      password: SANDBOX_PASSWORD,
    });
    await actAsPayer(refund.redirectUrl, 'enter-code');
  }

  /** Waits for the final status (`expired`: the deadline and then `timeoutSeconds`), with the payment's history. */
  async awaitOutcome(timeoutSeconds: number): Promise<TriggerResult> {
    const api = this.access.api;
    const paymentId = this.refund?.paymentId ?? this.paymentId;
    const paymentPath = `/api/v1/ob/payments/${paymentId}`;
    const waitMs = ((this.options.scenario === 'expired' ? this.options.deadlineSeconds : 0) + timeoutSeconds) * 1000;
    const deadline = Date.now() + waitMs;
    let payment = await api<{ status: string; detailedStatus: string; failureReasons: StatusRecordView['failureReasons'] }>(
      'GET',
      paymentPath,
      undefined,
      200,
    );
    while (payment.status !== 'COMPLETED' && payment.status !== 'FAILED') {
      if (Date.now() > deadline)
        throw new TriggerError(
          `Payment ${paymentId} was still ${payment.detailedStatus} after ${Math.round(waitMs / 1000)} s (are the service's workers running?)`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
      payment = await api('GET', paymentPath, undefined, 200);
    }
    const history = await api<StatusRecordView[]>('GET', `/api/v1/archive/payment-statuses?paymentId=${paymentId}`, undefined, 200);
    const failureCodes = (payment.failureReasons ?? []).map((reason) => reason.code);
    const expected = this.plan.expected;
    return {
      scenario: this.options.scenario,
      paymentId,
      endToEndId: this.refund?.endToEndId ?? this.endToEndId,
      clientId: this.clientId,
      provider: this.provider,
      payer: this.plan.payer,
      status: payment.status,
      detailedStatus: payment.detailedStatus,
      failureReasons: payment.failureReasons,
      reachedExpectedOutcome:
        payment.status === expected.status && (expected.failureCode === undefined || failureCodes.includes(expected.failureCode)),
      history,
      ...(this.refund === undefined ? {} : { refundOf: this.paymentId }),
    };
  }

  /** Deletes the access token issued for the run. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await deleteToken(this.context.db, this.access.token);
  }
}

/** Creates the scenario's payment; the caller plays the rest (`play`) and must `close` the run. */
export async function startScenario(context: ScenarioContext, options: ScenarioOptions): Promise<ScenarioRun> {
  const plan = PLANS[options.scenario];
  const baseUrl = context.baseUrl.replace(/\/+$/, '');
  const clientId = await sandboxClient(context.db, options.clientId);
  const bank = context.catalogue
    .banks('sandbox')
    .find(
      (candidate) =>
        candidate.connector.standard === 'berlin-group' &&
        candidate.connector.baseUrl.startsWith(`${context.sandboxBankUrl}/`) &&
        candidate.connector.scaApproaches[0] === 'EMBEDDED' &&
        candidate.currencies.includes('EUR') &&
        candidate.paymentSchemes.includes('SEPA'),
    );
  if (bank === undefined)
    throw new TriggerError(
      'No embedded-approach sandbox bank for EUR in the provider catalogue (the built-in catalogue has Hansa Direktbank)',
    );

  const token = await issueToken(context.db, clientId);
  try {
    const api = apiClient(baseUrl, token);
    const endToEndId = `trigger-${options.scenario}-${Date.now().toString(36)}`;
    const created = await api<{ paymentId: string; redirectUrl: string }>(
      'POST',
      '/api/v1/ob/payments',
      creationRequest(bank, plan, endToEndId, baseUrl),
      201,
    );
    return new ScenarioRun(
      context,
      options,
      plan,
      { token, api },
      { paymentId: created.paymentId, endToEndId, clientId, provider: { id: bank.id, name: bank.name }, redirectUrl: created.redirectUrl },
    );
  } catch (error) {
    await deleteToken(context.db, token);
    throw error;
  }
}

/** The whole scenario, waiting for the outcome: `openpis trigger`. */
export async function trigger(
  context: ScenarioContext,
  options: ScenarioOptions & { readonly timeoutSeconds: number },
): Promise<TriggerResult> {
  const run = await startScenario(context, options);
  try {
    await run.play();
    return await run.awaitOutcome(options.timeoutSeconds);
  } finally {
    await run.close();
  }
}

/** Deletes an access token issued by `issueToken`. */
export async function deleteToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('access_tokens').where('token_hash', '=', sha256Hex(token)).execute();
}

/** The client to act as: the one named (it must be an active sandbox client), or the only active sandbox client. */
async function sandboxClient(db: Kysely<Database>, clientId: string | undefined): Promise<string> {
  const candidates = await db
    .selectFrom('clients')
    .select(['id', 'environment', 'disabled_at', 'scopes'])
    .$if(clientId !== undefined, (query) => query.where('id', '=', clientId ?? ''))
    .execute();
  if (clientId !== undefined) {
    const client = candidates[0];
    if (client === undefined) throw new TriggerError(`No client with id ${clientId}`);
    if (client.environment !== 'sandbox') throw new TriggerError('trigger makes sandbox payments only: choose a sandbox client');
    if (client.disabled_at !== null) throw new TriggerError(`Client ${clientId} is disabled`);
    const scopes = parseScopes(client.scopes).scopes;
    if (!scopes.includes('payments:write') || !scopes.includes('payments:read'))
      throw new TriggerError(`Client ${clientId} lacks payments:read or payments:write`);
    return client.id;
  }
  const active = candidates.filter((client) => client.environment === 'sandbox' && client.disabled_at === null);
  const only = active[0];
  if (only === undefined || active.length > 1) {
    throw new TriggerError(
      active.length === 0
        ? 'No active sandbox client: create one with `openpis clients create --name …`'
        : 'Several sandbox clients: choose one with --client <clientId> (see `openpis clients list`)',
    );
  }
  return only.id;
}

/** An access token with the payment scopes for a client, issued from the database (no client secret needed). */
export async function issueToken(db: Kysely<Database>, clientId: string): Promise<string> {
  const issued = await new TokenService(db).issue(
    { clientId, scopes: ['payments:read', 'payments:write'] },
    'payments:read payments:write',
  );
  if (issued.kind !== 'issued') throw new TriggerError(issued.description);
  return issued.accessToken;
}

function creationRequest(bank: Bank, plan: ScenarioPlan, endToEndId: string, baseUrl: string): Record<string, unknown> {
  return {
    provider: { id: bank.id },
    paymentScheme: { name: 'SEPA' },
    recipient: {
      account: { number: { type: 'IBAN', value: plan.refundApprover?.iban ?? 'DE89370400440532013000' } },
      name: 'openpis trigger',
      address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
    },
    amount: plan.amount,
    currency: 'EUR',
    remittanceInformation: { type: 'UNSTRUCTURED', value: `openpis trigger ${endToEndId.split('-').slice(1, -1).join(' ')}` },
    ...(plan.credentialsInRequest ? { sender: { credentials: { id: plan.payer, password: SANDBOX_PASSWORD } } } : {}),
    metadata: {
      redirectUri: returnAddress(baseUrl),
      psuIpAddress: '203.0.113.7',
      psuUserAgent: 'openpis-trigger',
      endToEndId,
    },
  };
}

export /** Nobody follows it: no browser comes back. A loopback address is what a sandbox client may use over http. */
function returnAddress(baseUrl: string): string {
  return new URL('/', baseUrl).protocol === 'https:' ? `${baseUrl}/` : 'http://localhost/openpis-trigger';
}

/** A form the page must show, else the scenario cannot go on. */
function requiredForm(html: string, action: string): { readonly action: string; readonly csrf: string } {
  const form = formOf(html, action);
  if (form === undefined) throw new TriggerError(`The approver's page shows no ${action} form`);
  return form;
}

/** How long `refunded` waits for the payment to complete before refunding it. */
const REFUND_WAIT_MS = 60_000;

export type Api = <T>(method: 'GET' | 'POST', path: string, body: unknown, expectedStatus: number) => Promise<T>;

/** Calls the running service's API with `token`; an answer other than `expectedStatus` is a TriggerError with its body. */
export function apiClient(baseUrl: string, token: string): Api {
  return async <T>(method: 'GET' | 'POST', path: string, body: unknown, expectedStatus: number): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new TriggerError(
        `The service at ${baseUrl} does not answer (is it running? set BASE_URL or --url): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const text = await response.text();
    if (response.status !== expectedStatus) throw new TriggerError(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
}

/**
 * The payer's part on our page, posted as their browser would: the page's form for the action with its anti-forgery
 * token. The review page, when shown first, is confirmed ("continue") before.
 */
async function actAsPayer(redirectUrl: string, action: 'enter-code' | 'cancel'): Promise<void> {
  let page = await payerPage(redirectUrl);
  const continueForm = formOf(page, 'continue');
  if (continueForm !== undefined) {
    await postForm(redirectUrl, continueForm, {});
    page = await payerPage(redirectUrl);
  }
  const formAction = action === 'enter-code' ? 'code' : 'cancel';
  // The cancel is asked first on a page of its own ("Cancel this payment?"), whose form the payer confirms.
  if (action === 'cancel') page = await payerPage(`${redirectUrl}/cancel`);
  const form = formOf(page, formAction);
  if (form === undefined)
    throw new TriggerError(`The payer page shows no ${formAction} form; the payment did not reach the one-time code step`);
  await postForm(redirectUrl, form, action === 'enter-code' ? { otp: SANDBOX_ONE_TIME_CODE } : {});
}

async function payerPage(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  if (response.status !== 200) throw new TriggerError(`The payer page answered ${response.status}`);
  return response.text();
}

function formOf(html: string, action: string): { readonly action: string; readonly csrf: string } | undefined {
  const match = new RegExp(`<form method="post" action="([^"]*/${action})"[^>]*><input type="hidden" name="csrf" value="([^"]+)">`).exec(
    html,
  );
  return match?.[1] === undefined || match[2] === undefined ? undefined : { action: match[1], csrf: match[2] };
}

async function postForm(
  pageUrl: string,
  form: { readonly action: string; readonly csrf: string },
  fields: Record<string, string>,
): Promise<void> {
  const response = await fetch(new URL(form.action, pageUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: form.csrf, ...fields }).toString(),
  });
  await response.body?.cancel();
  if (response.status >= 400)
    throw new TriggerError(`The payer page refused the ${form.action.split('/').pop() ?? ''} form: HTTP ${response.status}`);
}

/**
 * Moves the payment's flow deadline, and the expiry job that enforces it, to `seconds` from now: the service's
 * worker then expires the payment through its own expiry step, as it would after FLOW_DEADLINE_SECONDS.
 */
async function shortenFlowDeadline(db: Kysely<Database>, paymentId: string, seconds: number): Promise<void> {
  const at = new Date(Date.now() + seconds * 1000).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('payments').set({ flow_expires_at: at }).where('id', '=', paymentId).execute();
    await trx.updateTable('jobs').set({ run_at: at }).where('subject_id', '=', paymentId).where('kind', '=', 'flow-expiry').execute();
  });
}
