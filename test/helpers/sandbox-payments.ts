/** Payments that really go through the embedded sandbox bank, with no browser. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BANKS, TEST_PASSWORD } from '../e2e/flow-harness.js';
import { paymentRequest } from './payment-requests.js';
import type { TestApp, TestClient } from './test-app.js';
import { waitFor } from './wait.js';

/**
 * A payment at Hansa (embedded approach: the payer's credentials travel in the request, dave needs no one-time
 * code) that the service runs by itself until its detailed status is `until`; its id. dave holds 1000.00 EUR, so a
 * larger amount ends in PAYMENT_EXECUTION_FAILED. The app needs the workers and the fixtures' TEST_PASSWORD.
 * `overrides`: other fields of the request (a recipient account a sandbox user holds, to refund from it).
 */
export async function paidAtHansa(
  app: TestApp,
  client: TestClient,
  amount: number,
  until: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const response = await app.request('/api/v1/ob/payments', {
    method: 'POST',
    token: await client.token(),
    json: paymentRequest({
      amount,
      provider: { id: BANKS.hansa },
      sender: { credentials: { id: 'dave', password: TEST_PASSWORD } },
      ...overrides,
    }),
  });
  assert.equal(response.status, 201);
  const { paymentId } = (await response.json()) as { paymentId: string };
  await waitFor(
    until,
    async () => {
      const row = await app.database.db
        .selectFrom('payments')
        .select('detailed_status')
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      return row.detailed_status === until ? true : undefined;
    },
    20_000,
  );
  return paymentId;
}

/**
 * The payer approves every pending request in the UK sandbox bank's app (a CIBA authorisation waits there), at the
 * service whose address is `baseUrl` (its embedded sandbox bank); how many it approved. `seen` collects the app's pages,
 * which show each request as the bank received it (amount, creditor name, creditor scheme and identification).
 */
export async function approveInUkBankApp(baseUrl: string, slug: string, psuId: string, seen?: string[]): Promise<number> {
  const base = `${baseUrl}/sandbox-bank/uk/${slug}`;
  const login = await fetch(`${base}/app`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ psuId, password: TEST_PASSWORD }),
  });
  assert.equal(login.status, 303);
  const appUrl = `${base}/${login.headers.get('location') ?? ''}`;
  const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  for (let decided = 0; decided < 10; decided += 1) {
    const html = await (await fetch(appUrl)).text();
    seen?.push(html);
    const request = hidden(html, 'request');
    if (request === undefined) return decided;
    const answer = await fetch(appUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: hidden(html, 'csrf') ?? '', request, action: 'approve' }),
    });
    assert.equal(answer.status, 303);
  }
  throw new Error('more than 10 requests in the bank app');
}

/**
 * The built-in sandbox catalogue with every bank's answer timeout set to `timeoutMs`, written into `dir`; its path,
 * for PROVIDER_CATALOGUE_FILE (tests whose faults hold answers past the timeout without waiting the default 10 s).
 */
export function sandboxCatalogueWithTimeouts(dir: string, timeoutMs: number): string {
  const builtIn = readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8');
  const file = join(dir, 'catalogue.json');
  writeFileSync(file, builtIn.replace(/"timeoutMs":\s*\d+/g, `"timeoutMs": ${timeoutMs}`));
  return file;
}
