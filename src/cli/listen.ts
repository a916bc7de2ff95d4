/**
 * `openpis listen`: a client's events delivered to a receiver on the developer's machine, exactly as webhooks
 * arrive (the same headers, the same body bytes, signed with the client's webhook secrets by the delivery code of
 * src/webhooks/).
 *
 * It reads the event feed from the database, like every operator command: the body bytes and the client's
 * signing secrets are there (the API hands out neither), and the service needs no setting changed. Private and
 * loopback targets are allowed for this process's own deliveries only; the service's webhooks keep the SSRF guard
 * (`WEBHOOK_ALLOW_PRIVATE_TARGETS` stays off). Cloud metadata addresses stay refused here too.
 *
 * The position (the last event forwarded) is kept in a small file, so a restart resumes where it stopped.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../runtime.js';
import { deliverWebhook, type DeliveryResult } from '../webhooks/deliver.js';
import { EventFeed, type FeedEvent } from '../webhooks/event-feed.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import { createWebhookDispatcher } from '../webhooks/ssrf-guard.js';

export interface ListenOptions {
  readonly clientId: string;
  readonly forwardTo: string;
  /** Where the position is kept. */
  readonly positionFile: string;
  /** Where to start when there is no position file: `now` (only new events) or `start` (every retained event). */
  readonly from: 'now' | 'start';
  readonly pollIntervalMs: number;
  readonly json: boolean;
  /** Ends the loop (SIGINT); the delivery under way finishes and its position is kept first. */
  readonly signal: AbortSignal;
}

/** Why `listen` stopped without forwarding (bad input or a refused target), shown to the operator as is. */
export class ListenError extends Error {}

const PAGE_SIZE = 100;
const RETRY_DELAY_MS = 2000;

export async function listen(runtime: Store, options: ListenOptions): Promise<void> {
  const target = checkedTarget(options.forwardTo);
  const { database, secrets } = runtime;
  const client = await database.db.selectFrom('clients').select(['id', 'name']).where('id', '=', options.clientId).executeTakeFirst();
  if (client === undefined) throw new ListenError(`No client with id ${options.clientId}`);

  const feed = new EventFeed(database.db);
  const outbox = new WebhookOutbox(database.db, database.kind, secrets);
  const dispatcher = createWebhookDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 5000 });
  let position = readPosition(options.positionFile) ?? (options.from === 'start' ? 0 : await feed.latestPosition(options.clientId));
  say(
    options,
    { listening: true, clientId: client.id, forwardTo: target, after: position },
    () => `Forwarding events of ${client.name} (${client.id}) to ${target}, after event #${position}. Ctrl-C to stop.`,
  );
  try {
    while (!options.signal.aborted) {
      const events = await feed.after(options.clientId, position, PAGE_SIZE);
      for (const event of events) {
        if (options.signal.aborted) break;
        const result = await forward(event, target, outbox, options, dispatcher);
        if (result === 'stopped') break;
        position = event.position;
        writePosition(options.positionFile, position);
      }
      if (events.length < PAGE_SIZE) await pause(options.pollIntervalMs, options.signal);
    }
  } finally {
    await dispatcher.close();
  }
  say(options, { stopped: true, after: position }, () => `Stopped after event #${position} (kept in ${options.positionFile}).`);
}

/** Delivers one event until the receiver takes it (a receiver being restarted is waited for), or gives it up. */
async function forward(
  event: FeedEvent,
  target: string,
  outbox: WebhookOutbox,
  options: ListenOptions,
  dispatcher: ReturnType<typeof createWebhookDispatcher>,
): Promise<'forwarded' | 'stopped'> {
  for (;;) {
    // Opened per attempt: a rotation while listening signs with both secrets, as the service would.
    const signingSecrets = await outbox.secretsFor(options.clientId);
    const result = await deliverWebhook({
      url: target,
      eventId: event.id,
      body: event.body,
      secrets: signingSecrets,
      now: new Date(),
      dispatcher,
    });
    report(event, result, options);
    if (result.outcome === 'refused') throw new ListenError(`${target} is refused: ${result.error ?? 'not allowed'}`);
    // 410 means "no more for this payment" to the service; here the event is simply passed, like a delivered one.
    if (result.outcome !== 'retry') return 'forwarded';
    await pause(RETRY_DELAY_MS, options.signal);
    if (options.signal.aborted) return 'stopped';
  }
}

function report(event: FeedEvent, result: DeliveryResult, options: ListenOptions): void {
  const data = summary(event.body);
  say(
    options,
    {
      eventId: event.id,
      position: event.position,
      type: event.type,
      ...data,
      outcome: result.outcome,
      statusCode: result.statusCode ?? null,
      latencyMs: result.latencyMs,
      error: result.error ?? null,
    },
    () =>
      `#${event.position} ${event.type} ${data.paymentId ?? '?'} ${data.detailedStatus ?? ''} → ${result.statusCode === undefined ? result.outcome : `HTTP ${result.statusCode}`}` +
      ` (${result.latencyMs} ms)${result.error === undefined || result.outcome === 'delivered' ? '' : `: ${result.error}${result.outcome === 'retry' ? ', trying again' : ''}`}`,
  );
}

function summary(body: string): { paymentId?: string; status?: string; detailedStatus?: string } {
  try {
    const parsed = JSON.parse(body) as { data?: { paymentId?: unknown; status?: unknown; detailedStatus?: unknown } };
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const paymentId = text(parsed.data?.paymentId);
    const status = text(parsed.data?.status);
    const detailedStatus = text(parsed.data?.detailedStatus);
    return {
      ...(paymentId === undefined ? {} : { paymentId }),
      ...(status === undefined ? {} : { status }),
      ...(detailedStatus === undefined ? {} : { detailedStatus }),
    };
  } catch {
    return {};
  }
}

/** One line per happening: JSON lines with `--json`, text otherwise. */
function say(options: ListenOptions, value: Record<string, unknown>, text: () => string): void {
  process.stdout.write(`${options.json ? JSON.stringify(value) : text()}\n`);
}

function checkedTarget(forwardTo: string): string {
  let url: URL;
  try {
    url = new URL(forwardTo);
  } catch {
    throw new ListenError('--forward-to must be an absolute URL, e.g. http://localhost:3000/webhooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ListenError('--forward-to must be an http or https URL');
  if (url.username !== '' || url.password !== '') throw new ListenError('--forward-to must not carry a user name or password');
  return url.toString();
}

function readPosition(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as { position?: unknown };
  if (typeof parsed.position !== 'number' || !Number.isSafeInteger(parsed.position) || parsed.position < 0) {
    throw new ListenError(`${file} does not hold a position; delete it to start afresh`);
  }
  return parsed.position;
}

/** Written aside and renamed into place, so an interrupted write never leaves half a file. */
function writePosition(file: string, position: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ position })}\n`);
  renameSync(temporary, file);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
