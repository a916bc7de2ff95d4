/**
 * `openpis banks register <bank> [--read|--update|--delete]`: UK dynamic client registration (docs/going-live.md,
 * "Register with a UK bank"). The registration is kept in the registrations file (`--registrations-file`), its
 * access token sealed under SECRET_KEYS, until banks live in the database.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { print } from '../output.js';

export const DEFAULT_REGISTRATIONS_FILE = 'bank-registrations.json';

export function bankRegistrationCommand(banks: Command): Command {
  return banks
    .command('register')
    .description('register with a UK Open Banking bank by dynamic client registration (our SSA, signing key and transport certificate)')
    .argument('<bank>', 'the bank, by provider id')
    .option('--read', 'show the registration as the bank has it')
    .option('--update', 'send the registration again (after a new key, certificate or software statement)')
    .option('--delete', 'delete the registration at the bank')
    .option('--registrations-file <file>', 'where registrations are kept', DEFAULT_REGISTRATIONS_FILE)
    .option('--json', 'print JSON')
    .action(registerBank);
}

export interface RegisterBankOptions {
  readonly read?: boolean;
  readonly update?: boolean;
  readonly delete?: boolean;
  readonly registrationsFile: string;
  readonly json?: boolean;
}

export async function registerBank(bankId: string, options: RegisterBankOptions): Promise<void> {
  const chosen = (['read', 'update', 'delete'] as const).filter((action) => options[action] === true);
  if (chosen.length > 1) throw new InvalidArgumentError('give at most one of --read, --update and --delete');
  const action = chosen[0] ?? 'register';
  const config = loadConfig();
  const [{ onboardingSetup }, { runRegistration }, { RegistrationFileStore }] = await Promise.all([
    import('../../bank-onboarding/setup.js'),
    import('../../bank-onboarding/uk-registration.js'),
    import('../../bank-onboarding/registration-file.js'),
  ]);
  const outcome = await runRegistration(
    onboardingSetup(config),
    bankId,
    action,
    new RegistrationFileStore(options.registrationsFile, config.secretKeys),
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
          `  kept in ${options.registrationsFile} (the registration access token sealed under SECRET_KEYS)`,
        ].join('\n');
    }
  });
}
