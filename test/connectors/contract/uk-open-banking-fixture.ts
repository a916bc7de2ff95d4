/**
 * The UK sandbox banks as a "bank under test": the real UK sandbox plugin (src/sandbox-bank/uk-open-banking) on a
 * loopback port with a movable clock, a short authorisation deadline and a fault plan; our client registered with
 * a jose-generated key; and UK connectors built from the catalogue's UK entries, talking to it over real HTTP
 * through a recording dispatcher (so the tests can check every request and answer against the standard).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import type { BankReturn } from '../../../src/connectors/contract.js';
import {
  createUkOpenBankingConnector,
  withSandboxBankUrl,
  type UkOpenBankingSettings,
} from '../../../src/connectors/uk-open-banking/index.js';
import { parseCatalogue } from '../../../src/providers/catalogue.js';
import { FaultPlan, ukSandboxBankPlugin, type UkFaultRule } from '@openpis/sandbox-bank';
import { payerAtBank } from '../../sandbox-bank/uk-open-banking/tpp.js';
import type { WireRequest } from '../helpers/recording-dispatcher.js';
import { exchangeRecorder, type WireExchange } from '../uk-open-banking/exchange-recorder.js';
import type { BankKind, BankUnderTest, RedirectReturn } from './connector-contract.js';

const CATALOGUE_FILE = new URL('../../../src/providers/sandbox-catalogue.json', import.meta.url);

/**
 * Which UK sandbox bank stands for each kind: Albion (redirect, fragment answers) and Pennine (CIBA). UK banks
 * offer neither embedded steps nor account information, so those scenarios skip; they get Albion's connector.
 */
export const UK_SLUG_OF_KIND: Readonly<Record<BankKind, string>> = {
  redirect: 'albion',
  embedded: 'albion',
  decoupled: 'pennine',
  'account-information': 'albion',
};

/** Seconds a payer has to authorise a consent at the sandbox (its `authorisationDeadlineSeconds`). */
const DEADLINE_SECONDS = 60;

export interface UkBankUnderTest extends BankUnderTest {
  /** Every request the connectors sent, and every exchange with its answer. */
  readonly requests: readonly WireRequest[];
  readonly exchanges: readonly WireExchange[];
}

export async function ukOpenBankingUnderTest(): Promise<UkBankUnderTest> {
  // The HTTP server listens first (port 0), so the sandbox is built with its final public URL without a port race.
  let app: FastifyInstance | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    if (app === undefined) {
      response.writeHead(503).end();
      return;
    }
    app.routing(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = `${origin}/uk`;

  // One clock for the bank and our connectors (assertions, request objects, signatures and id_tokens are timed).
  let offsetMs = 0;
  const now = (): Date => new Date(Date.now() + offsetMs);
  const faults = new FaultPlan<UkFaultRule>();
  const sandbox = Fastify({ logger: false });
  await sandbox.register(ukSandboxBankPlugin, {
    prefix: '/uk',
    publicUrl: base,
    clock: now,
    faults,
    authorisationDeadlineSeconds: DEADLINE_SECONDS,
  });
  await sandbox.ready();
  app = sandbox;

  // Our client, registered once (registration is shared by the UK sandbox banks), with the redirect URI we use.
  const redirectUri = 'https://tpp.example/callback/contract';
  const { privateKey, publicKey } = await generateKeyPair('PS256', { modulusLength: 2048 });
  const kid = randomUUID();
  const clientId = `openpis-contract-${randomUUID().slice(0, 8)}`;
  const registered = await fetch(`${base}/albion/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'PS256', use: 'sig' }] },
      redirect_uris: [redirectUri],
    }),
  });
  assert.equal(registered.status, 201, await registered.text());

  // The catalogue's UK entries, as the service reads them, with our registered client.
  const catalogue = parseCatalogue(JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as unknown, origin);
  const settingsOf = (slug: string): UkOpenBankingSettings => {
    const found = catalogue
      .banks('sandbox')
      .find((bank) => bank.connector.standard === 'uk-open-banking' && bank.connector.issuer === `${base}/${slug}`);
    if (found === undefined || found.connector.standard !== 'uk-open-banking')
      throw new Error(`No UK sandbox bank ${slug} in the catalogue`);
    return { ...withSandboxBankUrl(found.connector, origin), clientId, jwsIssuer: clientId };
  };
  const recorder = exchangeRecorder();

  async function returnFromPages(url: string, psuId: string, password: string, cancel: boolean): Promise<RedirectReturn> {
    const visit = await payerAtBank(url, { psuId, password, decision: cancel ? 'deny' : 'approve' });
    if (visit.location !== undefined) {
      const location = new URL(visit.location);
      return {
        redirectedTo: visit.location,
        returned: {
          query: Object.fromEntries(location.searchParams.entries()),
          // Our return page posts the fragment on as form fields.
          form: Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, '')).entries()),
          nok: false,
        },
      };
    }
    // response_mode=form_post: a form that submits itself to our redirect URI.
    const action = /<form[^>]*action="([^"]*)"/.exec(visit.lastHtml)?.[1];
    if (action === undefined) return { redirectedTo: undefined, returned: undefined };
    const form = Object.fromEntries(
      [...visit.lastHtml.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1] ?? '', unescapeHtml(match[2] ?? '')]),
    );
    const returned: BankReturn = { query: {}, form, nok: false };
    return { redirectedTo: unescapeHtml(action), returned };
  }

  return {
    get requests() {
      return recorder.requests;
    },
    get exchanges() {
      return recorder.exchanges;
    },
    connector(kind, overrides) {
      const settings: UkOpenBankingSettings = {
        ...settingsOf(UK_SLUG_OF_KIND[kind]),
        ...(overrides?.timeoutMs === undefined ? {} : { timeoutMs: overrides.timeoutMs }),
        ...(overrides?.fundsConfirmation === undefined ? {} : { fundsConfirmation: overrides.fundsConfirmation }),
      };
      return createUkOpenBankingConnector(settings, { dispatcher: recorder.dispatcher, now, keys: { privateKey, kid } });
    },
    scheme: 'DOMESTIC',
    currency: 'GBP',
    creditor: { iban: 'GB29NWBK60161331926819', name: 'Contract Merchant Ltd' },
    redirectUri,
    payers: {
      happy: { psuId: 'alice', password: 'sandbox', otp: '123456' },
      manyMethods: { psuId: 'carla', password: 'sandbox', otp: '123456', methodCount: 3 },
      poor: { psuId: 'erik', password: 'sandbox', otp: '123456', amountAboveBalance: '30.00' },
      manyAccounts: { psuId: 'bob', password: 'sandbox', otp: '123456', accountCount: 3 },
    },
    redirectLinkAt: 'start-authorisation',
    cancelledPaymentStatus: 'never-submitted',
    // The sandbox rejects the consent (RJCT); the connector reads a rejected consent as a failed authorisation.
    expiryFailureCodes: ['SCA_FAILED'],
    fundsConfirmationSettings: [true, false],
    async completeRedirect(url, payer, options) {
      return returnFromPages(url, payer.psuId, payer.password, options?.cancel === true);
    },
    async approveDecoupled(started, payer) {
      // The sandbox's bank app, at the approval URL the connector gives with the waiting step.
      const appUrl = started.next.kind === 'wait' ? started.next.approvalUrl : undefined;
      if (appUrl === undefined) throw new Error('The sandbox gave no decoupled app link');
      assert.equal(await approveInApp(appUrl, payer.psuId, payer.password), 1, 'one request waited in the app');
    },
    injectFault(kind, fault, times, only) {
      faults.inject({
        bank: UK_SLUG_OF_KIND[kind],
        fault: fault === 'server-error' ? { kind: 'error', status: 503 } : { kind: 'timeout', holdMs: 2000 },
        ...(times === undefined ? {} : { times }),
        // The payment resource's status; its payment-details (the connector's fallback) still answer.
        ...(only === 'payment-status' ? { operations: ['getDomesticPayment'] } : {}),
      });
    },
    clearFaults(kind) {
      faults.clear(UK_SLUG_OF_KIND[kind]);
    },
    advanceClock(ms) {
      offsetMs += ms;
    },
    scaDeadlineMs: DEADLINE_SECONDS * 1000,
    async close() {
      await recorder.close();
      await sandbox.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function hidden(html: string, name: string): string | undefined {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Signs in to the sandbox bank app and approves every waiting request; returns how many. */
async function approveInApp(appUrl: string, psuId: string, password: string): Promise<number> {
  const login = await fetch(appUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ psuId, password }),
  });
  assert.equal(login.status, 303);
  const session = new URL(login.headers.get('location') ?? '', appUrl).href;
  let approved = 0;
  for (;;) {
    const html = await (await fetch(session)).text();
    const request = hidden(html, 'request');
    if (request === undefined) return approved;
    const answer = await fetch(session, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: hidden(html, 'csrf') ?? '', request, action: 'approve' }),
    });
    assert.equal(answer.status, 303);
    approved += 1;
  }
}
