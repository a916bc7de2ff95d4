/**
 * `openpis banks register <bank> [--read|--update|--delete]`: UK dynamic client registration (docs/going-live.md,
 * "Register with a UK bank"). The bank is looked up in the database (`openpis banks add` adds one); the registration
 * is kept among its secrets (client id, registration access token …), sealed under SECRET_KEYS, and every process
 * uses the registered client id within seconds.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { print } from '../output.js';
import { withRuntime } from '../store.js';

export function bankRegistrationCommand(banks: Command): Command {
  return banks
    .command('register')
    .description('register with a UK Open Banking bank by dynamic client registration (our SSA, signing key and transport certificate)')
    .argument('<bank>', 'the bank, by provider id')
    .option('--read', 'show the registration as the bank has it')
    .option('--update', 'send the registration again (after a new key, certificate or software statement)')
    .option('--delete', 'delete the registration at the bank')
    .option('--json', 'print JSON')
    .action(registerBank);
}

export interface RegisterBankOptions {
  readonly read?: boolean;
  readonly update?: boolean;
  readonly delete?: boolean;
  readonly json?: boolean;
}

export async function registerBank(bankId: string, options: RegisterBankOptions): Promise<void> {
  const chosen = (['read', 'update', 'delete'] as const).filter((action) => options[action] === true);
  if (chosen.length > 1) throw new InvalidArgumentError('give at most one of --read, --update and --delete');
  const action = chosen[0] ?? 'register';
  const [{ onboardingSetup }, { runRegistration }, { BankRegistrationSecrets }] = await Promise.all([
    import('../../bank-onboarding/setup.js'),
    import('../../bank-onboarding/uk-registration.js'),
    import('../../providers/bank-registrations.js'),
  ]);
  const outcome = await withRuntime(async (runtime) =>
    runRegistration(
      onboardingSetup(runtime.config, runtime.catalogue),
      bankId,
      action,
      new BankRegistrationSecrets(runtime.catalogue.store),
    ),
  );
  print(outcome, options.json === true, () => {
    const registration = outcome.registration;
    switch (action) {
      case 'delete':
        return `Registration at ${bankId} deleted.`;
      case 'read':
        return `${bankId}: client ${registration?.clientId ?? '?'}; the bank has:\n${JSON.stringify(outcome.atTheBank, null, 2)}`;
      default:
        return [
          `${bankId}: ${action === 'update' ? 'registration updated' : 'registered'}, client id ${registration?.clientId ?? '?'}`,
          `  token endpoint authentication: ${registration?.tokenEndpointAuthMethod ?? '?'}; signature issuer: ${registration?.jwsIssuer ?? '?'}`,
          '  kept with the bank in the database (sealed under SECRET_KEYS); every process uses it within seconds',
        ].join('\n');
    }
  });
}
