/** `openpis secrets …`: the operator key ring (SECRET_KEYS) that seals stored secrets. */
import type { Command } from 'commander';
import { generateSecretKeysSetting } from '../../crypto/secret-box.js';
import { print } from '../output.js';
import { withStore } from '../store.js';

export function secretsCommand(program: Command): Command {
  const secrets = program.command('secrets').description('the operator key ring that seals secrets at rest (SECRET_KEYS)');
  secrets
    .command('reencrypt')
    .description('re-seal every stored secret under the active (first) key of SECRET_KEYS, so older keys can be removed')
    .option('--json', 'print JSON')
    .action(reencryptSecrets);
  secrets
    .command('generate-key')
    .description('print a new key ring entry (<id>:<base64 32 bytes>) to put first in SECRET_KEYS')
    .option('--id <id>', 'the key id (letters, digits, - or _)')
    .action(generateKey);
  return secrets;
}

export async function reencryptSecrets(options: { json?: boolean }): Promise<void> {
  const result = await withStore(async ({ database, secrets }) => ({
    activeKeyId: secrets.activeKeyId,
    ...(await (await import('../../storage/reseal-secrets.js')).resealStoredSecrets(database.db, secrets)),
  }));
  print(
    result,
    options.json === true,
    () =>
      `Re-sealed under key ${result.activeKeyId}: ${result.webhookSecrets} webhook secret(s), ${result.flowTokens} flow token(s), ${result.totpSecrets} console second-factor secret(s). Keys other than ${result.activeKeyId} may now be removed from SECRET_KEYS.`,
  );
}

export function generateKey(options: { id?: string }): void {
  process.stdout.write(`${options.id === undefined ? generateSecretKeysSetting() : generateSecretKeysSetting(options.id)}\n`);
}
