/**
 * The sandbox bank from the command line: `openpis sandbox-bank` runs it on its own, `openpis sandbox faults …`
 * drives its fault injection over HTTP. Every import of the sandbox bank's code by the CLI is in this file.
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { JSONWebKeySet } from 'jose';
import { loadConfig } from '../../config/config.js';
import { print, table } from '../output.js';

export function sandboxBankCommand(program: Command): Command {
  return program
    .command('sandbox-bank')
    .description('run the sandbox bank on its own (point the service at it with SANDBOX_BANK_URL)')
    .option(
      '--port <port>',
      'TCP port',
      (value) => {
        if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('a port number');
        return Number(value);
      },
      8090,
    )
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--public-url <url>', 'the address clients reach it at (default http://localhost:<port>, https with --tls-cert)')
    .option('--tls-cert <file>', 'serve HTTPS with this server certificate (PEM; with --tls-key)')
    .option('--tls-key <file>', "the server certificate's private key (PEM)")
    .option(
      '--strict',
      'behave like a live bank: HTTPS only, client certificates from --client-ca, signatures checked, UK clients only through DCR',
    )
    .option('--client-ca <file>', 'strict: the CA certificate(s) (PEM) client and signature certificates must be issued by')
    .option(
      '--catalogue <file>',
      'the bank catalogue (JSON) whose sandbox banks it serves (default PROVIDER_CATALOGUE_FILE, else the built-in one)',
    )
    .option(
      '--directory-jwks <file>',
      "UK dynamic client registration: the directory's public keys (JWKS JSON) software statements must verify against",
    )
    .action(runSandboxBank);
}

export interface RunSandboxBankOptions {
  readonly port: number;
  readonly host: string;
  readonly publicUrl?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  readonly strict?: boolean;
  readonly clientCa?: string;
  readonly directoryJwks?: string;
  readonly catalogue?: string;
}

/** The stand-alone bank's TLS, strict mode and directory keys from the command's files; an operator's error otherwise. */
function sandboxBankSecurity(options: RunSandboxBankOptions): {
  https: { certificatePem: string; privateKeyPem: string } | undefined;
  strict: { clientCaPems: string[] } | undefined;
  ukDirectoryJwks: JSONWebKeySet | undefined;
} {
  const read = (file: string, option: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      throw new InvalidArgumentError(`${option} ${file} cannot be read`);
    }
  };
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined))
    throw new InvalidArgumentError('--tls-cert and --tls-key go together');
  if (options.strict === true && (options.tlsCert === undefined || options.clientCa === undefined))
    throw new InvalidArgumentError(
      '--strict needs --tls-cert, --tls-key and --client-ca (a live bank serves HTTPS and checks client certificates)',
    );
  let ukDirectoryJwks: JSONWebKeySet | undefined;
  if (options.directoryJwks !== undefined) {
    try {
      const parsed = JSON.parse(read(options.directoryJwks, '--directory-jwks')) as { keys?: unknown };
      if (!Array.isArray(parsed.keys)) throw new Error('no keys');
      ukDirectoryJwks = parsed as JSONWebKeySet;
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw error;
      throw new InvalidArgumentError(`--directory-jwks ${options.directoryJwks} is not a JWK set ({"keys":[…]})`);
    }
  }
  return {
    https:
      options.tlsCert === undefined || options.tlsKey === undefined
        ? undefined
        : { certificatePem: read(options.tlsCert, '--tls-cert'), privateKeyPem: read(options.tlsKey, '--tls-key') },
    strict:
      options.strict === true && options.clientCa !== undefined ? { clientCaPems: [read(options.clientCa, '--client-ca')] } : undefined,
    ukDirectoryJwks,
  };
}

/** Starts the sandbox bank and keeps it running until SIGINT or SIGTERM. */
export async function runSandboxBank(options: RunSandboxBankOptions): Promise<void> {
  const [{ loadCatalogue, DEFAULT_AUTHENTICATION_ATTEMPTS }, { startSandboxBank }, { listenOrExplain }] = await Promise.all([
    import('../../providers/catalogue.js'),
    import('@openpis/sandbox-bank'),
    import('../../http/listen.js'),
  ]);
  const config = loadConfig();
  const security = sandboxBankSecurity(options);
  const scheme = security.https === undefined ? 'http' : 'https';
  const publicUrl = (options.publicUrl ?? `${scheme}://localhost:${options.port}`).replace(/\/+$/, '');
  // A stand-alone bank, like a live one, can have its own list of banks, apart from the service's.
  const catalogue = loadCatalogue(options.catalogue ?? config.providerCatalogueFile, publicUrl);
  const bank = await listenOrExplain(
    () =>
      startSandboxBank({
        port: options.port,
        host: options.host,
        publicUrl,
        catalogue,
        authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
        logLevel: config.logLevel,
        operatorToken: config.sandboxOperatorToken,
        ...security,
      }),
    { what: 'the sandbox bank', host: options.host, port: options.port, fix: 'Pass a free port with --port.' },
  );
  process.stdout.write(
    `Sandbox bank listening on ${publicUrl}${security.strict === undefined ? '' : ' in strict mode'} (set SANDBOX_BANK_URL=${publicUrl} for the service); UK Open Banking banks under ${publicUrl}/uk\n`,
  );
  // Output must never hold the process (see src/server.ts), and stopping is bounded like the service's.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const stop = (): void => {
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs);
    bank.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export function sandboxCommand(program: Command): Command {
  const sandbox = program.command('sandbox').description('operate the sandbox bank (embedded, or the one at SANDBOX_BANK_URL)');
  const faults = sandbox
    .command('faults')
    .description('fault injection: make calls to a sandbox bank slow, fail or hang (needs SANDBOX_OPERATOR_TOKEN)');
  const bankOption = (): Option =>
    new Option(
      '--bank <slug>',
      'the sandbox bank, by its path (e.g. hansa, or uk/albion for a UK Open Banking bank)',
    ).makeOptionMandatory();
  const urlOption = (): Option =>
    new Option('--url <url>', 'the sandbox bank (default: SANDBOX_BANK_URL, or the embedded one under BASE_URL)');
  faults
    .command('add')
    .description('add a fault rule, e.g. --rule \'{"operations":["initiatePayment"],"fault":{"kind":"error","status":503},"times":2}\'')
    .addOption(bankOption())
    .requiredOption('--rule <json>', 'the fault rule (see docs/sandbox-bank.md)')
    .addOption(urlOption())
    .option('--json', 'print JSON')
    .action(addFaultRule);
  faults
    .command('list')
    .description('list the fault rules of a sandbox bank')
    .addOption(bankOption())
    .addOption(urlOption())
    .option('--json', 'print JSON')
    .action(listFaultRules);
  faults
    .command('clear')
    .description('remove every fault rule of a sandbox bank, or one with --id')
    .addOption(bankOption())
    .option('--id <ruleId>', 'only this rule')
    .addOption(urlOption())
    .action(clearFaultRules);
  return sandbox;
}

/** Which sandbox bank a fault command drives: its path, and where it runs (default: the service's configured one). */
export interface SandboxBankTarget {
  readonly bank: string;
  readonly url?: string;
}

export async function addFaultRule(options: SandboxBankTarget & { rule: string; json?: boolean }): Promise<void> {
  let rule: unknown;
  try {
    rule = JSON.parse(options.rule);
  } catch {
    throw new SandboxFaultError('--rule must be JSON');
  }
  const added = (await sandboxFaultRequest(options, 'POST', '', rule)) as ListedFaultRule;
  print(
    added,
    options.json === true,
    () => `Fault rule ${added.id} added at ${options.bank}: ${describeFault(added.fault)}, ${describeFaultScope(added)}`,
  );
}

export async function listFaultRules(options: SandboxBankTarget & { json?: boolean }): Promise<void> {
  const listed = (await sandboxFaultRequest(options, 'GET', '')) as { faults: ListedFaultRule[] };
  print(listed, options.json === true, () =>
    listed.faults.length === 0
      ? `No fault rules at ${options.bank}.`
      : table(
          ['ID', 'OPERATIONS', 'PAYER', 'FAULT', 'LEFT'],
          listed.faults.map((rule) => [
            rule.id,
            rule.operations?.join(' ') ?? '(every)',
            rule.psuId ?? '(any)',
            describeFault(rule.fault),
            rule.remaining === undefined || rule.remaining === null ? '(always)' : String(rule.remaining),
          ]),
        ),
  );
}

export async function clearFaultRules(options: SandboxBankTarget & { id?: string }): Promise<void> {
  await sandboxFaultRequest(options, 'DELETE', options.id === undefined ? '' : `/${encodeURIComponent(options.id)}`);
  process.stdout.write(options.id === undefined ? `Fault rules of ${options.bank} cleared.\n` : `Fault rule ${options.id} removed.\n`);
}

/** A refusal of the sandbox bank's fault control, shown to the operator as it came. */
export class SandboxFaultError extends Error {}

/** A fault rule as the sandbox bank lists it (@openpis/sandbox-bank: packages/sandbox-bank/src/shared/faults.ts). */
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
async function sandboxFaultRequest(
  options: SandboxBankTarget,
  method: 'GET' | 'POST' | 'DELETE',
  suffix: string,
  body?: unknown,
): Promise<unknown> {
  const config = loadConfig();
  if (config.sandboxOperatorToken === undefined)
    throw new SandboxFaultError('Set SANDBOX_OPERATOR_TOKEN (the same value the sandbox bank runs with).');
  const base = (options.url ?? config.sandboxBank.url).replace(/\/+$/, '');
  // A Berlin Group bank by its slug (`hansa`), a UK Open Banking bank by its path (`uk/albion`): each segment encoded.
  const bankPath = options.bank.split('/').map(encodeURIComponent).join('/');
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${base}/${bankPath}/sandbox/faults${suffix}`, {
      method,
      headers: {
        authorization: `Bearer ${config.sandboxOperatorToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
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
