/** `openpis listen`: a client's events forwarded to a local receiver, signed as its webhooks (src/cli/listen.ts). */
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { uuidArgument, wholeNumber } from '../output.js';
import { withStore } from '../store.js';

export function listenCommand(program: Command): Command {
  return program
    .command('listen')
    .description("forward a client's events to a local URL, signed exactly as its webhooks (reads the event feed in the database)")
    .requiredOption('--client <clientId>', 'the client whose events to forward', uuidArgument('--client'))
    .requiredOption('--forward-to <url>', 'the receiver, e.g. http://localhost:3000/webhooks (loopback and private addresses allowed here)')
    .option('--position-file <path>', 'where the last forwarded position is kept (default .openpis/listen-<clientId>.json)')
    .addOption(
      new Option('--from <where>', 'without a position file: only new events (now) or every retained event (start)')
        .choices(['now', 'start'])
        .default('now'),
    )
    .option('--poll-interval-ms <ms>', 'how often to look for new events', wholeNumber('--poll-interval-ms', 50, 60_000), 500)
    .option('--json', 'print one JSON object per line')
    .action(forwardEvents);
}

export interface ForwardEventsOptions {
  readonly client: string;
  readonly forwardTo: string;
  readonly positionFile?: string;
  readonly from: 'now' | 'start';
  readonly pollIntervalMs: number;
  readonly json?: boolean;
}

/** Forwards events until SIGINT or SIGTERM; the delivery under way finishes and its position is kept first. */
export async function forwardEvents(options: ForwardEventsOptions): Promise<void> {
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const { listen } = await import('../listen.js');
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
}
