/**
 * `openpis banks …`: the banks payments can go to, kept in the database (docs/adr/0011-banks-in-the-database.md).
 * Every change reaches every running process without a restart. An entry is the JSON of one element of the
 * catalogue's `providers` (src/providers/sandbox-catalogue.json); one that cannot be used is refused with every
 * problem listed. Our secrets at a bank (client id, client secret, registration token) are read from a file or
 * standard input, never from the command line (other users of the machine see arguments), sealed under
 * SECRET_KEYS, and never printed: `show` names them only.
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import type { BankSecrets, BankStore, StoredBank } from '../../providers/bank-store.js';
import type { Store } from '../../runtime.js';
import { recordCliAction } from '../audit.js';
import { print, table, uuidArgument } from '../output.js';
import { withStore } from '../store.js';

interface SecretsOptions {
  readonly secretsFile?: string;
  readonly secretsStdin?: boolean;
}

export function banksCommand(program: Command): Command {
  const banks = program.command('banks').description('manage the banks payments can go to (changes reach every process at once)');
  const withSecretsOptions = (command: Command): Command =>
    command
      .option('--secrets-file <file>', 'our secrets at the bank, a JSON object such as {"clientId": "…", "clientSecret": "…"}')
      .option('--secrets-stdin', 'read that JSON object from standard input');

  banks.command('list').description('every bank with its status (never its secrets)').option('--json', 'print JSON').action(listBanks);
  banks
    .command('show')
    .description('one bank: its entry, status and the names of its stored secrets')
    .argument('<bankId>', 'the bank', uuidArgument('bankId'))
    .option('--json', 'print JSON')
    .action(showBank);
  withSecretsOptions(
    banks
      .command('add')
      .description('add a bank from a JSON file of one catalogue entry; refused with every problem listed')
      .argument('<file>', 'the entry (JSON)'),
  ).action(addBank);
  withSecretsOptions(
    banks
      .command('update')
      .description("replace a bank's entry (its status is kept); refused with every problem listed")
      .argument('<bankId>', 'the bank', uuidArgument('bankId'))
      .argument('<file>', 'the new entry (JSON, with the same id)'),
  ).action(updateBank);
  withSecretsOptions(
    banks
      .command('secrets')
      .description('store our secrets at a bank (sealed), or remove them with --clear')
      .argument('<bankId>', 'the bank', uuidArgument('bankId'))
      .option('--clear', 'remove the stored secrets'),
  ).action(setBankSecrets);
  banks
    .command('disable')
    .description('take a bank off the lists; payments already at it finish')
    .argument('<bankId>', 'the bank', uuidArgument('bankId'))
    .action((bankId: string) => changeLifecycle('disable', bankId));
  banks
    .command('enable')
    .description('put a disabled or replaced bank back on the lists')
    .argument('<bankId>', 'the bank', uuidArgument('bankId'))
    .action((bankId: string) => changeLifecycle('enable', bankId));
  banks
    .command('replace')
    .description('retire a bank id in favour of another bank; new payments asking for the old id go to the new one')
    .argument('<oldBankId>', 'the bank retired', uuidArgument('oldBankId'))
    .argument('<newBankId>', 'the active bank that replaces it', uuidArgument('newBankId'))
    .action(replaceBank);
  return banks;
}

/** The banks, with the configured catalogue imported first (as the service does at start), so none is missing. */
async function bankStore(store: Store): Promise<BankStore> {
  const [{ BankStore }, { importConfiguredCatalogue }] = await Promise.all([
    import('../../providers/bank-store.js'),
    import('../../runtime.js'),
  ]);
  await importConfiguredCatalogue(store);
  return new BankStore(store.database.db, store.secrets);
}

/** What the CLI shows of a bank: never a secret, only the names of those stored. */
function bankView(bank: StoredBank): Record<string, unknown> {
  return {
    id: bank.id,
    name: bank.entry.name,
    status: bank.status,
    replacedBy: bank.replacedBy,
    source: bank.source,
    secretNames: bank.secretNames,
    revision: bank.revision,
    createdAt: bank.createdAt,
    updatedAt: bank.updatedAt,
    entry: bank.entry,
  };
}

function standardsOf(bank: StoredBank): string {
  const standards = new Set(
    [bank.entry.connector, ...(bank.entry.subsidiaries ?? []).map((sub) => sub.connector)].flatMap((connector) =>
      connector === undefined ? [] : [connector.standard],
    ),
  );
  return [...standards].join(',');
}

async function listBanks(options: { json?: boolean }): Promise<void> {
  await withStore(async (store) => {
    const banks = await (await bankStore(store)).list();
    print(
      banks.map((bank) => {
        const { entry: _entry, ...summary } = bankView(bank);
        return summary;
      }),
      options.json === true,
      () =>
        table(
          ['ID', 'NAME', 'COUNTRY', 'ENVIRONMENT', 'STANDARD', 'STATUS', 'SECRETS'],
          banks.map((bank) => [
            bank.id,
            bank.entry.name,
            bank.entry.countryCode,
            bank.entry.environment,
            standardsOf(bank),
            bank.status === 'deprecated' ? `replaced by ${bank.replacedBy ?? '?'}` : bank.status,
            bank.secretNames.join(',') || '-',
          ]),
        ),
    );
  });
}

async function showBank(bankId: string, options: { json?: boolean }): Promise<void> {
  await withStore(async (store) => {
    const bank = await (await bankStore(store)).get(bankId);
    if (bank === undefined) throw new InvalidArgumentError(`No bank has the id ${bankId} (\`openpis banks list\` lists them)`);
    print(bankView(bank), options.json === true, () =>
      [
        `id: ${bank.id}`,
        `name: ${bank.entry.name}`,
        `status: ${bank.status}${bank.replacedBy === null ? '' : ` (replaced by ${bank.replacedBy})`}`,
        `source: ${bank.source === 'import' ? 'imported catalogue' : 'operator'}`,
        `secrets: ${bank.secretNames.join(', ') || 'none'}`,
        `updated: ${bank.updatedAt} (revision ${bank.revision})`,
        'entry:',
        JSON.stringify(bank.entry, null, 2),
      ].join('\n'),
    );
  });
}

async function addBank(file: string, options: SecretsOptions): Promise<void> {
  const entry = readJsonFile(file, 'the entry');
  const secrets = await readSecrets(options);
  await withStore(async (store) => {
    const banks = await bankStore(store);
    let bank = await banks.add(entry);
    if (secrets !== undefined) bank = await banks.setSecrets(bank.id, secrets);
    await recordCliAction(store.database.db, {
      action: 'bank.added',
      target: bank.id,
      details: { name: bank.entry.name, secretNames: bank.secretNames.join(',') },
    });
    process.stdout.write(`Added bank ${bank.id} (${bank.entry.name}); every process offers it within seconds\n`);
  });
}

async function updateBank(bankId: string, file: string, options: SecretsOptions): Promise<void> {
  const entry = readJsonFile(file, 'the entry');
  const secrets = await readSecrets(options);
  await withStore(async (store) => {
    const banks = await bankStore(store);
    let bank = await banks.update(bankId, entry);
    if (secrets !== undefined) bank = await banks.setSecrets(bank.id, secrets);
    await recordCliAction(store.database.db, {
      action: 'bank.updated',
      target: bank.id,
      details: { name: bank.entry.name, secretNames: bank.secretNames.join(',') },
    });
    process.stdout.write(`Updated bank ${bank.id} (${bank.entry.name})\n`);
  });
}

async function setBankSecrets(bankId: string, options: SecretsOptions & { clear?: boolean }): Promise<void> {
  const secrets = options.clear === true ? undefined : await readSecrets(options);
  if (options.clear !== true && secrets === undefined)
    throw new InvalidArgumentError('give --secrets-file <file>, --secrets-stdin or --clear');
  await withStore(async (store) => {
    const bank = await (await bankStore(store)).setSecrets(bankId, secrets);
    await recordCliAction(store.database.db, {
      action: secrets === undefined ? 'bank.secrets-cleared' : 'bank.secrets-set',
      target: bank.id,
      details: { secretNames: bank.secretNames.join(',') },
    });
    process.stdout.write(
      secrets === undefined
        ? `Removed the secrets of bank ${bank.id}\n`
        : `Stored ${bank.secretNames.join(', ')} for bank ${bank.id} (sealed)\n`,
    );
  });
}

async function changeLifecycle(change: 'disable' | 'enable', bankId: string): Promise<void> {
  await withStore(async (store) => {
    const banks = await bankStore(store);
    const bank = change === 'disable' ? await banks.disable(bankId) : await banks.enable(bankId);
    await recordCliAction(store.database.db, { action: `bank.${change}d`, target: bank.id, details: { name: bank.entry.name } });
    process.stdout.write(
      change === 'disable'
        ? `Disabled bank ${bank.id} (${bank.entry.name}): no longer offered; payments already at it finish\n`
        : `Enabled bank ${bank.id} (${bank.entry.name})\n`,
    );
  });
}

async function replaceBank(oldBankId: string, newBankId: string): Promise<void> {
  await withStore(async (store) => {
    const bank = await (await bankStore(store)).replace(oldBankId, newBankId);
    await recordCliAction(store.database.db, { action: 'bank.replaced', target: bank.id, details: { replacedBy: newBankId } });
    process.stdout.write(
      `Bank ${bank.id} is replaced by ${newBankId}: no longer offered; new payments asking for it go to ${newBankId}; ` +
        'payments already at it finish\n',
    );
  });
}

function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new InvalidArgumentError(`${what}: cannot read ${file}`);
  }
  return parseJson(text, `${what} (${file})`);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // The parser's message names the position, never the secrets around it.
    throw new InvalidArgumentError(
      `${what} is not JSON: ${error instanceof SyntaxError ? error.message.replace(/"[^"]*"/g, '"…"') : 'unreadable'}`,
    );
  }
}

/** The secrets of `--secrets-file` or `--secrets-stdin` (never the command line), checked; undefined without either. */
async function readSecrets(options: SecretsOptions): Promise<BankSecrets | undefined> {
  if (options.secretsFile !== undefined && options.secretsStdin === true) {
    throw new InvalidArgumentError('give --secrets-file or --secrets-stdin, not both');
  }
  let document: unknown;
  if (options.secretsFile !== undefined) document = readJsonFile(options.secretsFile, 'the secrets');
  else if (options.secretsStdin === true) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    document = parseJson(Buffer.concat(chunks).toString('utf8'), 'the secrets (standard input)');
  } else return undefined;
  const { checkedSecrets } = await import('../../providers/bank-store.js');
  return checkedSecrets(document);
}
