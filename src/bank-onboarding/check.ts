/**
 * `openpis banks check <bank>`: the self-test an operator runs before go-live and after any change
 * (docs/going-live.md, "Check a bank"). It reaches the bank over TLS with our certificate, and where the bank is a
 * sandbox it creates, reads and cancels a payment through the bank's own connector — so what passes here is what
 * the service does; a live bank gets no test payment, but a read of a payment that cannot exist, which it answers
 * only once it has accepted our certificate, signature or token — with every answer recorded on the way and
 * validated against the standard's OpenAPI file (standard-answers.ts). One line per check: pass, warn or fail with a
 * reason an operator can act on.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { DecoratorHandler, request, type Dispatcher } from 'undici';
import { absentPaymentReference, createConnectors, type ConnectorIdentity } from '../connectors/index.js';
import type { BankConnector, BankReference, CallContext, PaymentOrder } from '../connectors/contract.js';
import { BankProtocolError, BankRejectedError, BankUnavailableError } from '../connectors/errors.js';
import type { BankRegistrationStore } from '../connectors/uk-open-banking/registration.js';
import type { UkOpenBankingSettings } from '../connectors/uk-open-banking/settings.js';
import { BankIdentityError, type CertificateReport } from '../identity/identity.js';
import { withRegistration } from '../providers/bank-registrations.js';
import type { Bank } from '../providers/catalogue.js';
import { mutualTlsAgent } from '../connectors/transport.js';
import { payerReturnAddress, ukSigningKeysOf, type BankReach, type OnboardingSetup } from './setup.js';
import { StandardAnswers, type BankAnswer } from './standard-answers.js';

export type CheckOutcome = 'pass' | 'warn' | 'fail';

export interface CheckLine {
  readonly check: string;
  readonly outcome: CheckOutcome;
  readonly reason: string;
}

export interface BankCheckReport {
  readonly bankId: string;
  readonly standard: string;
  readonly lines: readonly CheckLine[];
  /** Any line failed. */
  readonly failed: boolean;
}

/** How long each call may take: a live bank's answer comes within seconds; longer is a problem to report. */
const CALL_TIMEOUT_MS = 30_000;

/** Fictitious but valid accounts for the sandbox test payment. */
const TEST_CREDITOR_IBAN = { 'berlin-group': 'DE89370400440532013000', 'uk-open-banking': 'GB33BUKB20201555555555' } as const;
const TEST_DEBTOR_IBAN = 'DE54500105171000007919';

export async function checkBank(setup: OnboardingSetup, bankId: string, store?: BankRegistrationStore): Promise<BankCheckReport> {
  const bank = setup.bank(bankId);
  const standard = bank.connector.standard;
  const lines: CheckLine[] = [];
  const add = (check: string, outcome: CheckOutcome, reason: string): void => void lines.push({ check, outcome, reason });
  const report = (): BankCheckReport => ({ bankId: bank.id, standard, lines, failed: lines.some((line) => line.outcome === 'fail') });

  // What the service reaches this bank with: the bank entry's own files where it names some.
  let reach: BankReach;
  try {
    reach = await setup.reach(bank);
  } catch (error) {
    if (!(error instanceof BankIdentityError)) throw error;
    add('identity', 'fail', error.message);
    return report();
  }
  lines.push(...certificateLines(reach.certificates, standard));
  const settings = await settingsWithRegistration(bank, store, payerReturnAddress(setup.config), add);
  const base = mutualTlsAgent(reach.identity.tls ?? {});
  try {
    const reached = await reachBank(base, addressOf(settings));
    add('tls', reached.outcome, reached.reason);
    if (reached.outcome === 'fail') return report();
    const identity = connectorIdentity(reach, standard, add);
    if (identity === undefined) return report();
    const answers: RecordedAnswer[] = [];
    const connectors = createConnectors({ ...identity, dispatcher: recordingDispatcher(base, answers), now: setup.now });
    const connector = connectors.for(settings);
    if (bank.environment === 'sandbox') await paymentChecks(connector, bank, settings, answers, add);
    else await liveBankChecks(connector, settings, answers, add);
    answerLines(standard, settings, answers, add);
    return report();
  } finally {
    await base.close();
  }
}

/** The bank's settings with its UK registration when one is kept: the overlay the service's bank registry makes. */
async function settingsWithRegistration(
  bank: Bank,
  store: BankRegistrationStore | undefined,
  returnAddress: string,
  add: (check: string, outcome: CheckOutcome, reason: string) => void,
): Promise<Bank['connector']> {
  if (bank.connector.standard !== 'uk-open-banking') return bank.connector;
  const settings = bank.connector;
  const registration = await store?.get(bank.id);
  if (registration === undefined) {
    add('registration', 'warn', `no registration kept for ${bank.id}: using the client id of its settings (${settings.clientId})`);
    return settings;
  }
  const registered = registration.answer['redirect_uris'];
  if (
    settings.authorisation === 'redirect' &&
    Array.isArray(registered) &&
    !registered.some((uri) => typeof uri === 'string' && uri.replace(/\/+$/, '') === returnAddress)
  ) {
    // The bank sends payers back only to a registered address (BASE_URL changed since, or the SSA listed others).
    add(
      'registration',
      'fail',
      `client ${registration.clientId} is registered with the redirect URIs ${registered.join(', ')}, not ${returnAddress}, where payers ` +
        `come back to us (BASE_URL + /pay/return): the bank would refuse every payment's authorisation; run openpis banks register ` +
        `${bank.id} --update (with a software statement listing it)`,
    );
  } else add('registration', 'pass', `client ${registration.clientId} (${registration.tokenEndpointAuthMethod})`);
  return withRegistration(settings, registration);
}

/** One line per certificate towards the bank (its own, named so, or the process's). */
function certificateLines(reports: readonly CertificateReport[], standard: string): CheckLine[] {
  const lines = reports.map((report): CheckLine => {
    const own = report.bank === undefined ? '' : ` (the bank entry's own, identity settings)`;
    const which = `${report.certificate.subject}, ${report.certificate.organisationIdentifier ?? 'no organisation identifier'}${own}`;
    switch (report.state) {
      case 'valid':
        return { check: `certificate ${report.use}`, outcome: 'pass', reason: `${which}, valid for ${report.daysLeft} more days` };
      case 'expiring':
        return { check: `certificate ${report.use}`, outcome: 'warn', reason: `${which} expires in ${report.daysLeft} days: renew it` };
      case 'expired':
        return {
          check: `certificate ${report.use}`,
          outcome: 'fail',
          reason: `${which} expired on ${report.certificate.notAfter}: banks refuse it`,
        };
      case 'not-yet-valid':
        return {
          check: `certificate ${report.use}`,
          outcome: 'fail',
          reason: `${which} is not valid before ${report.certificate.notBefore}`,
        };
    }
  });
  const transport = standard === 'uk-open-banking' ? 'ob-transport' : 'qwac';
  if (!reports.some((report) => report.use === transport)) {
    const setting = standard === 'uk-open-banking' ? 'OB_TRANSPORT_CERT_FILE/OB_TRANSPORT_KEY_FILE' : 'QWAC_CERT_FILE/QWAC_KEY_FILE';
    lines.push({
      check: `certificate ${transport}`,
      outcome: 'warn',
      reason: `none configured (${setting}): a bank that requires mutual TLS refuses us`,
    });
  }
  return lines;
}

function addressOf(settings: Bank['connector']): string {
  return settings.standard === 'uk-open-banking' ? settings.issuer : settings.baseUrl;
}

/** One TLS round trip to the bank's address with our certificate: what fails here is the network or TLS. */
async function reachBank(dispatcher: Dispatcher, address: string): Promise<{ outcome: CheckOutcome; reason: string }> {
  const url = new URL(address);
  try {
    const answer = await request(url, { method: 'GET', dispatcher, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    await answer.body.dump();
    if (url.protocol !== 'https:') return { outcome: 'warn', reason: `reached ${url.origin} over plain http (a live bank is https only)` };
    return { outcome: 'pass', reason: `reached ${url.origin} over TLS` };
  } catch (error) {
    return { outcome: 'fail', reason: networkReason(error, url) };
  }
}

/** What a failed connection means for the operator, from the error's code (TLS, DNS, refused). */
function networkReason(error: unknown, url: URL): string {
  const cause = error instanceof Error ? ((error.cause as { code?: string; message?: string } | undefined) ?? error) : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const text = typeof code === 'string' ? code : '';
  const message =
    cause instanceof Error || typeof (cause as { message?: unknown })?.message === 'string'
      ? String((cause as { message: string }).message)
      : String(error);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `${url.origin} did not answer within ${CALL_TIMEOUT_MS / 1000} s`;
  if (text === 'ECONNREFUSED') return `nothing answers at ${url.host}: is the address right and the bank up?`;
  if (text === 'ENOTFOUND' || text === 'EAI_AGAIN') return `the host ${url.hostname} is not found (DNS)`;
  if (/SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_UNTRUSTED/.test(text))
    return `the bank's server certificate is not trusted (${text}): add the CA that issued it to BANK_CA_FILE`;
  if (text === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the bank's server certificate is not for ${url.hostname} (${message})`;
  if (text === 'CERT_HAS_EXPIRED') return "the bank's server certificate has expired";
  if (/ALERT|SSL|TLS/.test(text) || /alert|handshake/i.test(message))
    return `the TLS handshake failed (${text || message}): the bank may refuse our client certificate (the QWAC or transport certificate)`;
  return `${url.origin} cannot be reached (${text || message})`;
}

/**
 * Our keys for the connector (its TLS is the recording dispatcher's); undefined (with a failed line) when a key the
 * standard needs is missing.
 */
function connectorIdentity(
  reach: BankReach,
  standard: string,
  add: (check: string, outcome: CheckOutcome, reason: string) => void,
): Omit<ConnectorIdentity, 'tls'> | undefined {
  if (standard === 'uk-open-banking') {
    try {
      return { openBankingKeys: ukSigningKeysOf(reach) };
    } catch (error) {
      add('signing key', 'fail', error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }
  return reach.identity.signing === undefined ? {} : { signing: reach.identity.signing };
}

/** Create, read and cancel a small payment; each step's line says what the bank did or why it refused. */
async function paymentChecks(
  connector: BankConnector,
  bank: Bank,
  settings: Bank['connector'],
  answers: readonly RecordedAnswer[],
  add: (check: string, outcome: CheckOutcome, reason: string) => void,
): Promise<void> {
  const context = (): CallContext => ({ requestId: randomUUID(), psuIpAddress: '192.0.2.10' });
  const standard = settings.standard;
  const order: PaymentOrder = {
    endToEndId: `CHECK-${randomUUID().slice(0, 8)}`,
    amount: '1.00',
    currency: bank.currencies[0] ?? 'EUR',
    scheme: bank.paymentSchemes[0] ?? 'SEPA',
    instantPreferred: false,
    creditor: { iban: TEST_CREDITOR_IBAN[standard === 'uk-open-banking' ? 'uk-open-banking' : 'berlin-group'], name: 'openpis bank check' },
    ...(bank.requiredPaymentFields.includes('SENDER_ACCOUNT') ? { debtor: { iban: TEST_DEBTOR_IBAN } } : {}),
    remittanceInformation: 'openpis bank check',
  };
  const returnUri = 'https://localhost/pay/return';
  const step = async <T>(check: string, run: () => Promise<T>, passed: (result: T) => string): Promise<T | undefined> => {
    const before = answers.length;
    try {
      const result = await run();
      add(check, 'pass', passed(result));
      return result;
    } catch (error) {
      add(check, 'fail', refusalReason(error, answers.slice(before)));
      return undefined;
    }
  };
  const created = await step(
    'create payment',
    () =>
      connector.registerPayment({
        context: context(),
        payment: order,
        returnAddress: { uri: returnUri, registeredUri: returnUri, state: randomUUID() },
        idempotencyKey: randomUUID(),
      }),
    (result) =>
      `the bank took a test payment of ${order.amount} ${order.currency}: ${result.providerPaymentId} (${result.transactionStatus.code})`,
  );
  tokenLine(standard, answers, add);
  if (created === undefined) return;
  const payment: BankReference = created.payment;
  await step(
    'read payment',
    () => connector.getPaymentStatus({ context: context(), payment }),
    (result) => `status ${result.transactionStatus.code} (${result.transactionStatus.state})`,
  );
  await step(
    'cancel payment',
    () => connector.cancelPayment({ context: context(), payment }),
    (result) =>
      result.cancelled
        ? standard === 'uk-open-banking'
          ? 'nothing to cancel at the bank: an unauthorised consent can never be paid (the standard has no cancel)'
          : `cancelled (${result.transactionStatus?.code ?? 'no status given'})`
        : result.authorisationRequired
          ? 'the bank needs the payer to authorise a cancellation'
          : 'the bank did not cancel it',
  );
}

/**
 * A live bank: no test payment. One read, through the bank's connector, of a payment that cannot exist (a fresh random
 * id): the request carries all a payment's calls carry (our TLS certificate; the Berlin Group signature; the UK token,
 * got with our client assertion), so the bank refuses us in its own words if it does not accept them, and otherwise
 * can only answer that it knows no such payment. Nothing is created at the bank.
 */
async function liveBankChecks(
  connector: BankConnector,
  settings: Bank['connector'],
  answers: readonly RecordedAnswer[],
  add: (check: string, outcome: CheckOutcome, reason: string) => void,
): Promise<void> {
  const standard = settings.standard;
  const check = 'bank accepts us';
  const reference = absentPaymentReference(settings);
  try {
    const status = await connector.getPaymentStatus({
      context: { requestId: randomUUID(), psuIpAddress: '192.0.2.10' },
      payment: reference,
    });
    tokenLine(standard, answers, add);
    add(check, 'warn', `the bank answered a status (${status.transactionStatus.code}) for a payment that cannot exist: ask the bank why`);
    return;
  } catch (error) {
    tokenLine(standard, answers, add);
    // UK: a refused token is the line above; the read was never sent.
    if (standard === 'uk-open-banking' && tokenAnswer(answers)?.status !== 200) return;
    const refused = [...answers].reverse().find((answer) => answer.status >= 400);
    if (refused !== undefined && isUnknownResource(refused)) {
      const what =
        standard === 'uk-open-banking'
          ? 'our certificate and token'
          : settings.standard === 'berlin-group' && settings.signRequests === true
            ? 'our certificate and signature'
            : 'our certificate';
      add(
        check,
        'pass',
        `the bank took ${what}: it answered that it holds no payment of a fresh random id (${bankWords(refused) ?? 'no such resource'}, ` +
          `HTTP ${refused.status}), as it should; a live bank gets no test payment`,
      );
      return;
    }
    if (refused?.status === 404) {
      // A bare 404 may be the bank's "no such payment", or an address that is not its API (a wrong baseUrl path).
      add(
        check,
        'warn',
        `the bank answered HTTP 404 without the standard's error body to a read at ${refused.url}: it may hold no such payment, ` +
          "or the address is not the bank's API (check the entry's addresses)",
      );
      return;
    }
    add(check, 'fail', refusalReason(error, answers));
  }
}

/** UK: the answer to the client-credentials token request among the recorded answers. */
function tokenAnswer(answers: readonly RecordedAnswer[]): RecordedAnswer | undefined {
  return answers.find((answer) => /\/token$/.test(new URL(answer.url).pathname));
}

/**
 * The bank's answer, in its standard's words, is that it knows no such payment (Berlin Group RESOURCE_UNKNOWN, UK
 * UK.OBIE.Resource.NotFound).
 */
function isUnknownResource(answer: RecordedAnswer): boolean {
  const body = parsedBody(answer);
  const tppMessages = body?.['tppMessages'];
  if (
    Array.isArray(tppMessages) &&
    tppMessages.some((message) => (message as Record<string, unknown> | null)?.['code'] === 'RESOURCE_UNKNOWN')
  )
    return true;
  // UK: v3 names the code in ErrorCode; v4 gives a code of OBL's set there and starts the Message with the name.
  const errors = body?.['Errors'];
  return (
    Array.isArray(errors) &&
    errors.some((entry) => {
      const error = entry as Record<string, unknown> | null;
      return [error?.['ErrorCode'], String(error?.['Message']).split(' ')[0]].includes('UK.OBIE.Resource.NotFound');
    })
  );
}

/** UK: the client-credentials token the connector asked for first, as its own line. */
function tokenLine(
  standard: string,
  answers: readonly RecordedAnswer[],
  add: (check: string, outcome: CheckOutcome, reason: string) => void,
): void {
  if (standard !== 'uk-open-banking') return;
  const token = tokenAnswer(answers);
  if (token === undefined) return add('token', 'fail', 'no token was asked for (discovery failed first)');
  if (token.status === 200) return add('token', 'pass', 'a client-credentials token was issued');
  add('token', 'fail', `the token endpoint refused us: ${bankWords(token) ?? `HTTP ${token.status}`}${hintFor(bankCode(token))}`);
}

/** Every recorded answer of the standard's API, validated against its OpenAPI file. */
function answerLines(
  standard: string,
  settings: Bank['connector'],
  answers: readonly RecordedAnswer[],
  add: (check: string, outcome: CheckOutcome, reason: string) => void,
): void {
  if (standard !== 'berlin-group' && standard !== 'uk-open-banking') return;
  const validator = new StandardAnswers(standard);
  const apiBase = new URL(
    standard === 'uk-open-banking' ? (settings as UkOpenBankingSettings).resourceBaseUrl : addressOf(settings),
  ).pathname.replace(/\/+$/, '');
  for (const answer of answers) {
    const path = new URL(answer.url).pathname;
    if (!path.startsWith(apiBase)) continue;
    const validation = validator.validate({ ...answer, path: path.slice(apiBase.length) });
    if (validation.operationId === undefined) continue;
    const check = `answer ${validation.operationId} (HTTP ${answer.status})`;
    if (validation.problems.length === 0) add(check, 'pass', `as ${validator.source} defines it`);
    else add(check, 'fail', `not as ${validator.source} defines it: ${validation.problems.join('; ')}`);
  }
}

/** Why a step failed, in the bank's words where it said any, with what to do about it. */
function refusalReason(error: unknown, answers: readonly RecordedAnswer[]): string {
  const refused = [...answers].reverse().find((answer) => answer.status >= 400);
  if (error instanceof BankRejectedError || (error instanceof BankProtocolError && refused !== undefined)) {
    const words = refused === undefined ? undefined : bankWords(refused);
    const code = refused === undefined ? (error as BankRejectedError).messages[0]?.code : bankCode(refused);
    return `the bank refused (HTTP ${refused?.status ?? (error as BankRejectedError).httpStatus}${words === undefined ? '' : `: ${words}`})${hintFor(code)}`;
  }
  if (error instanceof BankUnavailableError)
    return `no usable answer (${error.reason}${error.httpStatus === undefined ? '' : `, HTTP ${error.httpStatus}`}): try again later`;
  if (error instanceof BankProtocolError) return `the answer is not what the standard says: ${error.problem}`;
  return error instanceof Error ? error.message : String(error);
}

/** The bank's own code and words in a refusal, in its standard's shape (tppMessages, OBErrorResponse1, OAuth). */
function bankWords(answer: RecordedAnswer): string | undefined {
  const body = parsedBody(answer);
  const message = body?.['tppMessages'];
  if (Array.isArray(message) && typeof message[0] === 'object' && message[0] !== null) {
    const first = message[0] as Record<string, unknown>;
    return `${String(first['code'])}${typeof first['text'] === 'string' ? ` — ${first['text']}` : ''}`;
  }
  const errors = body?.['Errors'];
  if (Array.isArray(errors) && typeof errors[0] === 'object' && errors[0] !== null) {
    const first = errors[0] as Record<string, unknown>;
    return `${String(first['ErrorCode'])} — ${String(first['Message'])}`;
  }
  if (typeof body?.['error'] === 'string')
    return `${body['error']}${typeof body['error_description'] === 'string' ? ` — ${body['error_description']}` : ''}`;
  return undefined;
}

function bankCode(answer: RecordedAnswer): string | undefined {
  const body = parsedBody(answer);
  const tpp = body?.['tppMessages'];
  if (Array.isArray(tpp)) return String((tpp[0] as Record<string, unknown> | undefined)?.['code']);
  const errors = body?.['Errors'];
  if (Array.isArray(errors)) return String((errors[0] as Record<string, unknown> | undefined)?.['Message']).split(' ')[0];
  return typeof body?.['error'] === 'string' ? body['error'] : undefined;
}

/** What to do about the bank's refusal codes that point at our configuration. */
const HINTS: Readonly<Record<string, string>> = {
  CERTIFICATE_MISSING: 'we presented no client certificate: configure the QWAC (QWAC_CERT_FILE and QWAC_KEY_FILE)',
  CERTIFICATE_INVALID:
    'the bank does not accept our certificate: is it issued by a CA the bank trusts, and are the QWAC and QSealC of the same organisation?',
  CERTIFICATE_EXPIRED: 'renew the certificate and update its files',
  SIGNATURE_MISSING: "configure the QSealC (QSEAL_CERT_FILE and QSEAL_KEY_FILE) and set signRequests in the bank's settings",
  SIGNATURE_INVALID: 'the bank cannot verify our request signature: does QSEAL_KEY_FILE belong to QSEAL_CERT_FILE?',
  invalid_client:
    'the bank does not know our client or its key: run openpis banks register for this bank, and check OB_SIGNING_KEY_ID is the kid in the software statement',
  'UK.OBIE.Signature.Invalid':
    'the bank cannot verify our x-jws-signature: is OB_SIGNING_KEY_FILE the key the software statement publishes under OB_SIGNING_KEY_ID?',
  'UK.OBIE.Header.Invalid': 'check our transport certificate (OB_TRANSPORT_CERT_FILE): the bank may not trust its CA',
};

function hintFor(code: string | undefined): string {
  const hint = code === undefined ? undefined : HINTS[code];
  return hint === undefined ? '' : `; ${hint}`;
}

function parsedBody(answer: RecordedAnswer): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(answer.body) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One answer as it came over the wire, with the request's method and URL. */
interface RecordedAnswer extends Omit<BankAnswer, 'path'> {
  readonly url: string;
}

/**
 * undici's DecoratorHandler forwards the handler API its own interceptors use (onResponseStart/Data/End); its type
 * declarations do not list those methods yet, so the class is typed here as what it is at run time.
 */
interface ResponseHandler extends Dispatcher.DispatchHandler {
  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void;
  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void;
  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void;
}
const ForwardingHandler = DecoratorHandler as unknown as new (handler: Dispatcher.DispatchHandler) => ResponseHandler;

/** Keeps a copy of every answer that passes through, for validation after the connector has read it. */
class RecordingHandler extends ForwardingHandler {
  private status = 0;
  private headers: Record<string, string | undefined> = {};
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
    private readonly record: (answer: RecordedAnswer) => void,
  ) {
    super(handler);
  }

  override onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    this.status = statusCode;
    this.headers = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]),
    );
    super.onResponseStart(controller, statusCode, headers, statusMessage);
  }

  override onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    super.onResponseData(controller, chunk);
  }

  override onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    const origin = typeof this.options.origin === 'string' ? this.options.origin : (this.options.origin?.toString() ?? '');
    this.record({
      method: this.options.method,
      url: new URL(this.options.path, origin).toString(),
      status: this.status,
      headers: this.headers,
      body: Buffer.concat(this.chunks).toString('utf8'),
    });
    super.onResponseEnd(controller, trailers);
  }
}

function recordingDispatcher(base: Dispatcher, answers: RecordedAnswer[]): Dispatcher {
  return base.compose(
    (dispatch) => (options, handler) => dispatch(options, new RecordingHandler(options, handler, (answer) => answers.push(answer))),
  );
}
