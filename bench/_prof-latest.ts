import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './shared.js';
import { freePort } from '../test/helpers/test-app.js';
import { paymentRequest } from '../test/helpers/payment-requests.js';
import { TEST_SECRET_KEYS } from '../test/helpers/secret-keys.js';
const op = process.argv[2] ?? 'latest';
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = await startChild(['--cpu-prof', '--cpu-prof-dir=/tmp/p1', '--import', 'tsx', 'src/server.ts'], { PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, METRICS_PORT: 'off', DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'warn', CREATE_DEMO_CLIENT: 'true', SECRET_KEYS: TEST_SECRET_KEYS, RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' }, /openpis is listening[^\n]*\n[\s\S]*Role:[^\n]*\n/);
const clientId = /clientId:\s+(\S+)/.exec(child.output())?.[1] ?? '';
const clientSecret = /clientSecret:\s+(\S+)/.exec(child.output())?.[1] ?? '';
const t = await fetch(`${base}/api/v1/auth/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
const token = ((await t.json()) as { access_token: string }).access_token;
const headers = { authorization: `Bearer ${token}` };
const ids: string[] = [];
for (let i = 0; i < 200; i++) { const r = await fetch(`${base}/api/v1/ob/payments`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(paymentRequest()) }); ids.push(((await r.json()) as { paymentId: string }).paymentId); }
let n = 0;
const requests: autocannon.Options['requests'] = op === 'latest'
  ? [{ method: 'GET', headers, setupRequest: (r) => ({ ...r, path: `/api/v1/archive/payment-statuses/latest?paymentId=${ids[(n += 1) % ids.length]}` }) }]
  : [{ method: 'POST', path: '/api/v1/ob/payments', headers: { ...headers, 'content-type': 'application/json' }, setupRequest: (r) => ({ ...r, body: JSON.stringify(paymentRequest()) }) }];
const result = await autocannon({ url: base, connections: 50, duration: 10, requests });
console.log(op, result.requests.average, result.non2xx);
await child.stop();
