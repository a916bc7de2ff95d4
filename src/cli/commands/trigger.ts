/** `openpis trigger <scenario>`: a sandbox payment taken to an outcome through the running service, with no browser. */
import { Argument, type Command } from 'commander';
import { SCENARIOS, type Scenario } from '../../sandbox-scenarios/scenarios.js';
import { print, table, uuidArgument, wholeNumber } from '../output.js';
import { withRuntime } from '../store.js';

export function triggerCommand(program: Command): Command {
  return program
    .command('trigger')
    .description(
      'make a sandbox payment reach an outcome with no browser, through the running service (BASE_URL), and print it with its history',
    )
    .addArgument(new Argument('<scenario>', 'the outcome').choices(SCENARIOS))
    .option('--client <clientId>', 'the sandbox client (default: the only active sandbox client)', uuidArgument('--client'))
    .option('--url <url>', 'the service (default: BASE_URL)')
    .option(
      '--deadline-seconds <seconds>',
      'expired: the flow deadline given to the payment',
      wholeNumber('--deadline-seconds', 1, 3600),
      5,
    )
    .option('--timeout-seconds <seconds>', 'how long to wait for the final status', wholeNumber('--timeout-seconds', 1, 3600), 60)
    .option('--json', 'print JSON')
    .action(triggerScenario);
}

export interface TriggerOptions {
  readonly client?: string;
  readonly url?: string;
  readonly deadlineSeconds: number;
  readonly timeoutSeconds: number;
  readonly json?: boolean;
}

/** Runs the scenario and prints the payment with its history; exit status 1 when it did not end as promised. */
export async function triggerScenario(scenario: Scenario, options: TriggerOptions): Promise<void> {
  const { trigger } = await import('../../sandbox-scenarios/scenarios.js');
  const result = await withRuntime((runtime) =>
    trigger(
      {
        db: runtime.database.db,
        catalogue: runtime.catalogue,
        baseUrl: options.url ?? runtime.config.baseUrl,
        sandboxBankUrl: runtime.config.sandboxBank.url,
      },
      { scenario, clientId: options.client, deadlineSeconds: options.deadlineSeconds, timeoutSeconds: options.timeoutSeconds },
    ),
  );
  print(result, options.json === true, () =>
    [
      (result.refundOf === undefined ? '' : `Refund of payment ${result.refundOf}, approved by the merchant: `) +
        `Payment ${result.paymentId} (${result.endToEndId}) at ${result.provider.name}, test payer ${result.payer}: ${result.status} ${result.detailedStatus}` +
        (result.failureReasons === null ? '' : ` [${result.failureReasons.map((reason) => reason.code).join(', ')}]`),
      '',
      table(
        ['CREATED', 'STATUS', 'DETAILED STATUS', 'FAILURE'],
        result.history.map((record) => [
          record.createdAt,
          record.status,
          record.detailedStatus,
          (record.failureReasons ?? []).map((reason) => reason.code).join(', '),
        ]),
      ),
    ].join('\n'),
  );
  if (!result.reachedExpectedOutcome) {
    process.stderr.write(`The payment did not end as "${scenario}" promises.\n`);
    process.exitCode = 1;
  }
}
