/**
 * `openpis banks check <bank> [--json]`: the go-live self-test (docs/going-live.md, "Check a bank"): one line per
 * check, pass, warn or fail with the reason; exit status 1 when any check fails.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { print, table } from '../output.js';
import { DEFAULT_REGISTRATIONS_FILE } from './bank-registration.js';

export function bankCheckCommand(banks: Command): Command {
  return banks
    .command('check')
    .description(
      'reach a bank with our certificate, get a token, and at a sandbox bank create, read and cancel a payment; every answer checked against the standard',
    )
    .argument('<bank>', 'the bank, by provider id')
    .option('--registrations-file <file>', 'where UK registrations are kept', DEFAULT_REGISTRATIONS_FILE)
    .option('--json', 'print JSON')
    .action(checkBankCommand);
}

export async function checkBankCommand(bankId: string, options: { registrationsFile: string; json?: boolean }): Promise<void> {
  const config = loadConfig();
  const [{ onboardingSetup }, { checkBank }, { RegistrationFileStore }] = await Promise.all([
    import('../../bank-onboarding/setup.js'),
    import('../../bank-onboarding/check.js'),
    import('../../bank-onboarding/registration-file.js'),
  ]);
  const store = config.secretKeys.length === 0 ? undefined : new RegistrationFileStore(options.registrationsFile, config.secretKeys);
  const report = await checkBank(onboardingSetup(config), bankId, store);
  print(report, options.json === true, () =>
    [
      `${report.bankId} (${report.standard}): ${report.failed ? 'FAILED' : 'passed'}`,
      table(
        ['RESULT', 'CHECK', 'REASON'],
        report.lines.map((line) => [line.outcome.toUpperCase(), line.check, line.reason]),
      ),
    ].join('\n'),
  );
  if (report.failed) process.exitCode = 1;
}
