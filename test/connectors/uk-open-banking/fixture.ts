/**
 * The UK connector against the real UK sandbox banks on loopback: a registered client per bank, a connector with a
 * recording dispatcher (every request we send is checked against the standard's OpenAPI definition), and the
 * payer's side driven over plain HTTP through the sandbox's pages and app (test/sandbox-bank/uk-open-banking/tpp.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import {
  toBankReference,
  type BankReference,
  type BankReturn,
  type CallContext,
  type PaymentOrder,
} from '../../../src/connectors/contract.js';
import {
  createUkOpenBankingConnector,
  type ConnectorLogger,
  type UkOpenBankingConnector,
  type UkOpenBankingSettings,
} from '../../../src/connectors/uk-open-banking/index.js';
import type { TokenCache } from '../../../src/connectors/http/oauth2.js';
import type { WireRequest } from '../helpers/recording-dispatcher.js';
import { bodyOf, exchangeRecorder, type WireExchange } from './exchange-recorder.js';
import { OPERATIONS, ukStandard } from '../../sandbox-bank/uk-open-banking/standard.js';
import type { UkBank } from '../../sandbox-bank/uk-open-banking/tpp.js';

export const REDIRECT_URI = 'https://tpp.example/callback';

/** The signing key every connector of these tests registers (its `kid` and private half). */
export async function ourSigningKeys(): Promise<{ privateKey: CryptoKey; kid: string }> {
  const { privateKey, kid } = await ourKeys();
  return { privateKey, kid };
}

let keyPair: { privateKey: CryptoKey; kid: string; jwk: Record<string, unknown> } | undefined;

async function ourKeys(): Promise<{ privateKey: CryptoKey; kid: string; jwk: Record<string, unknown> }> {
  if (keyPair !== undefined) return keyPair;
  const { privateKey, publicKey } = await generateKeyPair('PS256', { modulusLength: 2048 });
  const kid = randomUUID();
  keyPair = { privateKey, kid, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'PS256', use: 'sig' } };
  return keyPair;
}

export interface ConnectorUnderTest {
  readonly connector: UkOpenBankingConnector;
  readonly requests: WireRequest[];
  readonly exchanges: WireExchange[];
  readonly settings: UkOpenBankingSettings;
  close(): Promise<void>;
}

/** Registers a client (our public key) with the sandbox and builds a connector for one of its banks. */
export async function connectorFor(
  bank: UkBank,
  slug: string,
  overrides: Partial<UkOpenBankingSettings> = {},
  logger?: ConnectorLogger,
  tokens?: TokenCache,
  transportCertificateFingerprint?: string,
): Promise<ConnectorUnderTest> {
  const keys = await ourKeys();
  const clientId = `openpis-${randomUUID().slice(0, 8)}`;
  const registered = await fetch(`${bank.base}/${slug}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, jwks: { keys: [keys.jwk] }, redirect_uris: [REDIRECT_URI] }),
  });
  assert.equal(registered.status, 201);
  const issuer = `${bank.base}/${slug}`;
  const settings: UkOpenBankingSettings = {
    standard: 'uk-open-banking',
    issuer,
    resourceBaseUrl: `${issuer}/open-banking/v4.0/pisp`,
    clientId,
    tokenEndpointAuthMethod: 'private_key_jwt',
    authorisation: slug === 'pennine' ? 'decoupled' : 'redirect',
    signRequests: true,
    verifyResponseSignatures: true,
    jwsIssuer: clientId,
    trustAnchor: 'openbanking.org.uk',
    bankTrustAnchor: 'sandbox.openpis.invalid',
    fundsConfirmation: false,
    acceptedForExecutionIsCompleted: false,
    timeoutMs: 5_000,
    ...overrides,
  };
  const recording = exchangeRecorder();
  const connector = createUkOpenBankingConnector(settings, {
    dispatcher: recording.dispatcher,
    now: () => bank.clock.now,
    keys: { privateKey: keys.privateKey, kid: keys.kid },
    ...(logger === undefined ? {} : { logger }),
    ...(tokens === undefined ? {} : { tokens }),
    ...(transportCertificateFingerprint === undefined ? {} : { transportCertificateFingerprint }),
  });
  return { connector, requests: recording.requests, exchanges: recording.exchanges, settings, close: recording.close };
}

export function context(): CallContext {
  return { requestId: randomUUID(), psuIpAddress: '198.51.100.7', psuUserAgent: 'test-browser' };
}

export function order(amount = '12.50', extra: Partial<PaymentOrder> = {}): PaymentOrder {
  return {
    endToEndId: `e2e-${randomUUID().slice(0, 8)}`,
    amount,
    currency: 'GBP',
    scheme: 'DOMESTIC',
    instantPreferred: false,
    creditor: { iban: 'GB33BUKB20201555555555', name: 'ACME Ltd' },
    remittanceInformation: 'Order 42',
    ...extra,
  };
}

export function returnOf(location: string | undefined): BankReturn {
  assert.ok(location, 'the bank redirected back');
  const fragment = new URLSearchParams(location.slice(location.indexOf('#') + 1));
  return { query: {}, form: Object.fromEntries(fragment.entries()), nok: false };
}

/** A copy of a reference with some fields replaced (tampering tests). */
export function tampered(reference: BankReference, changes: Record<string, unknown>): BankReference {
  return toBankReference({ ...(reference as unknown as Record<string, unknown>), ...changes });
}

const RESOURCE_ROUTES: ReadonlyArray<{ method: string; pattern: RegExp; operationId: string }> = [
  { method: 'POST', pattern: /\/domestic-payment-consents$/, operationId: OPERATIONS.createConsent },
  { method: 'GET', pattern: /\/domestic-payment-consents\/[^/]+\/funds-confirmation$/, operationId: OPERATIONS.fundsConfirmation },
  { method: 'GET', pattern: /\/domestic-payment-consents\/[^/]+$/, operationId: OPERATIONS.getConsent },
  { method: 'POST', pattern: /\/domestic-payments$/, operationId: OPERATIONS.createPayment },
  { method: 'GET', pattern: /\/domestic-payments\/[^/]+\/payment-details$/, operationId: OPERATIONS.paymentDetails },
  { method: 'GET', pattern: /\/domestic-payments\/[^/]+$/, operationId: OPERATIONS.getPayment },
];

/** The standard's operationId of a resource API request; undefined for OAuth and discovery calls. */
export function operationOf(request: WireRequest): string | undefined {
  return RESOURCE_ROUTES.find((route) => route.method === request.method && route.pattern.test(request.url.pathname))?.operationId;
}

/** Every resource API request we sent conforms to the OpenAPI definition (headers and body). */
export function assertRequestsConform(requests: readonly WireRequest[]): void {
  const standard = ukStandard();
  for (const request of requests) {
    const operationId = operationOf(request);
    if (operationId === undefined) continue;
    const body = request.bodyText === undefined ? undefined : (JSON.parse(request.bodyText) as unknown);
    assert.deepEqual(standard.validateRequest(operationId, { headers: request.headers, body }), [], `request of ${operationId} conforms`);
  }
}

export function countOf(requests: readonly WireRequest[], operationId: string): number {
  return requests.filter((request) => operationOf(request) === operationId).length;
}

/**
 * Every resource API answer the bank gave conforms to the OpenAPI definition. Answers of injected faults (5xx
 * without a body, not in the definition) are left out, as test/sandbox-bank/uk-open-banking/standard.ts reads it.
 */
export function assertAnswersConform(exchanges: readonly WireExchange[]): void {
  const standard = ukStandard();
  let checked = 0;
  for (const exchange of exchanges) {
    const operationId = operationOf(exchange.request);
    if (operationId === undefined || exchange.status === undefined || exchange.status >= 500) continue;
    checked += 1;
    const text = bodyOf(exchange);
    const body = text === '' ? undefined : (JSON.parse(text) as unknown);
    assert.deepEqual(
      standard.validateResponse(operationId, exchange.status, { headers: exchange.headers, body }),
      [],
      `answer ${exchange.status} of ${operationId} conforms`,
    );
    assert.ok(text === '' || exchange.headers['x-jws-signature'] !== undefined, 'the answer is signed');
  }
  assert.ok(checked > 0, 'the bank answered resource calls');
}
