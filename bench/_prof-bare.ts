import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './shared.js';
import { freePort } from '../test/helpers/test-app.js';
import { paymentRequest } from '../test/helpers/payment-requests.js';
const dir = mkdtempSync(join(tmpdir(), 'profb-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = await startChild(['--cpu-prof', '--cpu-prof-dir=/tmp/p2', '--import', 'tsx', 'bench/bare-server.ts'], { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` }, /ready/);
const ids: string[] = [];
for (let i = 0; i < 200; i++) { const r = await fetch(`${base}/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(paymentRequest()) }); ids.push(((await r.json()) as { paymentId: string }).paymentId); }
let n = 0;
const result = await autocannon({ url: base, connections: 50, duration: 10, requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: `/latest?paymentId=${ids[(n += 1) % ids.length]}` }) }] });
console.log(result.requests.average, result.non2xx);
await child.stop();
