/**
 * A UK sandbox bank on a real loopback port, and a test-side TPP written with jose: client registration, client
 * assertions, request objects, detached request signatures, id_token checks (c_hash, s_hash, nonce) and response
 * signature checks. Every resource API call is checked against the standard's OpenAPI definition both ways.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  base64url,
  CompactSign,
  createLocalJWKSet,
  exportJWK,
  flattenedVerify,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
} from 'jose';
import { FaultPlan, type SandboxFixtures, ukSandboxBankPlugin, type UkFaultRule } from '@openpis/sandbox-bank';
import type { BankJson } from '../harness.js';
import { ukStandard } from './standard.js';

export interface TestClock {
  now: Date;
  advance(ms: number): void;
}

export interface UkBank {
  readonly app: FastifyInstance;
  /** `http://127.0.0.1:<port>/uk` */
  readonly base: string;
  readonly faults: FaultPlan<UkFaultRule>;
  readonly clock: TestClock;
  /** The operator's bearer token for the fault routes. */
  readonly operatorToken: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startUkBank(options: { fixtures?: SandboxFixtures; clockStart?: Date; maxConsents?: number } = {}): Promise<UkBank> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/uk`;
  const clock: TestClock = {
    now: options.clockStart ?? new Date('2026-03-02T10:00:00Z'),
    advance(ms) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const faults = new FaultPlan<UkFaultRule>();
  const operatorToken = randomBytes(16).toString('hex');
  const app = Fastify({ logger: false });
  await app.register(ukSandboxBankPlugin, {
    prefix: '/uk',
    publicUrl: base,
    clock: () => clock.now,
    faults,
    operatorToken,
    ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
    ...(options.maxConsents === undefined ? {} : { maxConsents: options.maxConsents }),
  });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, base, faults, clock, operatorToken, close: () => app.close() };
}

export interface ApiResult {
  readonly status: number;
  readonly headers: Headers;
  readonly body: BankJson;
  readonly text: string;
}

export interface ApiCall {
  readonly token?: string;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
  /** Sign the body (POSTs); default true for POST. */
  readonly signed?: boolean;
  /** Replace the signature (tampering tests). */
  readonly signature?: string;
  readonly headers?: Record<string, string>;
  /** The call breaks the contract on purpose (bad signature …): do not check the request against the standard. */
  readonly invalidRequest?: boolean;
  /** An injected fault answers: do not check the response (standard.ts, reading 3). */
  readonly faulty?: boolean;
}

export const PS256 = 'PS256';
const CRIT = ['http://openbanking.org.uk/iat', 'http://openbanking.org.uk/iss', 'http://openbanking.org.uk/tan'];

export class Tpp {
  readonly clientId = `tpp-${randomUUID().slice(0, 8)}`;
  private privateKey!: CryptoKey;
  private publicJwk!: JWK;
  readonly kid = randomUUID();
  private bankJwks: JSONWebKeySet | undefined;

  constructor(
    readonly bank: UkBank,
    readonly slug: string,
    readonly redirectUri = 'https://tpp.example/callback',
  ) {}

  get issuer(): string {
    return `${this.bank.base}/${this.slug}`;
  }

  get resourceBase(): string {
    return `${this.issuer}/open-banking/v4.0/pisp`;
  }

  /** Makes a PS256 key pair and registers the client with the bank (POST /register). */
  async register(redirectUri = this.redirectUri): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair(PS256, { modulusLength: 2048 });
    this.privateKey = privateKey;
    this.publicJwk = { ...(await exportJWK(publicKey)), kid: this.kid, alg: PS256, use: 'sig' };
    const response = await fetch(`${this.issuer}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: this.clientId, jwks: { keys: [this.publicJwk] }, redirect_uris: [redirectUri] }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    const jwks = (await (await fetch(`${this.issuer}/jwks`)).json()) as JSONWebKeySet;
    this.bankJwks = jwks;
    return this;
  }

  async clientAssertion(audience: string): Promise<string> {
    const now = Math.floor(this.bank.clock.now.getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: PS256, kid: this.kid })
      .setIssuer(this.clientId)
      .setSubject(this.clientId)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /** POST to the token (or backchannel) endpoint with private_key_jwt. */
  async oauthPost(
    endpoint: 'token' | 'backchannel-authentication',
    parameters: Record<string, string>,
  ): Promise<{ status: number; body: BankJson }> {
    const url = `${this.issuer}/${endpoint}`;
    const form = new URLSearchParams({
      ...parameters,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await this.clientAssertion(url),
    });
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    return { status: response.status, body: await response.json() };
  }

  async clientCredentialsToken(): Promise<string> {
    const { status, body } = await this.oauthPost('token', { grant_type: 'client_credentials', scope: 'payments' });
    assert.equal(status, 200, JSON.stringify(body));
    return body.access_token as string;
  }

  /** A detached JWS over the body, as the profile's "Message Signing" asks. */
  async signBody(body: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const header = {
      alg: PS256,
      kid: this.kid,
      typ: 'JOSE',
      cty: 'application/json',
      'http://openbanking.org.uk/iat': Math.floor(this.bank.clock.now.getTime() / 1000) - 1,
      'http://openbanking.org.uk/iss': this.clientId,
      'http://openbanking.org.uk/tan': 'openbanking.org.uk',
      crit: CRIT,
      ...overrides,
    };
    const jws = await new CompactSign(new TextEncoder().encode(body))
      .setProtectedHeader(header)
      .sign(this.privateKey, { crit: Object.fromEntries(CRIT.map((name) => [name, true])) });
    const [protectedHeader, , signature] = jws.split('.');
    return `${protectedHeader}..${signature}`;
  }

  /** Checks the bank's detached response signature over the exact body text. */
  async verifyResponseSignature(signature: string | null, text: string): Promise<void> {
    assert.ok(signature, 'the response carries x-jws-signature');
    const [protectedHeader = '', payload, sig = ''] = signature.split('.');
    assert.equal(payload, '', 'the signature is detached');
    assert.ok(this.bankJwks);
    const { protectedHeader: header } = await flattenedVerify(
      { protected: protectedHeader, payload: base64url.encode(text), signature: sig },
      createLocalJWKSet(this.bankJwks),
      { algorithms: [PS256], crit: Object.fromEntries(CRIT.map((name) => [name, true])) },
    );
    assert.equal(header?.['http://openbanking.org.uk/tan'], 'sandbox.openpis.invalid');
  }

  /** Calls the resource API as the standard's `operationId`; checks request, response and response signature. */
  async api(operationId: string, method: 'GET' | 'POST', path: string, call: ApiCall = {}): Promise<ApiResult> {
    const standard = ukStandard();
    const text = call.body === undefined ? undefined : JSON.stringify(call.body);
    const headers: Record<string, string> = {
      'x-fapi-interaction-id': randomUUID(),
      Accept: 'application/json',
      ...(call.token === undefined ? {} : { Authorization: `Bearer ${call.token}` }),
      ...(text === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(call.idempotencyKey === undefined ? {} : { 'x-idempotency-key': call.idempotencyKey }),
      ...call.headers,
    };
    if (text !== undefined && (call.signed ?? method === 'POST'))
      headers['x-jws-signature'] = call.signature ?? (await this.signBody(text));
    if (call.invalidRequest !== true) {
      assert.deepEqual(standard.validateRequest(operationId, { headers, body: call.body }), [], `request of ${operationId} conforms`);
    }
    const response = await fetch(`${this.resourceBase}${path}`, { method, headers, ...(text === undefined ? {} : { body: text }) });
    const responseText = await response.text();
    const body: unknown = responseText === '' ? undefined : JSON.parse(responseText);
    if (call.faulty !== true) {
      const responseHeaders = Object.fromEntries(response.headers.entries());
      assert.deepEqual(
        standard.validateResponse(operationId, response.status, { headers: responseHeaders, body }),
        [],
        `response ${response.status} of ${operationId} conforms: ${responseText}`,
      );
      assert.equal(response.headers.get('x-fapi-interaction-id'), headers['x-fapi-interaction-id'], 'the interaction id is played back');
      if (responseText !== '') await this.verifyResponseSignature(response.headers.get('x-jws-signature'), responseText);
    }
    return { status: response.status, headers: response.headers, body, text: responseText };
  }

  async createConsent(
    initiation: Record<string, unknown>,
    options: { token?: string; idempotencyKey?: string; readRefundAccount?: 'Yes' | 'No' } = {},
  ): Promise<ApiResult> {
    const token = options.token ?? (await this.clientCredentialsToken());
    return this.api('CreateDomesticPaymentConsents', 'POST', '/domestic-payment-consents', {
      token,
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
      body: {
        Data: {
          ...(options.readRefundAccount === undefined ? {} : { ReadRefundAccount: options.readRefundAccount }),
          Initiation: initiation,
        },
        Risk: { PaymentContextCode: 'EcommerceMerchantInitiatedPayment' },
      },
    });
  }

  /** The `/authorize` URL with a signed request object naming the consent. */
  async authorizeUrl(
    consentId: string,
    options: {
      state?: string;
      nonce?: string;
      responseMode?: 'form_post';
      audience?: string;
      signWith?: CryptoKey;
      lifetimeSeconds?: number;
    } = {},
  ): Promise<string> {
    const now = Math.floor(this.bank.clock.now.getTime() / 1000);
    const claims: JWTPayload = {
      client_id: this.clientId,
      response_type: 'code id_token',
      scope: 'openid payments',
      redirect_uri: this.redirectUri,
      state: options.state ?? 'state-123',
      nonce: options.nonce ?? 'nonce-456',
      ...(options.responseMode === undefined ? {} : { response_mode: options.responseMode }),
      claims: {
        id_token: {
          openbanking_intent_id: { value: consentId, essential: true },
          acr: { essential: true, values: ['urn:openbanking:psd2:sca'] },
        },
      },
    };
    const request = await new SignJWT(claims)
      .setProtectedHeader({ alg: PS256, kid: this.kid })
      .setIssuer(this.clientId)
      .setAudience(options.audience ?? this.issuer)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + (options.lifetimeSeconds ?? 300))
      .setJti(randomUUID())
      .sign(options.signWith ?? this.privateKey);
    const query = new URLSearchParams({
      client_id: this.clientId,
      response_type: 'code id_token',
      scope: 'openid payments',
      redirect_uri: this.redirectUri,
      request,
    });
    return `${this.issuer}/authorize?${query.toString()}`;
  }

  /** Checks an id_token from the bank: signature, iss, aud, nonce, intent id, and c_hash/s_hash when given. */
  async verifyIdToken(
    idToken: string,
    expected: { consentId: string; nonce?: string; code?: string; state?: string },
  ): Promise<JWTPayload> {
    assert.ok(this.bankJwks);
    const { payload, protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(this.bankJwks), {
      algorithms: [PS256],
      issuer: this.issuer,
      audience: this.clientId,
      currentDate: this.bank.clock.now,
    });
    assert.equal(protectedHeader.alg, PS256);
    assert.equal(payload['openbanking_intent_id'], expected.consentId);
    if (expected.nonce !== undefined) assert.equal(payload['nonce'], expected.nonce);
    if (expected.code !== undefined) assert.equal(payload['c_hash'], leftHalfHash(expected.code));
    if (expected.state !== undefined) assert.equal(payload['s_hash'], leftHalfHash(expected.state));
    return payload;
  }

  async exchangeCode(code: string): Promise<{ status: number; body: BankJson }> {
    return this.oauthPost('token', { grant_type: 'authorization_code', code, redirect_uri: this.redirectUri });
  }

  /** CIBA: the signed request names the consent and the payer (login_hint_token with sub, unsigned as the profile shows). */
  async backchannel(consentId: string, payer: string): Promise<{ status: number; body: BankJson }> {
    const now = Math.floor(this.bank.clock.now.getTime() / 1000);
    const loginHintToken = new UnsecuredJWT({ sub: payer }).encode();
    const request = await new SignJWT({
      scope: 'openid payments',
      login_hint_token: loginHintToken,
      client_notification_token: randomUUID(),
      claims: { id_token: { openbanking_intent_id: { value: consentId, essential: true } } },
    })
      .setProtectedHeader({ alg: PS256, kid: this.kid })
      .setIssuer(this.clientId)
      .setAudience(this.issuer)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 300)
      .setJti(randomUUID())
      .sign(this.privateKey);
    return this.oauthPost('backchannel-authentication', { request });
  }
}

export function leftHalfHash(value: string): string {
  const digest = createHash('sha256').update(value, 'ascii').digest();
  return digest.subarray(0, 16).toString('base64url');
}

export function gbpPayment(amount: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    InstructionIdentification: `instr-${randomUUID().slice(0, 8)}`,
    EndToEndIdentification: `e2e-${randomUUID().slice(0, 8)}`,
    LocalInstrument: 'UK.OBIE.FPS',
    InstructedAmount: { Amount: amount, Currency: 'GBP' },
    CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Ltd' },
    RemittanceInformation: { Reference: 'Order 42' },
    ...extra,
  };
}

// ---- the payer's pages over plain HTTP (the browser test drives the same pages in Chromium) -------------------

export interface PayerChoices {
  readonly psuId: string;
  readonly password?: string;
  /** Account id to pick on the account page (when shown). */
  readonly accountId?: string;
  /** What the payer does on the review page. */
  readonly decision?: 'approve' | 'deny';
}

export interface PageVisit {
  /** Where the bank finally sent the browser (redirect URI with fragment), when it did. */
  readonly location: string | undefined;
  /** Steps seen, in order. */
  readonly steps: string[];
  readonly lastHtml: string;
}

function hidden(html: string, name: string): string | undefined {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
}

/** Follows `/authorize` and the bank's pages like a browser without JavaScript would. */
export async function payerAtBank(authorizeUrl: string, choices: PayerChoices): Promise<PageVisit> {
  const first = await fetch(authorizeUrl, { redirect: 'manual' });
  const pageUrl = first.headers.get('location');
  if (first.status !== 303 || pageUrl === null) return { location: undefined, steps: [], lastHtml: await first.text() };
  if (!pageUrl.includes('/pay/')) return { location: pageUrl, steps: [], lastHtml: '' };
  const steps: string[] = [];
  for (let round = 0; round < 6; round += 1) {
    const page = await fetch(pageUrl);
    const html = await page.text();
    const step = hidden(html, 'step');
    if (step === undefined) return { location: undefined, steps, lastHtml: html };
    steps.push(step);
    const form = new URLSearchParams({ csrf: hidden(html, 'csrf') ?? '', step });
    if (step === 'login') {
      form.set('psuId', choices.psuId);
      form.set('password', choices.password ?? 'sandbox');
      form.set('action', 'approve');
    } else if (step === 'account') {
      form.set('accountId', choices.accountId ?? /name="accountId" value="([^"]*)"/.exec(html)?.[1] ?? '');
      form.set('action', 'approve');
    } else {
      form.set('action', choices.decision ?? 'approve');
    }
    const answer = await fetch(pageUrl, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const location = answer.headers.get('location');
    if (answer.status === 303 && location !== null && !location.startsWith('http')) continue;
    return { location: location ?? undefined, steps, lastHtml: await answer.text() };
  }
  throw new Error('too many page rounds');
}

export function fragmentOf(location: string | undefined): URLSearchParams {
  assert.ok(location, 'the bank redirected back');
  return new URLSearchParams(location.slice(location.indexOf('#') + 1));
}

/** Approves (or denies) every pending CIBA request of a payer in the sandbox bank app (`password`: the fixtures'). */
export async function payerInBankApp(
  bank: Pick<UkBank, 'base'>,
  slug: string,
  psuId: string,
  decision: 'approve' | 'deny',
  password = 'sandbox',
): Promise<number> {
  const login = await fetch(`${bank.base}/${slug}/app`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ psuId, password }),
  });
  assert.equal(login.status, 303);
  const appUrl = `${bank.base}/${slug}/${login.headers.get('location') ?? ''}`;
  let decided = 0;
  for (;;) {
    const html = await (await fetch(appUrl)).text();
    const requestId = hidden(html, 'request');
    if (requestId === undefined) return decided;
    const answer = await fetch(appUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: hidden(html, 'csrf') ?? '', request: requestId, action: decision }),
    });
    assert.equal(answer.status, 303);
    decided += 1;
  }
}
