/**
 * `tls_client_auth` at a UK Open Banking bank (issue 9). The UK sandbox banks serve plain HTTP, so this test puts a
 * minimal stand-in for a bank (discovery, JWKS, token endpoint, domestic payment consents) behind HTTPS that
 * requires a client certificate, and proves that:
 * - with `tls_client_auth` the token request arrives over TLS carrying our client certificate, with `client_id`
 *   and without any client assertion, and the consent is registered;
 * - without the client certificate the handshake is refused: `BankUnavailableError` (indeterminate), never success;
 * - with `private_key_jwt` the same endpoint receives a client assertion that verifies with our public key.
 */
import assert from 'node:assert/strict';
import { randomUUID, X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { after, before, beforeEach, test } from 'node:test';
import { CompactSign, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { Agent } from 'undici';
import type { PaymentOrder } from '../../../src/connectors/contract.js';
import { BankUnavailableError } from '../../../src/connectors/errors.js';
import { forgetBankMetadata } from '../../../src/connectors/uk-open-banking/discovery.js';
import { createUkOpenBankingConnector, type UkOpenBankingSettings } from '../../../src/connectors/uk-open-banking/index.js';
import type { SigningKeys } from '../../../src/connectors/uk-open-banking/jose.js';
import { throwawayCertificate, type KeyAndCertificate } from '../helpers/throwaway-certificates.js';

const CLIENT_ID = 'openpis-mtls-client';
const CLIENT_SUBJECT_CN = 'openpis OBWAC';
const OB_IAT = 'http://openbanking.org.uk/iat';
const OB_ISS = 'http://openbanking.org.uk/iss';
const OB_TAN = 'http://openbanking.org.uk/tan';
const BANK_TAN = 'openbanking.org.uk';

/** What the stand-in's token endpoint saw of one request. */
interface TokenRequest {
  readonly tlsAuthorized: boolean;
  readonly peerSubjectCN: string;
  readonly peerFingerprint256: string;
  readonly form: Readonly<Record<string, string>>;
}

let bankCertificate: KeyAndCertificate;
let clientCertificate: KeyAndCertificate;
let bankSigningKey: CryptoKey;
let bankPublicJwk: JWK;
let ourKeys: SigningKeys;
let ourPublicKey: CryptoKey;
let server: Server;
let origin: string;
let issuer: string;
const tokenRequests: TokenRequest[] = [];
const consentRequests: Array<{ readonly authorization: string | undefined; readonly body: unknown }> = [];
const issuedTokens = new Set<string>();
const agents: Agent[] = [];

before(async () => {
  bankCertificate = throwawayCertificate('/CN=127.0.0.1', { san: 'IP:127.0.0.1' });
  clientCertificate = throwawayCertificate(`/C=GB/O=openpis test/CN=${CLIENT_SUBJECT_CN}`);
  const bankPair = await generateKeyPair('PS256', { extractable: true, modulusLength: 2048 });
  bankSigningKey = bankPair.privateKey;
  bankPublicJwk = { ...(await exportJWK(bankPair.publicKey)), kid: 'bank-key-1', alg: 'PS256', use: 'sig' };
  const ourPair = await generateKeyPair('PS256', { extractable: true, modulusLength: 2048 });
  ourKeys = { privateKey: ourPair.privateKey, kid: 'openpis-key-1' };
  ourPublicKey = ourPair.publicKey;

  server = createServer(
    {
      key: bankCertificate.keyPem,
      cert: bankCertificate.certificatePem,
      requestCert: true,
      rejectUnauthorized: true,
      ca: [clientCertificate.certificatePem],
    },
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ error: error instanceof Error ? error.message : 'error' }));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = `${origin}/bank`;
});

after(async () => {
  for (const agent of agents) await agent.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  // The connector caches discovery per issuer for the process; every test starts from the handshake.
  forgetBankMetadata();
  tokenRequests.length = 0;
  consentRequests.length = 0;
});

// ---- the stand-in bank ------------------------------------------------------------------------------------------

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(text);
}

/** The bank's detached `x-jws-signature` over the exact body text (UK Message Signing). */
async function bankSignature(text: string): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(text))
    .setProtectedHeader({
      alg: 'PS256',
      kid: 'bank-key-1',
      typ: 'JOSE',
      cty: 'application/json',
      [OB_IAT]: Math.floor(Date.now() / 1000) - 1,
      [OB_ISS]: 'stand-in-bank',
      [OB_TAN]: BANK_TAN,
      crit: [OB_IAT, OB_ISS, OB_TAN],
    })
    .sign(bankSigningKey, { crit: { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true } });
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? '/', origin).pathname;
  if (request.method === 'GET' && path === '/bank/.well-known/openid-configuration') {
    sendJson(response, 200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      token_endpoint_auth_methods_supported: ['tls_client_auth', 'private_key_jwt'],
      tls_client_certificate_bound_access_tokens: true,
    });
    return;
  }
  if (request.method === 'GET' && path === '/bank/jwks') {
    sendJson(response, 200, { keys: [bankPublicJwk] });
    return;
  }
  if (request.method === 'POST' && path === '/bank/token') {
    const socket = request.socket as TLSSocket;
    const peer = socket.getPeerCertificate();
    const form = Object.fromEntries(new URLSearchParams(await readBody(request)).entries());
    tokenRequests.push({
      tlsAuthorized: socket.authorized,
      peerSubjectCN: String(peer.subject?.CN ?? ''),
      peerFingerprint256: peer.fingerprint256 ?? '',
      form,
    });
    if (form['grant_type'] !== 'client_credentials') {
      sendJson(response, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const accessToken = `at-${randomUUID()}`;
    issuedTokens.add(accessToken);
    sendJson(response, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300, scope: 'payments' });
    return;
  }
  if (request.method === 'POST' && path === '/bank/open-banking/v4.0/pisp/domestic-payment-consents') {
    const authorization = request.headers.authorization;
    const body = JSON.parse(await readBody(request)) as { Data?: { Initiation?: unknown }; Risk?: unknown };
    consentRequests.push({ authorization, body });
    const token = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
    if (!issuedTokens.has(token)) {
      sendJson(response, 401, {
        Code: '401',
        Message: 'Unauthorized',
        Errors: [{ ErrorCode: 'UK.OBIE.Unauthorised', Message: 'bad token' }],
      });
      return;
    }
    const consentId = `pdc-${randomUUID()}`;
    const now = new Date().toISOString();
    const answer = {
      Data: {
        ConsentId: consentId,
        CreationDateTime: now,
        Status: 'AWAU',
        StatusUpdateDateTime: now,
        Initiation: body.Data?.Initiation,
      },
      Risk: body.Risk,
      Links: { Self: `${issuer}/open-banking/v4.0/pisp/domestic-payment-consents/${consentId}` },
      Meta: {},
    };
    const text = JSON.stringify(answer);
    response.writeHead(201, { 'Content-Type': 'application/json', 'x-jws-signature': await bankSignature(text) });
    response.end(text);
    return;
  }
  sendJson(response, 404, { error: 'not_found' });
}

// ---- the connector ----------------------------------------------------------------------------------------------

function settings(tokenEndpointAuthMethod: UkOpenBankingSettings['tokenEndpointAuthMethod']): UkOpenBankingSettings {
  return {
    standard: 'uk-open-banking',
    issuer,
    resourceBaseUrl: `${issuer}/open-banking/v4.0/pisp`,
    clientId: CLIENT_ID,
    tokenEndpointAuthMethod,
    authorisation: 'redirect',
    signRequests: true,
    verifyResponseSignatures: true,
    jwsIssuer: CLIENT_ID,
    trustAnchor: 'openbanking.org.uk',
    bankTrustAnchor: BANK_TAN,
    fundsConfirmation: false,
    acceptedForExecutionIsCompleted: false,
    timeoutMs: 5_000,
  };
}

function agent(withClientCertificate: boolean): Agent {
  const created = new Agent({
    connect: withClientCertificate
      ? { cert: clientCertificate.certificatePem, key: clientCertificate.keyPem, ca: bankCertificate.certificatePem }
      : { ca: bankCertificate.certificatePem },
  });
  agents.push(created);
  return created;
}

function order(): PaymentOrder {
  return {
    endToEndId: `e2e-${randomUUID().slice(0, 8)}`,
    amount: '12.50',
    currency: 'GBP',
    scheme: 'DOMESTIC',
    instantPreferred: false,
    creditor: { iban: 'GB29NWBK60161331926819', name: 'ACME Ltd' },
    remittanceInformation: 'Order 42',
  };
}

function register(tokenEndpointAuthMethod: UkOpenBankingSettings['tokenEndpointAuthMethod'], withClientCertificate: boolean) {
  const connector = createUkOpenBankingConnector(settings(tokenEndpointAuthMethod), {
    dispatcher: agent(withClientCertificate),
    now: () => new Date(),
    keys: ourKeys,
  });
  return connector.registerPayment({ context: { requestId: randomUUID() }, payment: order(), idempotencyKey: randomUUID() });
}

// ---- the tests --------------------------------------------------------------------------------------------------

test('tls_client_auth: the token request carries our client certificate and client_id, no assertion; the consent is registered', async () => {
  const registered = await register('tls_client_auth', true);

  assert.equal(tokenRequests.length, 1, 'one client-credentials token request');
  const [tokenRequest] = tokenRequests;
  assert.ok(tokenRequest);
  assert.equal(tokenRequest.tlsAuthorized, true, 'the TLS connection was authenticated with a trusted client certificate');
  assert.equal(tokenRequest.peerSubjectCN, CLIENT_SUBJECT_CN);
  assert.equal(tokenRequest.peerFingerprint256, new X509Certificate(clientCertificate.certificatePem).fingerprint256);
  assert.equal(tokenRequest.form['client_id'], CLIENT_ID);
  assert.equal(tokenRequest.form['grant_type'], 'client_credentials');
  assert.equal(tokenRequest.form['client_assertion'], undefined);
  assert.equal(tokenRequest.form['client_assertion_type'], undefined);

  assert.equal(consentRequests.length, 1);
  const [consentRequest] = consentRequests;
  assert.ok(consentRequest);
  assert.ok(consentRequest.authorization?.startsWith('Bearer at-'), 'the consent was created with the issued token');
  const consentBody = consentRequest.body as { Data: { Initiation: Record<string, unknown> } };
  assert.deepEqual(consentBody.Data.Initiation['CreditorAccount'], {
    SchemeName: 'UK.OBIE.SortCodeAccountNumber',
    Identification: '60161331926819',
    Name: 'ACME Ltd',
  });

  assert.match(registered.providerPaymentId ?? '', /^pdc-/);
  assert.deepEqual(registered.transactionStatus, { state: 'received', code: 'AWAU' });
  assert.deepEqual(registered.next, { kind: 'start-authorisation', needs: 'nothing' });
});

test('tls_client_auth without a client certificate: the handshake is refused and the connector throws BankUnavailableError', async () => {
  let outcome: unknown;
  try {
    outcome = await register('tls_client_auth', false);
  } catch (error) {
    outcome = error;
  }
  assert.ok(outcome instanceof BankUnavailableError, `expected BankUnavailableError, got ${String(outcome)}`);
  assert.equal(outcome.reason, 'connection');
  assert.equal(outcome.indeterminate, true);
  assert.equal(tokenRequests.length, 0, 'no request reached the bank');
  assert.equal(consentRequests.length, 0);
});

test('private_key_jwt: the token endpoint receives a client assertion that verifies with our public key', async () => {
  const registered = await register('private_key_jwt', true);
  assert.match(registered.providerPaymentId ?? '', /^pdc-/);

  assert.equal(tokenRequests.length, 1);
  const [tokenRequest] = tokenRequests;
  assert.ok(tokenRequest);
  assert.equal(tokenRequest.form['grant_type'], 'client_credentials');
  assert.equal(tokenRequest.form['client_assertion_type'], 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  const assertion = tokenRequest.form['client_assertion'];
  assert.ok(assertion, 'a client assertion was sent');
  const { payload, protectedHeader } = await jwtVerify(assertion, ourPublicKey, {
    algorithms: ['PS256'],
    issuer: CLIENT_ID,
    subject: CLIENT_ID,
    audience: [`${issuer}/token`, issuer],
  });
  assert.equal(protectedHeader.kid, ourKeys.kid);
  assert.equal(typeof payload.jti, 'string');
  assert.ok(typeof payload.exp === 'number' && typeof payload.iat === 'number' && payload.exp > payload.iat);
});
