/**
 * The sandbox bank as a "bank under test": the real sandbox bank app (src/sandbox-bank) listening on a loopback
 * port, its built-in test payers, fault plan and a movable clock, and the Berlin Group connector talking to it
 * over real HTTP through a recording dispatcher (so the tests can check every request against the standard).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import {
  createConnectors,
  DEFAULT_AUTHENTICATION_ATTEMPTS,
  type BankReturn,
  type ConnectorOptions,
  type Connectors,
} from '../../../src/connectors/index.js';
import { parseCatalogue, type Bank, type ConnectorSettings, type ProviderCatalogue } from '../../../src/providers/catalogue.js';
import { buildSandboxBankApp, FaultPlan } from '@openpis/sandbox-bank';
import type { BankKind, BankUnderTest } from './connector-contract.js';
import { completeBankPages } from '../helpers/psu-browser.js';
import { recordingDispatcher, type WireRequest } from '../helpers/recording-dispatcher.js';

const CATALOGUE_FILE = new URL('../../../src/providers/sandbox-catalogue.json', import.meta.url);

/** Which catalogue bank (by sandbox slug) stands for each kind of bank in the scenarios. */
export const SLUG_OF_KIND: Readonly<Record<BankKind, string>> = {
  redirect: 'rheinland',
  embedded: 'italia',
  decoupled: 'midi',
  'account-information': 'nemunas',
};

export interface SandboxBankHandle {
  readonly publicUrl: string;
  readonly catalogue: ProviderCatalogue;
  readonly faults: FaultPlan;
  readonly app: FastifyInstance;
  bank(slug: string): Bank;
  /** Moves the bank's clock by `ms` (negative moves it back). */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/**
 * Starts the sandbox bank on 127.0.0.1. The HTTP server listens first (port 0) and hands requests to the Fastify
 * app through `app.routing`, so the app can be built with its final public URL without a port race.
 */
export async function startSandboxBank(
  options: { scaDeadlineSeconds?: number; editCatalogue?: (document: CatalogueDocument) => void } = {},
): Promise<SandboxBankHandle> {
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
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const document = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as CatalogueDocument;
  options.editCatalogue?.(document);
  const catalogue = parseCatalogue(document, publicUrl);
  const faults = new FaultPlan();
  let offsetMs = 0;
  app = buildSandboxBankApp({
    catalogue,
    publicUrl,
    authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
    faults,
    clock: () => new Date(Date.now() + offsetMs),
    scaDeadlineSeconds: options.scaDeadlineSeconds ?? 60,
  });
  await app.ready();
  const ready = app;
  return {
    publicUrl,
    catalogue,
    faults,
    app: ready,
    bank(slug) {
      const found = catalogue
        .banks('sandbox')
        .find((bank) => bank.connector.standard === 'berlin-group' && bank.connector.baseUrl === `${publicUrl}/${slug}`);
      if (found === undefined) throw new Error(`No sandbox bank ${slug} in the catalogue`);
      return found;
    },
    advanceClock(ms) {
      offsetMs += ms;
    },
    async close() {
      await ready.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The catalogue file's shape, as far as tests edit it. */
export interface CatalogueDocument {
  providers: Array<{
    connector?: Record<string, unknown>;
    subsidiaries?: Array<{ connector: Record<string, unknown> }>;
  }>;
}

/** Sets connector fields of the bank whose base URL ends with `/<slug>` in a catalogue document. */
export function editBank(document: CatalogueDocument, slug: string, fields: Record<string, unknown>): void {
  for (const provider of document.providers) {
    for (const connector of [provider.connector, ...(provider.subsidiaries ?? []).map((sub) => sub.connector)]) {
      if (connector !== undefined && String(connector['baseUrl']).endsWith(`/${slug}`)) Object.assign(connector, fields);
    }
  }
}

export interface SandboxBankUnderTest extends BankUnderTest {
  readonly sandbox: SandboxBankHandle;
  /** Every request the connectors sent, with the bank it went to. */
  readonly requests: ReadonlyArray<{ readonly request: WireRequest; readonly baseUrl: string }>;
}

export async function sandboxBankUnderTest(connectorOptions: ConnectorOptions = {}): Promise<SandboxBankUnderTest> {
  const sandbox = await startSandboxBank();
  const recorder = recordingDispatcher();
  const connectors: Connectors = createConnectors({ ...connectorOptions, dispatcher: recorder.dispatcher });
  const settingsOf = (kind: BankKind): ConnectorSettings => sandbox.bank(SLUG_OF_KIND[kind]).connector;
  const scaDeadlineMs = 60_000;
  return {
    sandbox,
    get requests() {
      return recorder.requests.map((request) => ({
        request,
        baseUrl: `${sandbox.publicUrl}/${request.url.pathname.split('/')[1] ?? ''}`,
      }));
    },
    connector(kind, overrides) {
      // The Berlin Group banks have no funds check before execution (the profile's fundsConfirmation is false).
      if (overrides?.fundsConfirmation === true) throw new Error('Berlin Group sandbox banks have no funds confirmation setting');
      return connectors.for({ ...settingsOf(kind), ...(overrides?.timeoutMs === undefined ? {} : { timeoutMs: overrides.timeoutMs }) });
    },
    scheme: 'SEPA',
    currency: 'EUR',
    creditor: {
      iban: 'DE89370400440532013000',
      name: 'Contract Merchant GmbH',
      address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '1', postCode: '10117' },
    },
    redirectUri: 'https://tpp.example/callback/contract',
    payers: {
      happy: { psuId: 'alice', password: 'sandbox', otp: '123456' },
      manyMethods: { psuId: 'carla', password: 'sandbox', otp: '123456', methodCount: 3 },
      poor: { psuId: 'erik', password: 'sandbox', otp: '123456', amountAboveBalance: '30.00' },
      manyAccounts: { psuId: 'bob', password: 'sandbox', otp: '123456', accountCount: 3 },
    },
    redirectLinkAt: 'registration',
    cancelledPaymentStatus: 'cancelled',
    expiryFailureCodes: ['EXPIRED', 'BANK_REJECTED'],
    fundsConfirmationSettings: [false],
    async completeRedirect(url, payer, options) {
      const result = await completeBankPages(url, {
        psuId: payer.psuId,
        password: payer.password,
        otp: payer.otp,
        ...(options?.cancel === undefined ? {} : { cancel: options.cancel }),
      });
      return {
        redirectedTo: result.redirectedTo,
        returned: result.redirectedTo === undefined ? undefined : bankReturnOf(result.redirectedTo),
      };
    },
    async approveDecoupled(started, payer) {
      // The sandbox simulates the banking app with a page it links as `sandboxDecoupledApp` (an ASPSP-defined
      // link, which the standard allows), which the connector gives as the waiting step's approval URL; a real
      // bank's app is out of reach of any test.
      const appUrl = started.next.kind === 'wait' ? started.next.approvalUrl : undefined;
      if (appUrl === undefined) throw new Error('The sandbox gave no decoupled app link');
      await completeBankPages(new URL(appUrl, sandbox.publicUrl).href, { psuId: payer.psuId, password: payer.password, otp: payer.otp });
    },
    injectFault(kind, fault, times, only) {
      sandbox.faults.inject({
        bank: SLUG_OF_KIND[kind],
        fault: fault === 'server-error' ? { kind: 'error', status: 503 } : { kind: 'timeout', holdMs: 2000 },
        ...(times === undefined ? {} : { times }),
        ...(only === 'payment-status' ? { operations: ['getPaymentStatus'] } : {}),
      });
    },
    clearFaults(kind) {
      sandbox.faults.clear(SLUG_OF_KIND[kind]);
    },
    advanceClock(ms) {
      sandbox.advanceClock(ms);
    },
    scaDeadlineMs,
    async close() {
      await connectors.close();
      await recorder.close();
      await sandbox.close();
    },
  };
}

/** What our callback receives from a redirect to `location`: its query, and a fragment as the posted form. */
export function bankReturnOf(location: string): BankReturn {
  const url = new URL(location);
  return {
    query: Object.fromEntries(url.searchParams.entries()),
    form: Object.fromEntries(new URLSearchParams(url.hash.replace(/^#/, '')).entries()),
    nok: false,
  };
}
