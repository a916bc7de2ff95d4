/**
 * Starts the example shop against an openpis (see README.md). Configuration from the environment:
 * OPENPIS_URL, OPENPIS_CLIENT_ID, OPENPIS_CLIENT_SECRET, OPENPIS_WEBHOOK_SECRET (optional), SHOP_URL, PORT,
 * SHOP_WEBHOOK_URL (optional: a public address openpis can reach; on a laptop use `openpis listen` instead).
 */
import { OpenpisClient } from '@openpis/sdk';
import { buildShop } from './shop.js';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`Set ${name} (see README.md).\n`);
    process.exit(1);
  }
  return value;
}

const port = Number(process.env.PORT ?? 3000);
const openpisUrl = process.env.OPENPIS_URL ?? 'http://localhost:8080';
const shopUrl = (process.env.SHOP_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const shop = buildShop({
  openpis: new OpenpisClient({
    baseUrl: openpisUrl,
    clientId: required('OPENPIS_CLIENT_ID'),
    clientSecret: required('OPENPIS_CLIENT_SECRET'),
  }),
  openpisUrl,
  shopUrl,
  webhookSecret: process.env.OPENPIS_WEBHOOK_SECRET,
  webhookUrl: process.env.SHOP_WEBHOOK_URL,
});
await shop.listen({ port, host: '127.0.0.1' });
process.stdout.write(`Example shop at ${shopUrl} (paying through ${openpisUrl})\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shop.close().then(() => process.exit(0)));
