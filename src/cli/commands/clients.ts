/**
 * `openpis clients …`: API clients. Secrets are printed once, when they are made; the database keeps only their
 * hashes (client secrets) or sealed copies (webhook secrets), and no command shows them again.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { ClientService } from '../../auth/clients.js';
import { parseScopes, type Scope } from '../../auth/scopes.js';
import { BrandingError, ClientBrandingStore, type BrandingChanges } from '../../branding/client-branding.js';
import { MAX_LOGO_FILE_BYTES, processLogo } from '../../branding/logo.js';
import { ConfigError, httpsRequiredProblem, loadConfig } from '../../config/config.js';
import type { Store } from '../../runtime.js';
import { recordCliAction } from '../audit.js';
import { brandingLines, brandingView, camelCase, fetchLogo, readLogoFile } from '../branding.js';
import { print, table, uuidArgument } from '../output.js';
import { withStore } from '../store.js';

export function clientsCommand(program: Command): Command {
  const clients = program.command('clients').description('manage API clients');
  clients
    .command('create')
    .description('create a client; prints its id, secret and webhook secret once')
    .requiredOption('--name <name>', "the client's name")
    .addOption(new Option('--environment <environment>', 'sandbox or production').choices(['sandbox', 'production']).default('sandbox'))
    .option('--scopes <scopes>', 'space-separated scopes', scopesOption)
    .option('--json', 'print JSON')
    .action(createClient);

  clients.command('list').description('list clients (never their secrets)').option('--json', 'print JSON').action(listClients);

  clients
    .command('show')
    .description('one client with its branding (never its secrets)')
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--json', 'print JSON')
    .action(showClient);

  clients
    .command('branding')
    .description("set how the client's payers see it on the payment pages: display name, logo, brand colour, support link")
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--display-name <name>', `the name payers see (default: the payment's recipient name)`)
    .option(
      '--logo <file>',
      `a PNG, JPEG or WebP file (at most ${MAX_LOGO_FILE_BYTES / 1024 / 1024} MiB); re-encoded to a PNG of at most 480×160`,
    )
    .option('--logo-url <url>', 'fetch the logo once, now, from this https address (checked like --logo)')
    .option('--brand-colour <hex>', 'colour of the main buttons, e.g. #0a5; the text colour is chosen for contrast')
    .option('--support-url <url>', 'a help page for payers (https)')
    .addOption(
      new Option('--clear <part...>', 'remove parts of the branding').choices(['display-name', 'logo', 'brand-colour', 'support-url']),
    )
    .option('--json', 'print JSON')
    .action(setClientBranding);

  clients
    .command('rotate-secret')
    .description("issue a new client secret; the old one and the client's tokens stop working at once")
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--json', 'print JSON')
    .action(rotateClientSecret);

  clients
    .command('disable')
    .description('disable a client: its tokens stop working and it gets no new ones')
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .action(disableClient);

  clients
    .command('rotate-webhook-secret')
    .description('issue a new webhook signing secret; the old one keeps signing beside it for the grace period')
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--grace-seconds <seconds>', 'how long the old secret keeps signing (default: WEBHOOK_SECRET_GRACE_SECONDS)', (value) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a whole number of seconds');
      return Number(value);
    })
    .option('--json', 'print JSON')
    .action(rotateClientWebhookSecret);
  return clients;
}

function scopesOption(value: string): Scope[] {
  const { scopes, unknown } = parseScopes(value);
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown scope(s): ${unknown.join(', ')}`);
  if (scopes.length === 0) throw new InvalidArgumentError('at least one scope is needed');
  return scopes;
}

async function clientService(store: Store): Promise<ClientService> {
  const { ClientService } = await import('../../auth/clients.js');
  return new ClientService(store.database.db, store.secrets);
}

export interface CreateClientOptions {
  readonly name: string;
  readonly environment: 'sandbox' | 'production';
  readonly scopes?: Scope[];
  readonly json?: boolean;
}

export async function createClient(options: CreateClientOptions): Promise<void> {
  if (options.environment === 'production') {
    // The service would refuse to start with it (src/server.ts): say so now, not at the next restart.
    const problem = httpsRequiredProblem(loadConfig().baseUrl);
    if (problem !== undefined) throw new ConfigError([problem]);
  }
  const issued = await withStore(async (store) => {
    const { database } = store;
    const created = await (
      await clientService(store)
    ).create({
      name: options.name,
      environment: options.environment,
      ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
    });
    await recordCliAction(database.db, {
      action: 'client.created',
      clientId: created.clientId,
      target: created.clientId,
      details: { name: options.name, environment: created.environment, scopes: created.scopes },
    });
    return created;
  });
  print(issued, options.json === true, () =>
    [
      `Client created (${issued.environment}). The secrets are shown only now:`,
      `  clientId:      ${issued.clientId}`,
      `  clientSecret:  ${issued.clientSecret}`,
      `  webhookSecret: ${issued.webhookSecret}`,
      `  scopes:        ${issued.scopes}`,
    ].join('\n'),
  );
}

export async function listClients(options: { json?: boolean }): Promise<void> {
  const list = await withStore(async (store) => {
    const brandings = new Map((await new ClientBrandingStore(store.database.db).list()).map((branding) => [branding.clientId, branding]));
    return (await (await clientService(store)).list()).map((client) => ({
      ...client,
      branding: brandingView(brandings.get(client.clientId)),
    }));
  });
  print(list, options.json === true, () =>
    list.length === 0
      ? 'No clients.'
      : table(
          ['CLIENT ID', 'ENVIRONMENT', 'STATE', 'CREATED', 'SCOPES', 'NAME'],
          list.map((client) => [
            client.clientId,
            client.environment,
            client.disabledAt === null ? 'active' : 'disabled',
            client.createdAt,
            client.scopes.join(' '),
            client.branding.displayName === null ? client.name : `${client.name} (shown as "${client.branding.displayName}")`,
          ]),
        ),
  );
}

export async function showClient(clientId: string, options: { json?: boolean }): Promise<void> {
  const shown = await withStore(async (store) => {
    const client = (await (await clientService(store)).list()).find((candidate) => candidate.clientId === clientId);
    if (client === undefined) throw new (await import('../../auth/clients.js')).ClientNotFoundError(clientId);
    return { ...client, branding: brandingView(await new ClientBrandingStore(store.database.db).get(clientId)) };
  });
  print(shown, options.json === true, () =>
    [
      `${shown.clientId}  ${shown.environment}  ${shown.disabledAt === null ? 'active' : `disabled ${shown.disabledAt}`}`,
      `  name:          ${shown.name}`,
      `  scopes:        ${shown.scopes.join(' ')}`,
      ...brandingLines(shown.branding),
    ].join('\n'),
  );
}

export interface ClientBrandingOptions {
  readonly displayName?: string;
  readonly logo?: string;
  readonly logoUrl?: string;
  readonly brandColour?: string;
  readonly supportUrl?: string;
  readonly clear?: string[];
  readonly json?: boolean;
}

export async function setClientBranding(clientId: string, options: ClientBrandingOptions): Promise<void> {
  const cleared = new Set(options.clear ?? []);
  const conflicting = (['display-name', 'logo', 'brand-colour', 'support-url'] as const).filter(
    (part) => cleared.has(part) && options[camelCase(part)] !== undefined,
  );
  if (options.logo !== undefined && options.logoUrl !== undefined) throw new BrandingError(['give --logo or --logo-url, not both']);
  if (cleared.has('logo') && options.logoUrl !== undefined) conflicting.push('logo');
  if (conflicting.length > 0) throw new BrandingError(conflicting.map((part) => `--${part} and --clear ${part} contradict each other`));
  const logoBytes =
    options.logo !== undefined
      ? await readLogoFile(options.logo)
      : options.logoUrl !== undefined
        ? await fetchLogo(options.logoUrl)
        : undefined;
  const changes: BrandingChanges = {
    ...(options.displayName !== undefined
      ? { displayName: options.displayName }
      : cleared.has('display-name')
        ? { displayName: null }
        : {}),
    ...(options.brandColour !== undefined
      ? { brandColour: options.brandColour }
      : cleared.has('brand-colour')
        ? { brandColour: null }
        : {}),
    ...(options.supportUrl !== undefined ? { supportUrl: options.supportUrl } : cleared.has('support-url') ? { supportUrl: null } : {}),
    ...(logoBytes !== undefined ? { logo: await processLogo(logoBytes) } : cleared.has('logo') ? { logo: null } : {}),
  };
  if (Object.keys(changes).length === 0)
    throw new BrandingError(['nothing to change: give --display-name, --logo, --logo-url, --brand-colour, --support-url or --clear']);
  const stored = await withStore(async ({ database }) => {
    const updated = await new ClientBrandingStore(database.db).update(clientId, changes);
    await recordCliAction(database.db, {
      action: 'client.branding-changed',
      clientId,
      target: clientId,
      details: { changed: Object.keys(changes) },
    });
    return updated;
  });
  const view = brandingView(stored);
  print(view, options.json === true, () => [`Branding of ${clientId}:`, ...brandingLines(view)].join('\n'));
}

export async function rotateClientSecret(clientId: string, options: { json?: boolean }): Promise<void> {
  const rotated = await withStore(async (store) => {
    const { database } = store;
    const result = await (await clientService(store)).rotateSecret(clientId);
    await recordCliAction(database.db, { action: 'client.secret-rotated', clientId, target: clientId });
    return result;
  });
  print(
    rotated,
    options.json === true,
    () => `New secret for ${rotated.clientId} (shown only now):\n  clientSecret:  ${rotated.clientSecret}`,
  );
}

export async function disableClient(clientId: string): Promise<void> {
  await withStore(async (store) => {
    const { database } = store;
    await (await clientService(store)).disable(clientId);
    await recordCliAction(database.db, { action: 'client.disabled', clientId, target: clientId });
  });
  process.stdout.write(`Client ${clientId} disabled.\n`);
}

export async function rotateClientWebhookSecret(clientId: string, options: { graceSeconds?: number; json?: boolean }): Promise<void> {
  const rotated = await withStore(async (store) => {
    const { config, database } = store;
    const result = await (
      await clientService(store)
    ).rotateWebhookSecret(clientId, options.graceSeconds ?? config.webhooks.secretGraceSeconds);
    await recordCliAction(database.db, {
      action: 'client.webhook-secret-rotated',
      clientId,
      target: clientId,
      details: { previousSecretExpiresAt: result.previousSecretExpiresAt },
    });
    return result;
  });
  print(
    rotated,
    options.json === true,
    () =>
      `New webhook secret for ${rotated.clientId} (shown only now):\n  webhookSecret: ${rotated.webhookSecret}\nThe previous secret also signs until ${rotated.previousSecretExpiresAt}.`,
  );
}
