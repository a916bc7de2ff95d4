/**
 * The operator CLI (`npx openpis …`), using the same configuration as the service (environment variables,
 * DATABASE_URL above all). Secrets are printed once, when they are made; the database keeps only their hashes
 * (client secrets) or sealed copies (webhook secrets), and no command shows them again.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Kysely } from 'kysely';
import { parseScopes, type Scope } from '../auth/scopes.js';
import { ConfigError, httpsRequiredProblem, loadConfig, payerLinkProblem } from '../config/config.js';
import { BrandingClientNotFoundError, BrandingError, ClientBrandingStore, clientLogoPath, type BrandingChanges, type ClientBranding } from '../branding/client-branding.js';
import { buttonColours, describeButtonColours } from '../branding/colour.js';
import { LogoError, MAX_LOGO_FILE_BYTES, processLogo } from '../branding/logo.js';
import type { ClientService } from '../auth/clients.js';
import type { Runtime, Store } from '../runtime.js';
import { generateSecretKeysSetting, SecretBoxError } from '../crypto/secret-box.js';
import { recordCliAction, usersCommand } from './users.js';
import { print, table, uuidArgument, wholeNumber } from './output.js';
import { SCENARIOS, type Scenario } from '../sandbox-scenarios/scenarios.js';

function scopesOption(value: string): Scope[] {
  const { scopes, unknown } = parseScopes(value);
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown scope(s): ${unknown.join(', ')}`);
  if (scopes.length === 0) throw new InvalidArgumentError('at least one scope is needed');
  return scopes;
}

/*
 * Start-up of a command is mostly module loading (docs/performance.md#start-up-of-the-cli-and-the-service): what a
 * command needs beyond commander and the configuration is imported inside its action, so `clients list` never
 * loads the sandbox bank, the logo decoder, the provider catalogue's validation or the webhook sender.
 */

/** The database (migrated if a migration is pending), the key ring and the configuration; closed after `work`. */
async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const { openStore } = await import('../runtime.js');
  const store = await openStore();
  try {
    return await work(store);
  } finally {
    await store.database.close();
  }
}

/** withStore and the provider catalogue: for the commands that reach banks. */
async function withRuntime<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const { openRuntime } = await import('../runtime.js');
  const runtime = await openRuntime();
  try {
    return await work(runtime);
  } finally {
    await runtime.database.close();
  }
}

async function clientService(store: Store): Promise<ClientService> {
  const { ClientService } = await import('../auth/clients.js');
  return new ClientService(store.database.db, store.secrets);
}

export function buildCli(): Command {
  const program = new Command('openpis').description('openpis operator commands').showHelpAfterError();

  program
    .command('migrate')
    .description('apply pending database migrations (the service also applies them at start)')
    .action(async () => {
      const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../storage/database.js'), import('../storage/migrator.js')]);
      const database = openDatabase(loadConfig().database);
      try {
        const applied = await migrateToLatest(database.db as unknown as Kysely<unknown>);
        process.stdout.write(applied.length === 0 ? 'Database is up to date.\n' : `Applied: ${applied.join(', ')}\n`);
      } finally {
        await database.close();
      }
    });

  program
    .command('sandbox-bank')
    .description('run the sandbox bank on its own (point the service at it with SANDBOX_BANK_URL)')
    .option('--port <port>', 'TCP port', (value) => {
      if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('a port number');
      return Number(value);
    }, 8090)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--public-url <url>', 'the address clients reach it at (default http://localhost:<port>)')
    .action(async (options: { port: number; host: string; publicUrl?: string }) => {
      const [{ loadCatalogue }, { startSandboxBank }, { listenOrExplain }] = await Promise.all([
        import('../providers/catalogue.js'),
        import('../sandbox-bank/index.js'),
        import('../http/listen.js'),
      ]);
      const config = loadConfig();
      const publicUrl = (options.publicUrl ?? `http://localhost:${options.port}`).replace(/\/+$/, '');
      const catalogue = loadCatalogue(config.providerCatalogueFile, publicUrl);
      const bank = await listenOrExplain(() => startSandboxBank({
        port: options.port,
        host: options.host,
        publicUrl,
        catalogue,
        logLevel: config.logLevel,
        operatorToken: config.sandboxOperatorToken,
      }), { what: 'the sandbox bank', host: options.host, port: options.port, fix: 'Pass a free port with --port.' });
      process.stdout.write(`Sandbox bank listening on ${publicUrl} (set SANDBOX_BANK_URL=${publicUrl} for the service); UK Open Banking banks under ${publicUrl}/uk\n`);
      // Output must never hold the process (see src/server.ts), and stopping is bounded like the service's.
      process.stdout.on('error', () => undefined);
      process.stderr.on('error', () => undefined);
      const stop = (): void => {
        setTimeout(() => process.exit(1), config.shutdownTimeoutMs);
        bank.close().then(() => process.exit(0), () => process.exit(1));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });

  const clients = program.command('clients').description('manage API clients');
  clients
    .command('create')
    .description('create a client; prints its id, secret and webhook secret once')
    .requiredOption('--name <name>', "the client's name")
    .addOption(new Option('--environment <environment>', 'sandbox or production').choices(['sandbox', 'production']).default('sandbox'))
    .option('--scopes <scopes>', 'space-separated scopes', scopesOption)
    .option('--json', 'print JSON')
    .action(async (options: { name: string; environment: 'sandbox' | 'production'; scopes?: Scope[]; json?: boolean }) => {
      if (options.environment === 'production') {
        // The service would refuse to start with it (src/server.ts): say so now, not at the next restart.
        const problem = httpsRequiredProblem(loadConfig().baseUrl);
        if (problem !== undefined) throw new ConfigError([problem]);
      }
      const issued = await withStore(async (store) => {
        const { database } = store;
        const created = await (await clientService(store)).create({
          name: options.name,
          environment: options.environment,
          ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
        });
        await recordCliAction(database.db, { action: 'client.created', clientId: created.clientId, target: created.clientId, details: { name: options.name, environment: created.environment, scopes: created.scopes } });
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
    });

  clients
    .command('list')
    .description('list clients (never their secrets)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withStore(async (store) => {
        const brandings = new Map((await new ClientBrandingStore(store.database.db).list()).map((branding) => [branding.clientId, branding]));
        return (await (await clientService(store)).list()).map((client) => ({ ...client, branding: brandingView(brandings.get(client.clientId)) }));
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
    });

  clients
    .command('show')
    .description('one client with its branding (never its secrets)')
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--json', 'print JSON')
    .action(async (clientId: string, options: { json?: boolean }) => {
      const shown = await withStore(async (store) => {
        const client = (await (await clientService(store)).list()).find((candidate) => candidate.clientId === clientId);
        if (client === undefined) throw new (await import('../auth/clients.js')).ClientNotFoundError(clientId);
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
    });

  clients
    .command('branding')
    .description("set how the client's payers see it on the payment pages: display name, logo, brand colour, support link")
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--display-name <name>', `the name payers see (default: the payment's recipient name)`)
    .option('--logo <file>', `a PNG, JPEG or WebP file (at most ${MAX_LOGO_FILE_BYTES / 1024 / 1024} MiB); re-encoded to a PNG of at most 480×160`)
    .option('--logo-url <url>', 'fetch the logo once, now, from this https address (checked like --logo)')
    .option('--brand-colour <hex>', 'colour of the main buttons, e.g. #0a5; the text colour is chosen for contrast')
    .option('--support-url <url>', 'a help page for payers (https)')
    .addOption(
      new Option('--clear <part...>', 'remove parts of the branding').choices(['display-name', 'logo', 'brand-colour', 'support-url']),
    )
    .option('--json', 'print JSON')
    .action(
      async (
        clientId: string,
        options: { displayName?: string; logo?: string; logoUrl?: string; brandColour?: string; supportUrl?: string; clear?: string[]; json?: boolean },
      ) => {
        const cleared = new Set(options.clear ?? []);
        const conflicting = (['display-name', 'logo', 'brand-colour', 'support-url'] as const).filter(
          (part) => cleared.has(part) && options[camelCase(part)] !== undefined,
        );
        if (options.logo !== undefined && options.logoUrl !== undefined) throw new BrandingError(['give --logo or --logo-url, not both']);
        if (cleared.has('logo') && options.logoUrl !== undefined) conflicting.push('logo');
        if (conflicting.length > 0) throw new BrandingError(conflicting.map((part) => `--${part} and --clear ${part} contradict each other`));
        const logoBytes = options.logo !== undefined ? await readLogoFile(options.logo) : options.logoUrl !== undefined ? await fetchLogo(options.logoUrl) : undefined;
        const changes: BrandingChanges = {
          ...(options.displayName !== undefined ? { displayName: options.displayName } : cleared.has('display-name') ? { displayName: null } : {}),
          ...(options.brandColour !== undefined ? { brandColour: options.brandColour } : cleared.has('brand-colour') ? { brandColour: null } : {}),
          ...(options.supportUrl !== undefined ? { supportUrl: options.supportUrl } : cleared.has('support-url') ? { supportUrl: null } : {}),
          ...(logoBytes !== undefined ? { logo: await processLogo(logoBytes) } : cleared.has('logo') ? { logo: null } : {}),
        };
        if (Object.keys(changes).length === 0) throw new BrandingError(['nothing to change: give --display-name, --logo, --logo-url, --brand-colour, --support-url or --clear']);
        const stored = await withStore(async ({ database }) => {
          const updated = await new ClientBrandingStore(database.db).update(clientId, changes);
          await recordCliAction(database.db, { action: 'client.branding-changed', clientId, target: clientId, details: { changed: Object.keys(changes) } });
          return updated;
        });
        const view = brandingView(stored);
        print(view, options.json === true, () => [`Branding of ${clientId}:`, ...brandingLines(view)].join('\n'));
      },
    );

  clients
    .command('rotate-secret')
    .description("issue a new client secret; the old one and the client's tokens stop working at once")
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--json', 'print JSON')
    .action(async (clientId: string, options: { json?: boolean }) => {
      const rotated = await withStore(async (store) => {
        const { database } = store;
        const result = await (await clientService(store)).rotateSecret(clientId);
        await recordCliAction(database.db, { action: 'client.secret-rotated', clientId, target: clientId });
        return result;
      });
      print(rotated, options.json === true, () => `New secret for ${rotated.clientId} (shown only now):\n  clientSecret:  ${rotated.clientSecret}`);
    });

  clients
    .command('disable')
    .description('disable a client: its tokens stop working and it gets no new ones')
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .action(async (clientId: string) => {
      await withStore(async (store) => {
        const { database } = store;
        await (await clientService(store)).disable(clientId);
        await recordCliAction(database.db, { action: 'client.disabled', clientId, target: clientId });
      });
      process.stdout.write(`Client ${clientId} disabled.\n`);
    });

  clients
    .command('rotate-webhook-secret')
    .description('issue a new webhook signing secret; the old one keeps signing beside it for the grace period')
    .argument('<clientId>', 'the client', uuidArgument('clientId'))
    .option('--grace-seconds <seconds>', 'how long the old secret keeps signing (default: WEBHOOK_SECRET_GRACE_SECONDS)', (value) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a whole number of seconds');
      return Number(value);
    })
    .option('--json', 'print JSON')
    .action(async (clientId: string, options: { graceSeconds?: number; json?: boolean }) => {
      const rotated = await withStore(async (store) => {
        const { config, database } = store;
        const result = await (await clientService(store)).rotateWebhookSecret(clientId, options.graceSeconds ?? config.webhooks.secretGraceSeconds);
        await recordCliAction(database.db, { action: 'client.webhook-secret-rotated', clientId, target: clientId, details: { previousSecretExpiresAt: result.previousSecretExpiresAt } });
        return result;
      });
      print(rotated, options.json === true, () =>
        `New webhook secret for ${rotated.clientId} (shown only now):\n  webhookSecret: ${rotated.webhookSecret}\nThe previous secret also signs until ${rotated.previousSecretExpiresAt}.`,
      );
    });

  program.addCommand(usersCommand());

  const secretsCommand = program.command('secrets').description('the operator key ring that seals secrets at rest (SECRET_KEYS)');
  secretsCommand
    .command('reencrypt')
    .description('re-seal every stored secret under the active (first) key of SECRET_KEYS, so older keys can be removed')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const result = await withStore(async ({ database, secrets }) => ({
        activeKeyId: secrets.activeKeyId,
        ...(await (await import('../storage/reseal-secrets.js')).resealStoredSecrets(database.db, secrets)),
      }));
      print(result, options.json === true, () =>
        `Re-sealed under key ${result.activeKeyId}: ${result.webhookSecrets} webhook secret(s), ${result.flowTokens} flow token(s), ${result.totpSecrets} console second-factor secret(s). Keys other than ${result.activeKeyId} may now be removed from SECRET_KEYS.`,
      );
    });
  secretsCommand
    .command('generate-key')
    .description('print a new key ring entry (<id>:<base64 32 bytes>) to put first in SECRET_KEYS')
    .option('--id <id>', 'the key id (letters, digits, - or _)')
    .action((options: { id?: string }) => {
      process.stdout.write(`${options.id === undefined ? generateSecretKeysSetting() : generateSecretKeysSetting(options.id)}\n`);
    });

  const webhooks = program.command('webhooks').description('inspect and redeliver webhook events');
  webhooks
    .command('list')
    .description("a payment's webhook events with every delivery attempt")
    .requiredOption('--payment <paymentId>', 'the payment', uuidArgument('--payment'))
    .option('--json', 'print JSON')
    .action(async (options: { payment: string; json?: boolean }) => {
      const { WebhookOutbox } = await import('../webhooks/outbox.js');
      const events = await withStore(({ database, secrets }) => new WebhookOutbox(database.db, database.kind, secrets).listForPayment(options.payment));
      // The body is the JSON a webhook sends: shown as JSON, not as a string holding it.
      const asJson = events.map((event) => ({ ...event, body: JSON.parse(event.body) as unknown }));
      print(asJson, options.json === true, () =>
        events.length === 0
          ? 'No webhook events for this payment.'
          : events
              .map((event) =>
                [
                  `${event.eventId}  #${event.sequence}  ${event.state}  attempts ${event.attempts}${event.nextAttemptAt === null ? '' : `  next ${event.nextAttemptAt}`}`,
                  ...event.attemptLog.map(
                    (attempt) =>
                      `    ${attempt.attempt}. ${attempt.attemptedAt}  ${attempt.outcome}${attempt.statusCode === null ? '' : ` HTTP ${attempt.statusCode}`}  ${attempt.latencyMs} ms${attempt.error === null ? '' : `  ${attempt.error}`}`,
                  ),
                ].join('\n'),
              )
              .join('\n'),
      );
    });
  webhooks
    .command('redeliver')
    .description('send an event again now (same webhook-id: receivers deduplicate on it)')
    .argument('<eventId>', 'the event (webhook-id)', uuidArgument('eventId'))
    .action(async (eventId: string) => {
      const { WebhookOutbox } = await import('../webhooks/outbox.js');
      const queued = await withStore(async ({ database, secrets }) => {
        const done = await new WebhookOutbox(database.db, database.kind, secrets).redeliver(eventId);
        if (done) {
          const event = await database.db.selectFrom('webhook_events').select(['payment_id', 'client_id']).where('id', '=', eventId).executeTakeFirst();
          await recordCliAction(database.db, { action: 'webhook.redelivered', clientId: event?.client_id ?? null, target: event?.payment_id ?? null, details: { eventId } });
        }
        return done;
      });
      if (!queued) {
        process.stderr.write(`No webhook event with id ${eventId}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`Event ${eventId} queued for delivery.\n`);
    });

  program
    .command('listen')
    .description("forward a client's events to a local URL, signed exactly as its webhooks (reads the event feed in the database)")
    .requiredOption('--client <clientId>', 'the client whose events to forward', uuidArgument('--client'))
    .requiredOption('--forward-to <url>', 'the receiver, e.g. http://localhost:3000/webhooks (loopback and private addresses allowed here)')
    .option('--position-file <path>', 'where the last forwarded position is kept (default .openpis/listen-<clientId>.json)')
    .addOption(new Option('--from <where>', 'without a position file: only new events (now) or every retained event (start)').choices(['now', 'start']).default('now'))
    .option('--poll-interval-ms <ms>', 'how often to look for new events', wholeNumber('--poll-interval-ms', 50, 60_000), 500)
    .option('--json', 'print one JSON object per line')
    .action(async (options: { client: string; forwardTo: string; positionFile?: string; from: 'now' | 'start'; pollIntervalMs: number; json?: boolean }) => {
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        const { listen } = await import('./listen.js');
        await withStore((store) =>
          listen(store, {
            clientId: options.client,
            forwardTo: options.forwardTo,
            positionFile: options.positionFile ?? join('.openpis', `listen-${options.client}.json`),
            from: options.from,
            pollIntervalMs: options.pollIntervalMs,
            json: options.json === true,
            signal: stop.signal,
          }),
        );
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });

  program
    .command('trigger')
    .description('make a sandbox payment reach an outcome with no browser, through the running service (BASE_URL), and print it with its history')
    .addArgument(new Argument('<scenario>', 'the outcome').choices(SCENARIOS))
    .option('--client <clientId>', 'the sandbox client (default: the only active sandbox client)', uuidArgument('--client'))
    .option('--url <url>', 'the service (default: BASE_URL)')
    .option('--deadline-seconds <seconds>', 'expired: the flow deadline given to the payment', wholeNumber('--deadline-seconds', 1, 3600), 5)
    .option('--timeout-seconds <seconds>', 'how long to wait for the final status', wholeNumber('--timeout-seconds', 1, 3600), 60)
    .option('--json', 'print JSON')
    .action(async (scenario: Scenario, options: { client?: string; url?: string; deadlineSeconds: number; timeoutSeconds: number; json?: boolean }) => {
      const { trigger } = await import('../sandbox-scenarios/scenarios.js');
      const result = await withRuntime((runtime) =>
        trigger(
          { db: runtime.database.db, catalogue: runtime.catalogue, baseUrl: options.url ?? runtime.config.baseUrl, sandboxBankUrl: runtime.config.sandboxBank.url },
          { scenario, clientId: options.client, deadlineSeconds: options.deadlineSeconds, timeoutSeconds: options.timeoutSeconds },
        ),
      );
      print(result, options.json === true, () =>
        [
          `Payment ${result.paymentId} (${result.endToEndId}) at ${result.provider.name}, test payer ${result.payer}: ${result.status} ${result.detailedStatus}` +
            (result.failureReasons === null ? '' : ` [${result.failureReasons.map((reason) => reason.code).join(', ')}]`),
          '',
          table(
            ['CREATED', 'STATUS', 'DETAILED STATUS', 'FAILURE'],
            result.history.map((record) => [record.createdAt, record.status, record.detailedStatus, (record.failureReasons ?? []).map((reason) => reason.code).join(', ')]),
          ),
        ].join('\n'),
      );
      if (!result.reachedExpectedOutcome) {
        process.stderr.write(`The payment did not end as "${scenario}" promises.\n`);
        process.exitCode = 1;
      }
    });

  const faults = program
    .command('sandbox')
    .description('operate the sandbox bank (embedded, or the one at SANDBOX_BANK_URL)')
    .command('faults')
    .description('fault injection: make calls to a sandbox bank slow, fail or hang (needs SANDBOX_OPERATOR_TOKEN)');
  const bankOption = (): Option => new Option('--bank <slug>', 'the sandbox bank, by its path (e.g. hansa, or uk/albion for a UK Open Banking bank)').makeOptionMandatory();
  const urlOption = (): Option => new Option('--url <url>', 'the sandbox bank (default: SANDBOX_BANK_URL, or the embedded one under BASE_URL)');
  faults
    .command('add')
    .description('add a fault rule, e.g. --rule \'{"operations":["initiatePayment"],"fault":{"kind":"error","status":503},"times":2}\'')
    .addOption(bankOption())
    .requiredOption('--rule <json>', 'the fault rule (see docs/sandbox-bank.md)')
    .addOption(urlOption())
    .option('--json', 'print JSON')
    .action(async (options: { bank: string; rule: string; url?: string; json?: boolean }) => {
      let rule: unknown;
      try {
        rule = JSON.parse(options.rule);
      } catch {
        throw new SandboxFaultError('--rule must be JSON');
      }
      const added = (await sandboxFaultRequest(options, 'POST', '', rule)) as ListedFaultRule;
      print(added, options.json === true, () => `Fault rule ${added.id} added at ${options.bank}: ${describeFault(added.fault)}, ${describeFaultScope(added)}`);
    });
  faults
    .command('list')
    .description('list the fault rules of a sandbox bank')
    .addOption(bankOption())
    .addOption(urlOption())
    .option('--json', 'print JSON')
    .action(async (options: { bank: string; url?: string; json?: boolean }) => {
      const listed = (await sandboxFaultRequest(options, 'GET', '')) as { faults: ListedFaultRule[] };
      print(listed, options.json === true, () =>
        listed.faults.length === 0
          ? `No fault rules at ${options.bank}.`
          : table(
              ['ID', 'OPERATIONS', 'PAYER', 'FAULT', 'LEFT'],
              listed.faults.map((rule) => [rule.id, rule.operations?.join(' ') ?? '(every)', rule.psuId ?? '(any)', describeFault(rule.fault), rule.remaining === undefined || rule.remaining === null ? '(always)' : String(rule.remaining)]),
            ),
      );
    });
  faults
    .command('clear')
    .description('remove every fault rule of a sandbox bank, or one with --id')
    .addOption(bankOption())
    .option('--id <ruleId>', 'only this rule')
    .addOption(urlOption())
    .action(async (options: { bank: string; id?: string; url?: string }) => {
      await sandboxFaultRequest(options, 'DELETE', options.id === undefined ? '' : `/${encodeURIComponent(options.id)}`);
      process.stdout.write(options.id === undefined ? `Fault rules of ${options.bank} cleared.\n` : `Fault rule ${options.id} removed.\n`);
    });

  return program;
}

type BrandingPart = 'displayName' | 'logo' | 'brandColour' | 'supportUrl';

function camelCase(part: 'display-name' | 'logo' | 'brand-colour' | 'support-url'): BrandingPart {
  return part.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase()) as BrandingPart;
}

/** Branding as the CLI shows it: every part present (null when unset), the logo's URL path and the button colours. */
function brandingView(branding: ClientBranding | undefined) {
  const colours = branding?.brandColour === undefined ? undefined : buttonColours(branding.brandColour);
  return {
    displayName: branding?.displayName ?? null,
    brandColour: branding?.brandColour ?? null,
    buttonText: colours?.text ?? null,
    supportUrl: branding?.supportUrl ?? null,
    logo: branding?.logo === undefined ? null : { path: clientLogoPath(branding.logo.sha256), width: branding.logo.width, height: branding.logo.height },
    colourNote: colours === undefined ? null : describeButtonColours(colours),
  };
}

function brandingLines(view: ReturnType<typeof brandingView>): string[] {
  return [
    `  display name:  ${view.displayName ?? "(not set: payers see the payment's recipient name)"}`,
    `  logo:          ${view.logo === null ? '(not set)' : `${view.logo.width}×${view.logo.height} at ${view.logo.path}`}`,
    `  brand colour:  ${view.colourNote ?? '(not set: the standard colours)'}`,
    `  support URL:   ${view.supportUrl ?? '(not set)'}`,
  ];
}

async function readLogoFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new LogoError(`the logo file ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Fetches a referenced logo once, at configuration time (payer pages never reach out): bounded in time and size. */
async function fetchLogo(url: string): Promise<Buffer> {
  const problem = payerLinkProblem(url);
  if (problem !== undefined) throw new LogoError(`--logo-url ${problem}`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(15_000), redirect: 'follow' });
  } catch (error) {
    throw new LogoError(`the logo could not be fetched from ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new LogoError(`the logo could not be fetched from ${url}: HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > MAX_LOGO_FILE_BYTES) {
      await response.body?.cancel();
      throw new LogoError(`the logo at ${url} is larger than ${MAX_LOGO_FILE_BYTES} bytes`);
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** A refusal of the sandbox bank's fault control, shown to the operator as it came. */
class SandboxFaultError extends Error {}

/** A fault rule as the sandbox bank lists it (src/sandbox-bank/shared/faults.ts). */
interface ListedFaultRule {
  readonly id: string;
  readonly psuId?: string;
  readonly operations?: readonly string[];
  readonly fault: { readonly kind: string; readonly status?: number; readonly delayMs?: number; readonly holdMs?: number };
  readonly times?: number;
  readonly remaining?: number | null;
}

function describeFault(fault: ListedFaultRule['fault']): string {
  if (fault.kind === 'error') return `error ${fault.status ?? ''}`.trim();
  if (fault.kind === 'delay') return `delay ${fault.delayMs ?? '?'} ms`;
  if (fault.kind === 'timeout') return fault.holdMs === undefined ? 'timeout' : `timeout after ${fault.holdMs} ms`;
  return fault.kind;
}

function describeFaultScope(rule: ListedFaultRule): string {
  return [
    rule.operations === undefined ? 'every operation' : rule.operations.join(', '),
    rule.psuId === undefined ? 'every payer' : `payer ${rule.psuId}`,
    rule.times === undefined ? 'every call' : `the next ${rule.times} call(s)`,
  ].join(', ');
}

/** How long the operator waits for the sandbox bank's answer before being told it does not come. */
const SANDBOX_FAULT_TIMEOUT_MS = 15_000;

/**
 * One call of the sandbox bank's fault control, as the operator (bearer SANDBOX_OPERATOR_TOKEN). The bank is --url,
 * or the service's configured one: SANDBOX_BANK_URL, else the embedded bank under BASE_URL (itself from PORT).
 */
async function sandboxFaultRequest(options: { bank: string; url?: string }, method: 'GET' | 'POST' | 'DELETE', suffix: string, body?: unknown): Promise<unknown> {
  const config = loadConfig();
  if (config.sandboxOperatorToken === undefined) throw new SandboxFaultError('Set SANDBOX_OPERATOR_TOKEN (the same value the sandbox bank runs with).');
  const base = (options.url ?? config.sandboxBank.url).replace(/\/+$/, '');
  // A Berlin Group bank by its slug (`hansa`), a UK Open Banking bank by its path (`uk/albion`): each segment encoded.
  const bankPath = options.bank.split('/').map(encodeURIComponent).join('/');
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${base}/${bankPath}/sandbox/faults${suffix}`, {
      method,
      headers: { authorization: `Bearer ${config.sandboxOperatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(SANDBOX_FAULT_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    throw new SandboxFaultError(
      `The sandbox bank at ${base} does not answer (${networkFailure(error)}): is the service running? Give --url, or set SANDBOX_BANK_URL, BASE_URL or PORT as the service has them.`,
    );
  }
  if (!response.ok) throw new SandboxFaultError(`The sandbox bank answered ${response.status}: ${text}`);
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SandboxFaultError(`${base} answered with something other than JSON: is it a sandbox bank?`);
  }
}

/** The reason a request failed, as short as it can be said: fetch's own "fetch failed" hides it in `cause`. */
function networkFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer in ${SANDBOX_FAULT_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export async function main(argv: readonly string[]): Promise<void> {
  try {
    await buildCli().parseAsync([...argv]);
  } catch (error) {
    if (await isOperatorError(error)) {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
}

/** An error that is the operator's to act on: printed as its message, exit status 1 (anything else is a defect and shows its stack). */
async function isOperatorError(error: unknown): Promise<boolean> {
  if (error instanceof ConfigError || error instanceof SandboxFaultError || error instanceof SecretBoxError || error instanceof BrandingError ||
    error instanceof BrandingClientNotFoundError || error instanceof LogoError || error instanceof InvalidArgumentError) {
    return true;
  }
  // The classes of modules the commands import on demand, imported now (only on a failure, never at start-up).
  const [clients, accounts, listening, scenarios, listeners] = await Promise.all([
    import('../auth/clients.js'),
    import('../people/accounts.js'),
    import('./listen.js'),
    import('../sandbox-scenarios/scenarios.js'),
    import('../http/listen.js'),
  ]);
  return error instanceof clients.ClientNotFoundError || error instanceof accounts.ConsoleUserError || error instanceof accounts.ConsoleUserNotFoundError ||
    error instanceof listening.ListenError || error instanceof scenarios.TriggerError || error instanceof listeners.ListenerUnavailableError;
}
