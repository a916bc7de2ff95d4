/** `openpis webhooks …`: a payment's webhook events with their delivery attempts, and sending one again. */
import type { Command } from 'commander';
import { recordCliAction } from '../audit.js';
import { print, uuidArgument } from '../output.js';
import { withStore } from '../store.js';

export function webhooksCommand(program: Command): Command {
  const webhooks = program.command('webhooks').description('inspect and redeliver webhook events');
  webhooks
    .command('list')
    .description("a payment's webhook events with every delivery attempt")
    .requiredOption('--payment <paymentId>', 'the payment', uuidArgument('--payment'))
    .option('--json', 'print JSON')
    .action(listWebhookEvents);
  webhooks
    .command('redeliver')
    .description('send an event again now (same webhook-id: receivers deduplicate on it)')
    .argument('<eventId>', 'the event (webhook-id)', uuidArgument('eventId'))
    .action(redeliverWebhookEvent);
  return webhooks;
}

export async function listWebhookEvents(options: { payment: string; json?: boolean }): Promise<void> {
  const { WebhookOutbox } = await import('../../webhooks/outbox.js');
  const events = await withStore(({ database, secrets }) =>
    new WebhookOutbox(database.db, database.kind, secrets).listForSubject(options.payment),
  );
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
}

export async function redeliverWebhookEvent(eventId: string): Promise<void> {
  const { WebhookOutbox } = await import('../../webhooks/outbox.js');
  const queued = await withStore(async ({ database, secrets }) => {
    const done = await new WebhookOutbox(database.db, database.kind, secrets).redeliver(eventId);
    if (done) {
      const event = await database.db
        .selectFrom('webhook_events')
        .select(['subject_id', 'client_id'])
        .where('id', '=', eventId)
        .executeTakeFirst();
      await recordCliAction(database.db, {
        action: 'webhook.redelivered',
        clientId: event?.client_id ?? null,
        target: event?.subject_id ?? null,
        details: { eventId },
      });
    }
    return done;
  });
  if (!queued) {
    process.stderr.write(`No webhook event with id ${eventId}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`Event ${eventId} queued for delivery.\n`);
}
