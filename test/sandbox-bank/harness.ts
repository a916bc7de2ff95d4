/**
 * A sandbox bank on a real loopback port for tests, and a client that checks every request it sends and every
 * response it gets against the Berlin Group OpenAPI file.
 *
 * The bank's public URL is a fixed fake host (links must be absolute, and the port is only known after listening),
 * so the client maps that host onto the real address.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_AUTHENTICATION_ATTEMPTS, loadCatalogue, parseCatalogue, type ProviderCatalogue } from '../../src/providers/catalogue.js';
import { buildSandboxBankApp, FaultPlan, type SandboxFixtures } from '@openpis/sandbox-bank';
import { Standard } from './standard.js';

export const PUBLIC_URL = 'http://sandbox-bank.test';

let standard: Standard | undefined;
/** The standard is parsed once per test file (it is large). */
export function theStandard(): Standard {
  standard ??= new Standard();
  return standard;
}

export interface TestClock {
  now: Date;
  advance(ms: number): void;
}

export interface HarnessOptions {
  readonly catalogue?: ProviderCatalogue;
  readonly fixtures?: SandboxFixtures;
  readonly maxResources?: number;
  readonly scaDeadlineSeconds?: number;
  /** Start of the test clock; default a fixed date in 2026. */
  readonly clockStart?: Date;
}

export interface CallOptions {
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /** A raw body string (already serialised), e.g. for signed requests. */
  readonly rawBody?: string;
  /** The request is malformed on purpose: do not check it against the standard. */
  readonly invalidRequest?: boolean;
  /** The bank lets the payer pick the debtor account, so it may be absent (see docs/sandbox-bank.md). */
  readonly debtorAccountOptional?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * A JSON answer of the bank under test, read field by field: the standard's OpenAPI documents check its shape
 * (validateResponse), so the tests do not repeat it as types.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: checked against the standard's schema, not by TypeScript
export type BankJson = any;

export interface CallResult {
  readonly status: number;
  readonly headers: Headers;
  readonly body: BankJson;
  readonly text: string;
}

export interface Harness {
  readonly app: FastifyInstance;
  readonly address: string;
  readonly faults: FaultPlan;
  readonly clock: TestClock;
  /** Maps a public URL (as found in links) to the real address. */
  local(url: string): string;
  /** Calls the bank as the standard's operation `operationId`; asserts request and response conform. */
  call(operationId: string, method: string, url: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export function defaultCatalogue(): ProviderCatalogue {
  return loadCatalogue(undefined, PUBLIC_URL);
}

/** The built-in catalogue with some banks changed (e.g. `signRequests`). */
export function catalogueWith(change: (bank: Record<string, BankJson>) => void): ProviderCatalogue {
  const url = new URL('../../src/providers/sandbox-catalogue.json', import.meta.url);
  const document = JSON.parse(readFileSync(url, 'utf8')) as { providers: Array<Record<string, BankJson>> };
  for (const provider of document.providers) {
    for (const bank of provider['subsidiaries'] ?? [provider]) change(bank);
  }
  return parseCatalogue(document, PUBLIC_URL);
}

export function xs2aHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.168.8.78', ...extra };
}

const PLACEHOLDER_DEBTOR = { iban: 'DE89370400440532013000' };

/** The operator token the harness's bank runs with (fault injection over HTTP needs it). */
export const OPERATOR_TOKEN = 'sandbox-operator-token-for-tests';

/** A payment's (or bulk's) transaction status, read at its `status` link; the read must succeed. */
export async function transactionStatusAt(bank: Harness, href: string): Promise<string> {
  const result = await bank.call('getPaymentInitiationStatus', 'GET', href, { headers: xs2aHeaders() });
  assert.equal(result.status, 200);
  return result.body.transactionStatus;
}

/** An authorisation's SCA status, read at its `scaStatus` link; the read must succeed. */
export async function scaStatusAt(bank: Harness, href: string): Promise<string> {
  const result = await bank.call('getPaymentInitiationScaStatus', 'GET', href, { headers: xs2aHeaders() });
  assert.equal(result.status, 200);
  return result.body.scaStatus;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const faults = new FaultPlan();
  const clock: TestClock = {
    now: options.clockStart ?? new Date('2026-03-02T10:00:00.000Z'),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const app = buildSandboxBankApp({
    catalogue: options.catalogue ?? defaultCatalogue(),
    publicUrl: PUBLIC_URL,
    authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
    faults,
    operatorToken: OPERATOR_TOKEN,
    clock: () => clock.now,
    ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
    ...(options.maxResources === undefined ? {} : { maxResources: options.maxResources }),
    ...(options.scaDeadlineSeconds === undefined ? {} : { scaDeadlineSeconds: options.scaDeadlineSeconds }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const address = `http://127.0.0.1:${port}`;
  const local = (url: string): string =>
    url.startsWith(PUBLIC_URL) ? address + url.slice(PUBLIC_URL.length) : url.startsWith('/') ? address + url : url;
  const std = theStandard();

  const call = async (operationId: string, method: string, url: string, callOptions: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...(callOptions.headers ?? {}) };
    let payload: string | undefined = callOptions.rawBody;
    if (payload === undefined && callOptions.body !== undefined) payload = JSON.stringify(callOptions.body);
    if (payload !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = 'application/json';
    }
    if (!callOptions.invalidRequest) {
      const parsed: unknown = payload === undefined ? undefined : JSON.parse(payload);
      const checked =
        callOptions.debtorAccountOptional && typeof parsed === 'object' && parsed !== null && !('debtorAccount' in parsed)
          ? { ...parsed, debtorAccount: PLACEHOLDER_DEBTOR }
          : parsed;
      const problems = std.validateRequest(operationId, { headers, body: checked });
      assert.deepEqual(problems, [], `request of ${operationId} does not conform to the standard`);
    }
    const response = await fetch(local(url), {
      method,
      headers,
      redirect: 'manual',
      ...(payload === undefined ? {} : { body: payload }),
      ...(callOptions.signal === undefined ? {} : { signal: callOptions.signal }),
    });
    const text = await response.text();
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    const checkedBody =
      callOptions.debtorAccountOptional &&
      typeof body === 'object' &&
      body !== null &&
      !('debtorAccount' in body) &&
      'creditorAccount' in body
        ? { ...body, debtorAccount: PLACEHOLDER_DEBTOR }
        : body;
    const problems = std.validateResponse(operationId, response.status, { headers: responseHeaders, body: checkedBody });
    assert.deepEqual(problems, [], `response ${response.status} of ${operationId} does not conform: ${text}`);
    const requestId = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-request-id')?.[1];
    if (requestId !== undefined && /^[0-9a-f-]{36}$/i.test(requestId)) assert.equal(response.headers.get('x-request-id'), requestId);
    return { status: response.status, headers: response.headers, body, text };
  };

  return {
    app,
    address,
    faults,
    clock,
    local,
    call,
    close: () => app.close(),
  };
}

// ---- payer pages without a browser -------------------------------------------------------------------------------

export interface PageForm {
  readonly action: string;
  readonly fields: Record<string, string>;
  readonly html: string;
}

/** Reads the single form of a payer page: its action and hidden fields. */
export function readForm(html: string, pageUrl: string): PageForm {
  const formMatch = /<form method="post" action="([^"]*)">/.exec(html);
  assert.ok(formMatch?.[1] !== undefined, `no form on the page: ${html.slice(0, 400)}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    if (match[1] !== undefined && match[2] !== undefined) fields[match[1]] = match[2];
  }
  return { action: new URL(formMatch[1].replace(/&amp;/g, '&'), pageUrl).toString(), fields, html };
}

export async function getPage(url: string): Promise<{ status: number; html: string; url: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, html: await response.text(), url };
}

/** Submits a payer form; returns the redirect target (303) or the page shown. */
export async function submit(
  form: PageForm,
  values: Record<string, string | string[]>,
): Promise<{ status: number; location: string | undefined; html: string }> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...form.fields, ...values })) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  const response = await fetch(form.action, { method: 'POST', body, redirect: 'manual' });
  const html = await response.text();
  const location = response.headers.get('location') ?? undefined;
  return { status: response.status, html, location: location === undefined ? undefined : new URL(location, form.action).toString() };
}

/** Walks the payer pages: each step is [expected heading fragment, form values]. Returns the final redirect. */
export async function walkPages(
  startUrl: string,
  steps: ReadonlyArray<readonly [string, Record<string, string | string[]>]>,
): Promise<string | undefined> {
  let url = startUrl;
  let location: string | undefined;
  for (const [expected, values] of steps) {
    const page = await getPage(url);
    assert.equal(page.status, 200);
    assert.match(page.html, new RegExp(expected), `expected a page about "${expected}"`);
    const result = await submit(readForm(page.html, url), values);
    assert.equal(result.status, 303);
    location = result.location;
    if (location === undefined) break;
    url = location;
  }
  return location;
}

export const SEPA_PAYMENT = {
  instructedAmount: { currency: 'EUR', amount: '123.45' },
  creditorAccount: { iban: 'NL91ABNA0417164300' },
  creditorName: 'Merchant & Co <Test>',
  creditorAddress: { streetName: 'Damrak', buildingNumber: '1', townName: 'Amsterdam', postCode: '1012 LG', country: 'NL' },
  remittanceInformationUnstructured: 'Invoice 2026-042',
  endToEndIdentification: 'E2E-0001',
};
