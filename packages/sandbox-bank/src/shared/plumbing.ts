/**
 * The request plumbing every standard's sandbox plugin sets up the same way: its own form and JSON parsers (the JSON
 * one keeps the raw bytes, over which request signatures are computed), the release of requests a timeout fault
 * holds when the app closes, the public URL check, header reading, and the answer an injected fault gives.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_HOLD_MS, type Fault } from './faults.js';

/** Request bodies are limited to 1 MiB. */
export const BODY_LIMIT = 1024 * 1024;
/** Payer-page forms are small. */
const FORM_BODY_LIMIT = 64 * 1024;

/** What a plugin keeps about the requests it serves. */
export interface RequestKeeping {
  /** Raw request bodies, kept for signature checks. */
  readonly rawBodies: WeakMap<FastifyRequest, Buffer>;
  /** Requests held by a timeout fault, released when the app closes. */
  readonly held: Set<() => void>;
  /** Faults that take the answer of a call the bank has acted on (`afterActing`), played when the answer is sent. */
  readonly faultsAfterActing: WeakMap<FastifyRequest, Fault>;
}

/** The public URL without a trailing slash; `what` names the sandbox in the error of a relative one. */
export function normalisePublicUrl(publicUrl: string, what: string): string {
  try {
    return new URL(publicUrl).toString().replace(/\/+$/, '');
  } catch {
    throw new Error(`${what} publicUrl must be an absolute URL (got "${publicUrl}")`);
  }
}

/**
 * The plugin's own parsers: forms for the payer pages, and JSON that keeps the raw bytes and takes an empty body
 * (the Berlin Group standard uses one for "start authorisation"). `invalidJson` is the standard's error for a
 * body that is not JSON. The parsers stay inside the plugin's encapsulation, away from a host app.
 */
export async function registerBodyParsers(app: FastifyInstance, keeping: RequestKeeping, invalidJson: () => Error): Promise<void> {
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
    keeping.rawBodies.set(request, raw);
    if (raw.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(raw.toString('utf8')) as unknown);
    } catch {
      done(invalidJson(), undefined);
    }
  });
}

/** Held requests would keep the server from closing; they are dropped when it closes. */
export function releaseHeldRequestsOnClose(app: FastifyInstance, keeping: Pick<RequestKeeping, 'held'>): void {
  app.addHook('preClose', async () => {
    for (const release of [...keeping.held]) release();
  });
}

/**
 * Plays the faults that come after the bank acted (`afterActing`), as the answer leaves: the call's work is done
 * (and its state kept) whatever happens to the answer. A delay holds the answer back, an error replaces it with a
 * bodiless 5xx (`errorHeaders` adds the standard's own headers), a timeout never sends it and drops the connection.
 */
export function playFaultsAfterActing(app: FastifyInstance, keeping: Pick<RequestKeeping, 'held' | 'faultsAfterActing'>): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const fault = keeping.faultsAfterActing.get(request);
    if (fault === undefined) return payload;
    keeping.faultsAfterActing.delete(request);
    switch (fault.kind) {
      case 'delay':
        await sleep(fault.delayMs);
        return payload;
      case 'error':
        reply.code(fault.status);
        reply.removeHeader('content-type');
        reply.removeHeader('content-length');
        return '';
      case 'timeout':
        await holdUnanswered(keeping, request, fault.holdMs ?? MAX_HOLD_MS, () => reply.raw.socket?.destroy());
        return payload;
    }
  });
}

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/**
 * Plays an injected fault: waits (delay), answers with a bodiless 5xx built by `sendError`, or never answers
 * (timeout). Returns true when the call goes on, false when the fault has taken over the answer.
 */
export async function applyFault(
  fault: Fault | undefined,
  call: {
    readonly request: FastifyRequest;
    readonly reply: FastifyReply;
    readonly keeping: Pick<RequestKeeping, 'held' | 'faultsAfterActing'>;
  },
  // A reply is thenable, not a Promise: awaiting it waits until the answer is sent.
  sendError: (status: 500 | 503) => unknown,
): Promise<boolean> {
  if (fault === undefined) return true;
  if (fault.afterActing === true) {
    call.keeping.faultsAfterActing.set(call.request, fault);
    return true;
  }
  switch (fault.kind) {
    case 'delay':
      await sleep(fault.delayMs);
      return true;
    case 'error':
      await sendError(fault.status);
      return false;
    case 'timeout':
      await hold(call.keeping, call.request, call.reply, fault.holdMs ?? MAX_HOLD_MS);
      return false;
  }
}

/** Never answers: keeps the request until the client gives up or the bound passes, then drops the connection. */
export async function hold(
  keeping: Pick<RequestKeeping, 'held'>,
  request: FastifyRequest,
  reply: FastifyReply,
  holdMs: number,
): Promise<void> {
  reply.hijack();
  await holdUnanswered(keeping, request, holdMs, () => reply.raw.socket?.destroy());
}

/** Waits until the client gives up, the bound passes or the app closes, then drops the connection (`drop`). */
function holdUnanswered(keeping: Pick<RequestKeeping, 'held'>, request: FastifyRequest, holdMs: number, drop: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const release = (): void => {
      clearTimeout(timer);
      keeping.held.delete(release);
      request.raw.socket.off('close', release);
      drop();
      resolve();
    };
    const timer = setTimeout(release, Math.min(holdMs, MAX_HOLD_MS));
    keeping.held.add(release);
    request.raw.socket.once('close', release);
  });
}
