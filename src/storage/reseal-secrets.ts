/**
 * The step that (re-)seals stored secrets in place: at start-up for plain values left by the migration that
 * introduced sealing, and in `openpis secrets reencrypt` for values sealed under a key that is no longer the active
 * one. Sealing itself, the key ring and the context of each secret are in src/crypto/ (secret-box.ts,
 * sealing-contexts.ts); this step stays in storage/ because it walks the tables that hold them, and crypto/ is at the
 * bottom of the layers and imports nothing of ours.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { isSealed, SEALED_PREFIX, type SecretBox } from '../crypto/secret-box.js';
import { flowTokenContext, previousWebhookSecretContext, totpSecretContext, webhookSecretContext } from '../crypto/sealing-contexts.js';

/** Payments read at once when looking for flow tokens to seal. */
const RESEAL_PAGE = 1000;

export interface ResealCounts {
  readonly webhookSecrets: number;
  readonly flowTokens: number;
  /** Console operators' TOTP secrets (docs/console.md). */
  readonly totpSecrets: number;
}

/**
 * Seals every stored secret that is not sealed under the active key: plain values are sealed as they are,
 * values sealed under an older key are opened with it and sealed again. Idempotent; one row per statement, so
 * it never holds a long lock. A value that opens with no key of the ring stops it with a SecretBoxError.
 */
export async function resealStoredSecrets(
  db: Kysely<Database>,
  box: SecretBox,
  options: { readonly onlyPlain?: boolean } = {},
): Promise<ResealCounts> {
  const needsReseal = (stored: string): boolean => (options.onlyPlain === true ? !isSealed(stored) : box.needsReseal(stored));
  const reseal = (stored: string, context: string): string => box.seal(isSealed(stored) ? box.open(stored, context) : stored, context);
  let webhookSecrets = 0;
  const clients = await db.selectFrom('clients').select(['id', 'webhook_secret', 'previous_webhook_secret']).execute();
  for (const client of clients) {
    const current = needsReseal(client.webhook_secret);
    const previous = client.previous_webhook_secret !== null && needsReseal(client.previous_webhook_secret);
    if (!current && !previous) continue;
    await db
      .updateTable('clients')
      .set({
        ...(current ? { webhook_secret: reseal(client.webhook_secret, webhookSecretContext(client.id)) } : {}),
        ...(previous && client.previous_webhook_secret !== null
          ? { previous_webhook_secret: reseal(client.previous_webhook_secret, previousWebhookSecretContext(client.id)) }
          : {}),
      })
      .where('id', '=', client.id)
      // Only if nobody rotated the secret meanwhile: a rotation writes a value sealed under the active key anyway.
      .where('webhook_secret', '=', client.webhook_secret)
      .execute();
    webhookSecrets += (current ? 1 : 0) + (previous ? 1 : 0);
  }
  let flowTokens = 0;
  // Payments are many (every start runs this): the database passes over the rows already sealed as wanted, and
  // the rest come a page at a time, so neither a million sealed rows nor a million to re-seal are held at once.
  const settledPrefix = options.onlyPlain === true ? SEALED_PREFIX : box.activeSealedPrefix;
  for (let after = ''; ;) {
    const page = await db
      .selectFrom('payments')
      .select(['id', 'flow_token_sealed'])
      .where('id', '>', after)
      .where(sql<string>`substr(flow_token_sealed, 1, ${settledPrefix.length})`, '<>', settledPrefix)
      .orderBy('id')
      .limit(RESEAL_PAGE)
      .execute();
    for (const payment of page) {
      if (!needsReseal(payment.flow_token_sealed)) continue;
      await db
        .updateTable('payments')
        .set({ flow_token_sealed: reseal(payment.flow_token_sealed, flowTokenContext(payment.id)) })
        .where('id', '=', payment.id)
        .where('flow_token_sealed', '=', payment.flow_token_sealed)
        .execute();
      flowTokens += 1;
    }
    const last = page[page.length - 1];
    if (page.length < RESEAL_PAGE || last === undefined) break;
    after = last.id;
  }
  let totpSecrets = 0;
  const users = await db
    .selectFrom('console_users')
    .select(['id', 'totp_secret_sealed'])
    .where('totp_secret_sealed', 'is not', null)
    .execute();
  for (const user of users) {
    if (user.totp_secret_sealed === null || !needsReseal(user.totp_secret_sealed)) continue;
    await db
      .updateTable('console_users')
      .set({ totp_secret_sealed: reseal(user.totp_secret_sealed, totpSecretContext(user.id)) })
      .where('id', '=', user.id)
      .where('totp_secret_sealed', '=', user.totp_secret_sealed)
      .execute();
    totpSecrets += 1;
  }
  return { webhookSecrets, flowTokens, totpSecrets };
}
