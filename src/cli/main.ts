/**
 * The operator CLI (`npx openpis …`), using the same configuration as the service (environment variables,
 * DATABASE_URL above all). Secrets are printed once, when they are made; the database keeps only their hashes
 * (client secrets) or sealed copies (webhook secrets), and no command shows them again.
 *
 * Each group of commands is a file of src/cli/commands/, with each command's action a named function; this file
 * puts them together, in the order `openpis --help` lists them, and turns the operator's errors into messages.
 */
import { Command, InvalidArgumentError } from 'commander';
import { BrandingClientNotFoundError, BrandingError } from '../branding/client-branding.js';
import { LogoError } from '../branding/logo.js';
import { ConfigError } from '../config/config.js';
import { SecretBoxError } from '../crypto/secret-box.js';
import { banksCommand } from './commands/banks.js';
import { bankCheckCommand } from './commands/bank-check.js';
import { bankRegistrationCommand } from './commands/bank-registration.js';
import { clientsCommand } from './commands/clients.js';
import { identityCommand } from './commands/identity.js';
import { listenCommand } from './commands/listen.js';
import { migrateCommand } from './commands/migrate.js';
import { paymentLinksCommand } from './commands/payment-links.js';
import { sandboxBankCommand, sandboxCommand, SandboxFaultError } from './commands/sandbox.js';
import { secretsCommand } from './commands/secrets.js';
import { triggerCommand } from './commands/trigger.js';
import { refundsCommand } from './commands/refunds.js';
import { usersCommand } from './commands/users.js';
import { webhooksCommand } from './commands/webhooks.js';

export function buildCli(): Command {
  const program = new Command('openpis').description('openpis operator commands').showHelpAfterError();
  migrateCommand(program);
  sandboxBankCommand(program);
  clientsCommand(program);
  usersCommand(program);
  secretsCommand(program);
  identityCommand(program);
  const banks = banksCommand(program);
  bankRegistrationCommand(banks);
  bankCheckCommand(banks);
  webhooksCommand(program);
  paymentLinksCommand(program);
  listenCommand(program);
  triggerCommand(program);
  refundsCommand(program);
  sandboxCommand(program);
  return program;
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
  if (
    error instanceof ConfigError ||
    error instanceof SandboxFaultError ||
    error instanceof SecretBoxError ||
    error instanceof BrandingError ||
    error instanceof BrandingClientNotFoundError ||
    error instanceof LogoError ||
    error instanceof InvalidArgumentError
  ) {
    return true;
  }
  // The classes of modules the commands import on demand, imported now (only on a failure, never at start-up).
  const [clients, accounts, listening, scenarios, listeners, identity, onboarding, ukRegistration, banks, catalogue] = await Promise.all([
    import('../auth/clients.js'),
    import('../people/accounts.js'),
    import('./listen.js'),
    import('../sandbox-scenarios/scenarios.js'),
    import('../http/listen.js'),
    import('../identity/identity.js'),
    import('../bank-onboarding/setup.js'),
    import('../bank-onboarding/uk-registration.js'),
    import('../providers/bank-store.js'),
    import('../providers/catalogue.js'),
  ]);
  return (
    error instanceof clients.ClientNotFoundError ||
    error instanceof accounts.ConsoleUserError ||
    error instanceof accounts.ConsoleUserNotFoundError ||
    error instanceof listening.ListenError ||
    error instanceof scenarios.TriggerError ||
    error instanceof listeners.ListenerUnavailableError ||
    error instanceof identity.BankIdentityError ||
    error instanceof onboarding.OnboardingError ||
    error instanceof ukRegistration.RegistrationRefusedError ||
    error instanceof banks.BankValidationError ||
    error instanceof banks.BankChangeError ||
    error instanceof catalogue.CatalogueError
  );
}
