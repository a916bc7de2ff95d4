/**
 * Banks and Insight over HTTP on both databases (their queries are written once for SQLite and PostgreSQL): the
 * figures a member and an operator get over payments that went through the sandbox bank and over recorded bank
 * calls, a member's being their client's only; the health states and their order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BankCallRecorder } from '../../src/observability/bank-call-records.js';
import { BANKS, fixturesWithPassword, TEST_PASSWORD } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { paidAtHansa } from '../helpers/sandbox-payments.js';
import { type ConsoleBrowser, signedInOperatorAndMember } from './console-http.js';

/** The text alternative of a chart (its SVG's aria-label), by the figure's id. */
function chartLabel(page: string, id: string): string {
  const figure = new RegExp(`<figure class="chart card" aria-labelledby="${id}-title">[\\s\\S]*?<svg[^>]*aria-label="([^"]*)"`).exec(page);
  return (figure?.[1] ?? '').replace(/&#39;|&#x27;/g, "'").replace(/&amp;/g, '&');
}

/** The Banks page's rows, as text. */
function bankRows(page: string): string[] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return body
    .split('</tr>')
    .map((row) =>
      row
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((row) => row !== '');
}

for (const kind of await testDatabaseKinds()) {
  describe(`console Banks and Insight [${kind.name}]`, () => {
    let app: TestApp;
    let acme: TestClient;
    let globex: TestClient;
    let member: ConsoleBrowser;
    let operator: ConsoleBrowser;

    before(async () => {
      app = await startTestApp(kind, {
        workers: true,
        sandboxFixtures: fixturesWithPassword(TEST_PASSWORD),
        env: { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200', WORKER_POLL_INTERVAL_MS: '20' },
      });
      acme = await app.createClient({ name: 'Acme Shop' });
      globex = await app.createClient({ name: 'Globex' });
      await paidAtHansa(app, acme, 12.5, 'PAYMENT_EXECUTION_COMPLETED');
      await paidAtHansa(app, acme, 5000, 'PAYMENT_EXECUTION_FAILED');
      const globexPayments: string[] = [];
      for (let index = 0; index < 2; index += 1) {
        const created = await app.request('/api/v1/ob/payments', { method: 'POST', token: await globex.token(), json: paymentRequest() });
        assert.equal(created.status, 201);
        globexPayments.push(((await created.json()) as { paymentId: string }).paymentId);
      }
      // One of Globex's payers moved from a desktop to a phone by the QR code of the payer's pages.
      const takenAt = new Date().toISOString();
      await app.database.db
        .insertInto('payment_handovers')
        .values({
          payment_id: globexPayments[0] ?? '',
          token_hash: 'x'.repeat(43),
          issued_at: takenAt,
          expires_at: takenAt,
          taken_at: takenAt,
          device_hash: 'y'.repeat(43),
        })
        .execute();
      // Recorded calls: Lumière down for Globex just now (failing), answering three hours ago; Midi answering 19 of
      // 20 calls in the hour (95 %: not yet degraded).
      const now = Date.now();
      const recorder = new BankCallRecorder(app.database.db);
      const at = (minutesAgo: number): string => new Date(now - minutesAgo * 60_000).toISOString();
      for (let index = 0; index < 4; index += 1)
        recorder.record({
          at: at(index + 1),
          bankId: BANKS.lumiere,
          clientId: globex.clientId,
          paymentId: null,
          operation: 'initiatePayment',
          outcome: 'unavailable',
          httpStatus: 503,
          latencyMs: 100,
        });
      recorder.record({
        at: at(180),
        bankId: BANKS.lumiere,
        clientId: globex.clientId,
        paymentId: null,
        operation: 'initiatePayment',
        outcome: 'ok',
        httpStatus: null,
        latencyMs: 100,
      });
      // Midi: 19 answered calls of 100 … 1900 ms and one timeout, all within the hour; p95 of 20 = the 19th smallest.
      for (let index = 1; index <= 19; index += 1)
        recorder.record({
          at: at(30),
          bankId: BANKS.midi,
          clientId: globex.clientId,
          paymentId: null,
          operation: 'getPaymentStatus',
          outcome: index % 2 === 0 ? 'refused' : 'ok',
          httpStatus: index % 2 === 0 ? 400 : null,
          latencyMs: index * 100,
        });
      recorder.record({
        at: at(50),
        bankId: BANKS.midi,
        clientId: globex.clientId,
        paymentId: null,
        operation: 'getPaymentStatus',
        outcome: 'unavailable',
        httpStatus: null,
        latencyMs: 30_000,
      });
      await recorder.close();
      // The app writes its records of bank calls in batches, up to 250 ms after a call: the pages read what is written.
      await app.app.bankCallRecorder.flush();

      ({ operator, member } = await signedInOperatorAndMember(app, acme.clientId));
    });
    after(async () => {
      await app?.close();
    });

    it('puts the failing bank first, then the degraded one, with answered shares and p95 latencies', async () => {
      const page = await operator.get('/console/banks');
      assert.equal(page.status, 200);
      assert.match(page.html, /1 bank is failing now/);
      const rows = bankRows(page.html);
      assert.match(rows[0] ?? '', /^Banque Lumière Sandbox .*Failing now 4\/4 failed in 15 min 0 % 4 of 4 failed .* 20 % 4 of 5 failed/);
      // A refusal is an answer: Midi answered 19 of 20 calls in the hour (under 95 % would be degraded). The busier
      // healthy bank comes first. p95 of 20 calls: the 19th smallest latency.
      assert.match(rows[1] ?? '', /^Crédit Sandbox du Midi .*Healthy 95 % 1 of 20 failed 1\.9 s 95 % 1 of 20 failed 1\.9 s/);
      assert.match(rows[2] ?? '', /^Hansa Direktbank Sandbox .*Healthy 100 %/);
      assert.equal(rows.length, 3, 'the banks called in the last day');
      // The rest of the catalogue, named below the table.
      const quiet = page.html.match(/(\d+) more banks<\/summary>|(\d+) more banks without calls in the last day/);
      assert.equal(Number(quiet?.[1] ?? quiet?.[2]), app.catalogue.banks('sandbox').length + app.catalogue.banks('production').length - 3);
      assert.match(page.html, /<li>Rheinland Sandbox Bank <span class="muted">DE · Berlin Group · sandbox<\/span><\/li>/);
    });

    it('shows a member only the banks their client called, from their calls', async () => {
      const rows = bankRows((await member.get('/console/banks')).html);
      assert.equal(rows.length, 1);
      assert.match(rows[0] ?? '', /^Hansa Direktbank Sandbox .*Healthy 100 %/);
      assert.doesNotMatch((await member.get('/console/banks')).html, /failing now:|Lumière/);
    });

    it('draws Insight over every client for an operator, and over their client only for a member', async () => {
      const all = await operator.get('/console/insight?range=24h');
      assert.equal(all.status, 200);
      assert.match(chartLabel(all.html, 'outcomes'), /^Last 24 hours: 4 payments created, 1 completed \(25 %\), 1 failed, 2 still pending/);
      assert.match(chartLabel(all.html, 'funnel'), /^Every bank: of 4 payments, 1 completed \(25 %\)/);
      assert.match(chartLabel(all.html, 'banks-conversion'), /Lowest: Hansa Direktbank Sandbox, 50 % of 2/);
      assert.match(chartLabel(all.html, 'completion-time'), /^1 completed payment: half within/);
      assert.match(all.html, /QR taken over \(desktop to phone\): 1 of 4 payments \(25 %\), 0 of them completed\./);
      const hansa = await operator.get(`/console/insight?range=7d&bank=${BANKS.hansa}`);
      assert.match(chartLabel(hansa.html, 'funnel'), /^Hansa Direktbank Sandbox: of 2 payments, 1 completed \(50 %\)/);
      const funnelTable = /aria-labelledby="funnel-title">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(hansa.html)?.[1] ?? '';
      const reached = [...funnelTable.matchAll(/<\/th><td class="amount">(\d+)<\/td>/g)].map((match) => Number(match[1]));
      // Created, bank chosen, registered, authorised, completed: the failed one was authorised, then refused.
      assert.deepEqual(reached, [2, 2, 2, 2, 1]);

      const mine = await member.get(`/console/insight?range=24h&client=${globex.clientId}`);
      assert.match(
        chartLabel(mine.html, 'outcomes'),
        /^Last 24 hours: 2 payments created, 1 completed \(50 %\), 1 failed, 0 still pending/,
      );
      assert.doesNotMatch(mine.html, /Globex/);
      assert.match(mine.html, /QR taken over \(desktop to phone\): 0 of 2 payments \(0 %\), 0 of them completed\./);
    });
  });
}
