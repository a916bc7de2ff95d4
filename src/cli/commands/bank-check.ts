/**
 * `openpis banks check <bank> [--json]`: the go-live self-test (docs/going-live.md, "Check a bank"): one line per
 * check, pass, warn or fail with the reason; exit status 1 when any check fails.
 */
import type { Command } from 'commander';
import { print, table } from '../output.js';
import { withRuntime } from '../store.js';

export function bankCheckCommand(banks: Command): Command {
  return banks
    .command('check')
    .description(
      'reach a bank with our certificate, get a token, and at a sandbox bank create, read and cancel a payment (at a live bank: read one that cannot exist); every answer checked against the standard',
    )
    .argument('<bank>', 'the bank, by provider id')
    .option('--json', 'print JSON')
    .action(checkBankCommand);
}

export async function checkBankCommand(bankId: string, options: { json?: boolean }): Promise<void> {
  const [{ onboardingSetup }, { checkBank }, { BankRegistrationSecrets }] = await Promise.all([
    import('../../bank-onboarding/setup.js'),
    import('../../bank-onboarding/check.js'),
    import('../../providers/bank-registrations.js'),
  ]);
  // The bank and its registration as the service sees them: from the database.
  const report = await withRuntime(async (runtime) =>
    checkBank(onboardingSetup(runtime.config, runtime.catalogue), bankId, new BankRegistrationSecrets(runtime.catalogue.store)),
  );
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
