/**
 * Going live, end to end, with every part a process of its own as an operator runs it (docs/going-live.md):
 *
 * - a test CA issuing eIDAS-shaped QWAC and QSealC and UK transport and signing certificates (organisation
 *   identifier PSDGB-FCA-123456), a directory key and our software statement;
 * - the sandbox bank on its own, strict as a live bank (`openpis sandbox-bank --strict`, HTTPS only, client
 *   certificates checked against the CA, signatures checked, UK clients known only by DCR);
 * - openpis in production: HTTPS on its own certificate (TLS_CERT_FILE), a production client made with
 *   `openpis clients create --environment production`, no sandbox bank of its own, both banks live entries
 *   (`environment: production`) added with `openpis banks add`, the UK one registered with `openpis banks register`;
 * - `openpis banks check` passing at both, then a payment at each created through the API and completed by the payer
 *   in Chromium on our pages and the bank's, followed to COMPLETED through the API;
 * - what a live bank refuses — a QWAC of another CA, a client the UK bank has not registered, a seal of another
 *   organisation, a UK signing key the software statement does not publish — refused by the strict bank and told by
 *   `openpis banks check` in words an operator can act on; a QSealC whose key is not its certificate's is refused by
 *   openpis itself before any bank sees it.
 *
 * Chromium trusts the service's, the bank's and the shop's server certificates (all from the test CA) by their
 * public keys; it is not told to ignore certificate errors. Without Chromium only the two payments are skipped.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { Agent, fetch } from 'undici';
import { runOpenpis } from '../helpers/cli.js';
import { IBANS, paymentRequest, ukPaymentRequest } from '../helpers/payment-requests.js';
import { startService, type RunningProcess } from '../helpers/processes.js';
import { freePort } from '../helpers/test-app.js';
import { WAIT_BOUND_MS } from '../helpers/wait.js';
import { ORG_ID, startStrictWorld, type StrictWorld } from '../bank-onboarding/strict-world.js';
import { browserSkip, launchBrowser } from './browser-harness.js';
import { approveAtSandboxBank } from './flow-harness.js';

/** The live entries' ids: banks an operator adds, not the sandbox catalogue's. */
const BERLIN_GROUP_LIVE = 'c0ffee00-0000-4000-8000-00000000b601';
const UK_LIVE = 'c0ffee00-0000-4000-8000-00000000b602';
/** The operator as payers see it (fictitious). */
const OPERATOR_NAME = 'Example Pay Ltd';
const REGULATORY_STATEMENT = 'Example Pay Ltd is authorised by the Financial Conduct Authority (PSDGB-FCA-123456)';
/** The strict bank's test payers' password (its built-in fixtures). */
const SANDBOX_PASSWORD = 'sandbox';

interface CheckLine {
  readonly check: string;
  readonly outcome: 'pass' | 'warn' | 'fail';
  readonly reason: string;
}
interface CheckReport {
  readonly failed: boolean;
  readonly lines: readonly CheckLine[];
}

/** The shop's site, over HTTPS (a production client's payers return only to an https address). */
interface Shop {
  readonly url: string;
  close(): Promise<void>;
}

async function startHttpsShop(certificatePem: string, privateKeyPem: string): Promise<Shop> {
  const server: Server = createServer({ cert: certificatePem, key: privateKeyPem }, (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><title>Shop</title><h1>Back at the shop</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://localhost:${(server.address() as { port: number }).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('going live: openpis in production over HTTPS against a strict stand-alone bank, a payment at each standard in Chromium', () => {
  let world: StrictWorld;
  let service: RunningProcess;
  // Without Chromium (unless OPENPIS_REQUIRE_BROWSER=1) only the payments are skipped: the rest needs no browser.
  let browser: Browser | undefined;
  let shop: Shop;
  /** The service's public address (BASE_URL), https on its own certificate. */
  let baseUrl: string;
  /** The operator's environment for the service and the CLI: production, HTTPS, identity files, the database. */
  let env: Record<string, string>;
  /** Node's HTTPS client trusting the test CA (the service's certificate is from it). */
  let https: Agent;
  let client: { clientId: string; clientSecret: string };

  before(async () => {
    const servicePort = await freePort();
    baseUrl = `https://localhost:${servicePort}`;
    // Our software statement lists the service's return address: the UK bank sends payers back only to a registered one.
    world = await startStrictWorld({ standAlone: true, softwareRedirectUris: [`${baseUrl}/pay/return`] });
    const serviceCertificate = world.ca.server('openpis', ['localhost']);
    const shopCertificate = world.ca.server('shop', ['localhost']);
    const noBanks = join(world.ca.dir, 'no-banks.json');
    writeFileSync(noBanks, JSON.stringify({ providers: [] }));
    const { SANDBOX_BANK_URL: _sandbox, PROVIDER_CATALOGUE_FILE: _catalogue, ...identity } = world.env;
    env = {
      ...identity,
      NODE_ENV: 'production',
      PORT: String(servicePort),
      BASE_URL: baseUrl,
      TLS_CERT_FILE: serviceCertificate.certFile,
      TLS_KEY_FILE: serviceCertificate.keyFile,
      // No sandbox bank: the catalogue file has no bank, every bank is one the operator adds.
      PROVIDER_CATALOGUE_FILE: noBanks,
      // Who initiates the payment, as the payer must be told it (the review sentence and every page's footer).
      OPERATOR_NAME: OPERATOR_NAME,
      OPERATOR_REGULATORY_STATEMENT: REGULATORY_STATEMENT,
      OPERATOR_TERMS_URL: 'https://pay.example/terms',
      OPERATOR_PRIVACY_URL: 'https://pay.example/privacy',
      WORKER_POLL_INTERVAL_MS: '100',
    };
    https = new Agent({ connect: { ca: world.ca.caPem } });
    // A failed start fails the file; the after hook stops what started.
    service = await startService(env);
    shop = await startHttpsShop(shopCertificate.certificatePem, shopCertificate.privateKeyPem);
    if (browserSkip === false)
      browser = await launchBrowser({
        trustedServerCertificates: [serviceCertificate.certificatePem, shopCertificate.certificatePem, world.bankServer.certificatePem],
      });
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await service?.stop();
    await https?.close();
    await world?.close();
  });

  function browserOrFail(): Browser {
    assert.ok(browser !== undefined, 'Chromium was not started');
    return browser;
  }

  const openpis = (overrides: Record<string, string>, ...args: string[]) => runOpenpis({ ...env, ...overrides }, ...args);

  async function check(bank: string, overrides: Record<string, string> = {}): Promise<{ code: number; report: CheckReport }> {
    const checked = await openpis(overrides, 'banks', 'check', bank, '--json');
    assert.ok(checked.stdout.trim().startsWith('{'), `banks check printed no report: ${checked.stderr}`);
    return { code: checked.code, report: JSON.parse(checked.stdout) as CheckReport };
  }

  function line(report: CheckReport, check: string): CheckLine {
    const found = report.lines.find((each) => each.check === check);
    assert.ok(found !== undefined, `no ${check} line in ${JSON.stringify(report.lines, null, 1)}`);
    return found;
  }

  /** The report's `check` line failed, with a reason like `reason`. */
  function assertFailed(report: CheckReport, check: string, reason: RegExp): void {
    const found = line(report, check);
    assert.equal(found.outcome, 'fail', JSON.stringify(report.lines, null, 1));
    assert.match(found.reason, reason);
  }

  /** A bank entry of the built-in catalogue made a live one: its own id and name, the bank's literal addresses. */
  function liveEntry(source: Readonly<Record<string, unknown>>, id: string, name: string): Record<string, unknown> {
    const literal = JSON.parse(JSON.stringify(source).replaceAll('{SANDBOX_BANK_URL}', world.sandboxUrl)) as Record<string, unknown>;
    return { ...literal, id, name, environment: 'production' };
  }

  async function api(path: string, init: { method?: string; token?: string; json?: unknown } = {}) {
    return fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      dispatcher: https,
      headers: {
        ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
  }

  async function token(): Promise<string> {
    const response = await fetch(`${baseUrl}/api/v1/auth/token`, {
      method: 'POST',
      dispatcher: https,
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { access_token: string }).access_token;
  }

  async function createPayment(request: Record<string, unknown>): Promise<{ paymentId: string; redirectUrl: string }> {
    const response = await api('/api/v1/ob/payments', { method: 'POST', token: await token(), json: request });
    const body = await response.text();
    assert.equal(response.status, 201, body);
    return JSON.parse(body) as { paymentId: string; redirectUrl: string };
  }

  /** Polls the payment's latest status through the API until `final` (bounded). */
  async function waitForStatus(paymentId: string, final: string): Promise<string> {
    const bearer = await token();
    const deadline = Date.now() + WAIT_BOUND_MS;
    for (;;) {
      const response = await api(`/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`, { token: bearer });
      const latest = (await response.json()) as { detailedStatus: string; status: string };
      if (latest.detailedStatus === final) return latest.status;
      if (Date.now() > deadline) throw new Error(`payment ${paymentId} still ${latest.detailedStatus} after ${WAIT_BOUND_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: `/tmp/go-live-${name}.png`, fullPage: true });
  }

  /** Our outcome page, then on to the shop; the payer lands there with the payment's id. */
  async function backAtShop(page: Page, paymentId: string, name: string): Promise<void> {
    await page
      .getByRole('heading', { name: /^(Payment complete|Your bank is processing the payment)$/ })
      .waitFor({ timeout: WAIT_BOUND_MS });
    await screenshot(page, `${name}-outcome`);
    const onward = page.getByRole('link', { name: /^Continue to / });
    if (new URL(page.url()).origin !== shop.url) await onward.click({ timeout: 10_000 }).catch(() => undefined);
    await page.waitForURL((url) => url.origin === shop.url, { timeout: WAIT_BOUND_MS });
    assert.equal(new URL(page.url()).searchParams.get('paymentId'), paymentId);
  }

  it('a production client is created with the CLI against the HTTPS service', async () => {
    const created = await openpis({}, 'clients', 'create', '--name', 'Example Shop', '--environment', 'production', '--json');
    assert.equal(created.code, 0, created.stderr);
    client = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    assert.equal((JSON.parse(created.stdout) as { environment: string }).environment, 'production');
    // The service serves it over HTTPS, on the certificate from the test CA.
    await token();
  });

  it('the identity is shown with the organisation identifier of every certificate', async () => {
    const shown = await openpis({}, 'identity', 'show');
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /PSDGB-FCA-123456/);
    assert.match(shown.stdout, new RegExp(ORG_ID));
  });

  it('both banks added with the CLI as live entries; the UK bank refuses us until we register by DCR; then banks check passes at both', async () => {
    const [berlinGroup, uk] = [
      liveEntry(world.berlinGroupBankEntry, BERLIN_GROUP_LIVE, 'Rheinland Bank'),
      liveEntry(world.ukBankEntry, UK_LIVE, 'Albion Bank'),
    ];
    for (const [entry, file] of [
      [berlinGroup, 'live-berlin-group.json'],
      [uk, 'live-uk.json'],
    ] as const) {
      const path = join(world.ca.dir, file);
      writeFileSync(path, JSON.stringify(entry));
      const added = await openpis({}, 'banks', 'add', path);
      assert.equal(added.code, 0, added.stderr);
    }

    // An unregistered client: the strict bank refuses our client assertion, the check says to register.
    const unregistered = await check(UK_LIVE);
    assert.equal(unregistered.code, 1);
    assert.equal(line(unregistered.report, 'registration').outcome, 'warn');
    assertFailed(
      unregistered.report,
      'token',
      /^the token endpoint refused us: invalid_client — .+; the bank does not know our client or its key: run openpis banks register for this bank/,
    );

    const registered = await openpis({}, 'banks', 'register', UK_LIVE);
    assert.equal(registered.code, 0, registered.stderr);
    for (const bank of [BERLIN_GROUP_LIVE, UK_LIVE]) {
      const { code, report } = await check(bank);
      assert.equal(code, 0, JSON.stringify(report.lines, null, 1));
      assert.deepEqual(
        report.lines.filter((each) => each.outcome !== 'pass'),
        [],
      );
      // A live bank gets no test payment: it is asked for one that cannot exist, and answers so only once it took us.
      assert.match(
        line(report, 'bank accepts us').reason,
        /^the bank took our certificate and (signature|token): it answered that it holds no payment/,
      );
    }
    const human = await openpis({}, 'banks', 'check', UK_LIVE);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /PASS\s+token/);
  });

  it('a payment at the Berlin Group bank: the payer approves at the bank in Chromium, COMPLETED', { skip: browserSkip }, async () => {
    const { paymentId, redirectUrl } = await createPayment(
      paymentRequest({
        provider: { id: BERLIN_GROUP_LIVE },
        metadata: {
          redirectUri: `${shop.url}/return`,
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `bg-${randomUUID().slice(0, 8)}`,
        },
      }),
    );
    const page = await (await browserOrFail().newContext({ locale: 'en-GB' })).newPage();
    await page.goto(redirectUrl);
    await page.getByRole('heading', { name: 'Check your payment' }).waitFor();
    await screenshot(page, 'berlin-group-review');
    // A production payment: no sandbox notice; the operator named as the one initiating it, its statement in the footer.
    assert.equal(await page.getByText(/sandbox/i).count(), 0);
    assert.ok(await page.getByText(`initiated by ${OPERATOR_NAME}`, { exact: false }).first().isVisible());
    assert.ok(await page.getByText(REGULATORY_STATEMENT).isVisible());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === new URL(world.sandboxUrl).origin);
    await approveAtSandboxBank(page, 'alice', SANDBOX_PASSWORD);
    await backAtShop(page, paymentId, 'berlin-group');
    assert.equal(await waitForStatus(paymentId, 'PAYMENT_EXECUTION_COMPLETED'), 'COMPLETED');
    await page.context().close();
  });

  it('a payment at the UK bank: the payer approves at the bank in Chromium (hybrid flow), COMPLETED', { skip: browserSkip }, async () => {
    const { paymentId, redirectUrl } = await createPayment(
      ukPaymentRequest(UK_LIVE, {
        recipient: {
          account: { number: { type: 'IBAN', value: IBANS.GB } },
          name: 'Acme Ltd',
          address: { country: 'GB', city: 'London', streetName: 'High Street', buildingNumber: '1', postCode: 'EC1A 1AA' },
        },
        metadata: {
          redirectUri: `${shop.url}/return`,
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `uk-${randomUUID().slice(0, 8)}`,
        },
      }),
    );
    const page = await (await browserOrFail().newContext({ locale: 'en-GB' })).newPage();
    await page.goto(redirectUrl);
    await page.getByRole('heading', { name: 'Check your payment' }).waitFor();
    await screenshot(page, 'uk-review');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === new URL(world.sandboxUrl).origin);
    await page.getByLabel('User ID').fill('alice');
    await page.getByLabel('Password').fill(SANDBOX_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
    await page.locator('button[value=approve]').click();
    await backAtShop(page, paymentId, 'uk');
    assert.equal(await waitForStatus(paymentId, 'PAYMENT_EXECUTION_COMPLETED'), 'COMPLETED');
    await page.context().close();
  });

  it('a QWAC of another CA: the bank refuses our certificate, banks check says CERTIFICATE_INVALID and what to look at', async () => {
    const wrong = world.otherCa.qwac('go-live-wrong-qwac');
    const { code, report } = await check(BERLIN_GROUP_LIVE, { QWAC_CERT_FILE: wrong.certFile, QWAC_KEY_FILE: wrong.keyFile });
    assert.equal(code, 1);
    assertFailed(
      report,
      'bank accepts us',
      /^the bank refused \(HTTP 401: CERTIFICATE_INVALID — .+\); the bank does not accept our certificate: is it issued by a CA the bank trusts/,
    );
  });

  it('a seal of another organisation: the bank refuses the signature certificate, banks check says so', async () => {
    const otherSeal = world.ca.qsealc('go-live-other-seal', { organisationIdentifier: 'PSDGB-FCA-999999' });
    const { code, report } = await check(BERLIN_GROUP_LIVE, { QSEAL_CERT_FILE: otherSeal.certFile, QSEAL_KEY_FILE: otherSeal.keyFile });
    assert.equal(code, 1);
    assertFailed(
      report,
      'bank accepts us',
      /^the bank refused \(HTTP 401: CERTIFICATE_INVALID — TPP-Signature-Certificate names organisation PSDGB-FCA-999999, the TLS client certificate PSDGB-FCA-123456\); .*are the QWAC and QSealC of the same organisation\?/,
    );
  });

  it("a QSealC with a key that is not its certificate's: openpis refuses to sign with it, before any bank sees a request", async () => {
    const { code, report } = await check(BERLIN_GROUP_LIVE, { QSEAL_KEY_FILE: world.qwac.keyFile });
    assert.equal(code, 1);
    assertFailed(
      report,
      'identity',
      new RegExp(
        `^QSEAL: the private key does not belong to the certificate \\(QSEAL_KEY_FILE ${world.qwac.keyFile} is not the key of QSEAL_CERT_FILE ${world.qseal.certFile}\\)$`,
      ),
    );
  });

  it('a UK signing key the software statement does not publish: the bank cannot verify our client assertion, banks check says which settings to look at', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(world.ca.dir, 'go-live-wrong-signing.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const { code, report } = await check(UK_LIVE, { OB_SIGNING_KEY_FILE: keyFile });
    assert.equal(code, 1);
    assertFailed(
      report,
      'token',
      /^the token endpoint refused us: invalid_client — The client assertion does not verify.*check OB_SIGNING_KEY_ID is the kid in the software statement/,
    );
  });

  it('BASE_URL moved since the UK registration: banks check says the bank would send payers back to the old address', async () => {
    const { code, report } = await check(UK_LIVE, { BASE_URL: 'https://pay.example' });
    assert.equal(code, 1);
    assertFailed(
      report,
      'registration',
      new RegExp(
        `^client .+ is registered with the redirect URIs ${baseUrl}/pay/return, not https://pay.example/pay/return, where payers come back to us \\(BASE_URL \\+ /pay/return\\): the bank would refuse every payment's authorisation; run openpis banks register ${UK_LIVE} --update`,
      ),
    );
  });

  it('a software statement without our return address: banks register refuses before asking the bank, and says what to fix', async () => {
    const statement = await world.softwareStatementFile('go-live-other-redirects', ['https://elsewhere.example/callback']);
    const refused = await openpis({ OB_SSA_FILE: statement }, 'banks', 'register', UK_LIVE, '--update');
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      new RegExp(
        `The software statement \\(OB_SSA_FILE\\) lists the redirect URIs https://elsewhere.example/callback, not ${baseUrl}/pay/return, where payers come back to us`,
      ),
    );
    // The registration kept is still the one that works.
    const { code } = await check(UK_LIVE);
    assert.equal(code, 0);
  });

  it('the service logged no error on the way', () => {
    assert.match(service.output(), new RegExp(`openpis is listening on ${baseUrl}`));
    // Its log lines are pino's JSON: an error is level 50, a fatal one 60.
    const errors = service
      .output()
      .split('\n')
      .filter((entry) => /"level":(50|60)/.test(entry));
    assert.deepEqual(errors, []);
  });
});
