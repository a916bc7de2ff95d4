import autocannon from 'autocannon';
import { startChild } from '../bench/shared.js';
import { freePort } from '../test/helpers/test-app.js';
import { paymentRequest } from '../test/helpers/payment-requests.js';
const port = await freePort();
const dir = process.argv[2] ?? '/tmp/prof-bare';
const bare = await startChild(['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', 'bench/bare-server.ts'], { PORT: String(port), DATABASE_URL: `sqlite:/tmp/bare-${port}.sqlite` }, /ready/);
const base = `http://127.0.0.1:${port}`;
const ids: string[] = [];
for (let i = 0; i < 200; i += 1) {
  const r = await fetch(`${base}/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(paymentRequest()) });
  ids.push(((await r.json()) as { paymentId: string }).paymentId);
}
let next = 0;
const result = await autocannon({ url: base, connections: 50, duration: 10, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/latest?paymentId=${ids[(next += 1) % ids.length]}` }) }] });
console.log('bare latest', result.requests.average, 'req/s total', result.requests.total);
await bare.stop();
