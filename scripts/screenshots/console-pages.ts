/**
 * The console pages `npm run screenshots` renders (English only: the console is in English). `prepareConsole`
 * adds an operator and a member with the branded client's payments (one approved at the sandbox bank, so its
 * timeline and webhook deliveries are real); each page then opens with a session made for it on the server (the
 * sign-in pages are shown by opening them without one).
 */
import { randomUUID } from 'node:crypto';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { ConsoleUsers } from '../../src/people/accounts.js';
import { AuditLog } from '../../src/people/audit-log.js';
import { totpCode } from '../../src/people/second-factor.js';
import { ConsoleSessions } from '../../src/people/sessions.js';
import type { FlowHarness } from '../../test/e2e/flow-harness.js';
import { approvedAtRheinland, newPaymentLink, newRefund, type ConsoleScene, type ScreenshotContext, type ScreenshotPage } from './scene.js';

const PASSWORD = 'screenshots only, never used elsewhere';

export async function prepareConsole(flow: FlowHarness): Promise<ConsoleScene> {
  const { app } = flow;
  const secrets = new SecretBox(app.config.secretKeys);
  const users = new ConsoleUsers(app.database.db, secrets, app.config.console.lockout);
  const sessions = new ConsoleSessions(app.database.db, users, app.config.console.session);
  const operator = await users.create({ email: 'olga@pay.example', name: 'Olga Lindqvist', role: 'operator', password: PASSWORD });
  const member = await users.create({ email: 'sam@acme.example', name: 'Sam Okafor', role: 'member', clientId: flow.client.clientId, password: PASSWORD });
  await users.create({ email: 'lee@acme.example', name: 'Lee Park', role: 'member', clientId: flow.client.clientId, password: PASSWORD });
  // A new operator who has not set up the authenticator yet: the enrolment page is hers (the two above enrol below).
  await users.create({ email: 'nadia@pay.example', name: 'Nadia Haddad', role: 'operator', password: PASSWORD });
  // A signed-in session needs an enrolled second factor: both people enrol theirs, as at their first sign-in.
  for (const person of [operator, member]) {
    const { secret } = await users.secondFactorEnrolment(person.id);
    const check = await users.confirmSecondFactor(person.id, totpCode(secret, new Date()));
    if (check.outcome !== 'accepted') throw new Error(`could not enrol the second factor of ${person.email}: ${check.outcome}`);
  }
  const audit = new AuditLog(app.database.db);
  const cli = { id: null, label: 'cli:ops', role: 'cli' as const, ip: null, userAgent: null };
  await audit.record(cli, { action: 'user.created', target: operator.email, details: { role: 'operator' } });
  await audit.record(cli, { action: 'user.created', clientId: member.clientId, target: member.email, details: { role: 'member' } });
  for (const amount of [12.5, 249.99, 1899, 45.2, 5]) {
    await flow.create({ amount, metadata: { redirectUri: 'https://acme.example/return', psuIpAddress: '203.0.113.7', psuUserAgent: 'Mozilla/5.0', endToEndId: `order-${randomUUID().slice(0, 8)}`, webhookUrl: 'https://hooks.acme.example/openpis' } });
  }
  return {
    clientId: flow.client.clientId,
    operatorId: operator.id,
    memberId: member.id,
    async signIn(page, who) {
      const token = await sessions.start(who === 'operator' ? operator.id : member.id, 'signed-in', { ip: '198.51.100.24', userAgent: 'Mozilla/5.0 (Macintosh) Safari/605' });
      await page.context().addCookies([{ name: 'openpis_console', value: token, url: `${app.baseUrl}/console`, httpOnly: true, sameSite: 'Strict' }]);
      await audit.record({ id: who === 'operator' ? operator.id : member.id, label: who === 'operator' ? operator.email : member.email, role: who, ip: '198.51.100.24', userAgent: 'Mozilla/5.0 (Macintosh) Safari/605' }, { action: 'sign-in', clientId: who === 'member' ? member.clientId : null });
    },
  };
}

type ConsoleContext = ScreenshotContext & { readonly console: ConsoleScene };

function consolePage(name: string, description: string, open: (context: ConsoleContext) => Promise<void>): ScreenshotPage {
  return {
    name,
    description,
    locales: ['en'],
    async open(context) {
      if (context.console === undefined) throw new Error('the console scene is not prepared');
      await open({ ...context, console: context.console });
    },
  };
}

export const CONSOLE_SCREENSHOT_PAGES: readonly ScreenshotPage[] = [
  consolePage('console-sign-in', 'Console: sign-in', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/console/sign-in`);
  }),
  consolePage('console-sign-in-locked', 'Console: sign-in refused, the account locked after five wrong passwords', async ({ page, baseUrl }) => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await page.goto(`${baseUrl}/console/sign-in`);
      await page.locator('#email').fill('lee@acme.example');
      await page.locator('#password').fill(`wrong password ${attempt}`);
      await Promise.all([page.waitForLoadState('load'), page.locator('button.primary').click()]);
    }
  }),
  consolePage('console-enrol', 'Console: an operator sets up the authenticator (QR code and key)', async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/console/sign-in`);
    await page.locator('#email').fill('nadia@pay.example');
    await page.locator('#password').fill(PASSWORD);
    await Promise.all([page.waitForURL(/\/console\/sign-in\/enrol/), page.locator('button.primary').click()]);
  }),
  consolePage('console-payments', 'Console: the payment list as an operator (every client)', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/payments`);
  }),
  consolePage('console-payments-filtered', 'Console: the payment list filtered (pending, 10 to 500 EUR, more filters open)', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    // An amount filter opens "More filters" by itself.
    await page.goto(`${baseUrl}/console/payments?status=PENDING&min=10&max=500`);
  }),
  consolePage('console-payments-empty', 'Console: a search that finds nothing', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/payments?q=no-such-order`);
  }),
  consolePage('console-payment', "Console: a completed payment's page (timeline, bank calls, webhook deliveries)", async (context) => {
    const { page, baseUrl, console } = context;
    // Paid for real at the sandbox bank, with a webhook URL that does not resolve here: real failed attempts.
    await approvedAtRheinland(context, 'alice', 'PAYMENT_EXECUTION_COMPLETED', {
      metadata: { redirectUri: 'http://127.0.0.1:9/return', psuIpAddress: '203.0.113.7', psuUserAgent: 'Mozilla/5.0', endToEndId: `order-${randomUUID().slice(0, 8)}`, webhookUrl: 'https://hooks.acme.example/openpis' },
    });
    const latest = await context.database.selectFrom('payments').select('id').where('client_id', '=', console.clientId).orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/payments/${latest.id}`);
  }),
  consolePage('console-banks', "Console: banks with their health over the last hour and day, failing first (operator)", async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/banks`);
  }),
  consolePage('console-banks-member', 'Console: the banks a member’s client called, from its calls only', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/banks`);
  }),
  consolePage('console-insight', 'Console: Insight charts (outcomes over time, where payers drop off, completion rate by bank, time to completion), operator', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/insight?range=24h`);
  }),
  consolePage('console-insight-table', 'Console: Insight for a member, with the funnel’s figures opened as a table', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/insight`);
    await page.locator('figure[aria-labelledby="funnel-title"] details summary').click();
  }),
  consolePage('console-sandbox', 'Console: sandbox fault rules, one just added (operator)', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/sandbox`);
    await page.locator('#bank').selectOption('hansa');
    await page.locator('#operation').selectOption('getPaymentStatus');
    await Promise.all([page.waitForURL(/done=added/), page.locator('form[action="/console/sandbox/faults"] button.primary').click()]);
  }),
  consolePage('console-sandbox-scenario', 'Console: a scenario payment just made from the Sandbox page, with the link to its page (operator)', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/sandbox`);
    // expired: no payer credentials travel, so the payment is made whatever the sandbox's test passwords are.
    await page.locator('#scenario').selectOption('expired');
    await Promise.all([page.waitForURL(/started=/), page.locator('form[action="/console/sandbox/scenarios"] button.primary').click()]);
  }),
  consolePage('console-clients', 'Console: clients (operator)', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/clients`);
  }),
  consolePage('console-client', "Console: a client's page with branding and the operator's actions", async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/clients/${console.clientId}`);
  }),
  consolePage('console-people', 'Console: people (operator)', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/people`);
  }),
  consolePage('console-person', "Console: a member's page", async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/people/${console.memberId}`);
  }),
  consolePage('console-audit', 'Console: the audit log', async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'operator');
    await page.goto(`${baseUrl}/console/audit`);
  }),
  consolePage('console-payment-links', 'Console: payment links (a member), with the form to create one', async (context) => {
    const { page, baseUrl, console } = context;
    await newPaymentLink(context, { reference: 'invoice-2026-040', amount: 24.5, remittanceInformation: { type: 'UNSTRUCTURED', value: 'Invoice 2026-040' } });
    const closed = await newPaymentLink(context, { reference: 'invoice-2026-041', amount: 310 });
    await context.api('POST', `/api/v1/ob/payment-links/${closed.paymentLinkId}/deactivate`);
    await newPaymentLink(context, { reference: 'shop-counter', amount: 5, reusable: true, remittanceInformation: { type: 'UNSTRUCTURED', value: 'Coffee' } });
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/payment-links`);
  }),
  consolePage('console-payment-link', 'Console: a payment link just created, with its address and QR code', async (context) => {
    const { page, baseUrl, console } = context;
    const link = await newPaymentLink(context, { reference: `invoice-2026-${randomUUID().slice(0, 4)}` });
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/payment-links/${link.paymentLinkId}?done=created`);
  }),
  consolePage('console-refunds', 'Console: refunds awaiting approval (a member)', async (context) => {
    const { page, baseUrl, console } = context;
    await newRefund(context, 'Dave Payer');
    await newRefund(context, 'Erika Mustermann');
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/refunds`);
  }),
  consolePage('console-refunds-approve', 'Console: two refunds selected: approve all together, or one after the other', async (context) => {
    const { page, baseUrl, console } = context;
    const first = await newRefund(context, 'Dave Payer');
    const second = await newRefund(context, 'Erika Mustermann');
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/refunds/approve?refund=${first.paymentId}&refund=${second.paymentId}`);
  }),
  consolePage('console-not-found', "Console: another client's payment, as a member sees it (404)", async ({ page, baseUrl, console }) => {
    await console.signIn(page, 'member');
    await page.goto(`${baseUrl}/console/payments/00000000-0000-4000-8000-000000000000`);
  }),
];
