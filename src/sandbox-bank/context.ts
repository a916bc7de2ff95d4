/**
 * What every route of one sandbox bank app shares: the state, the banks, the fault plan and the public URL, plus
 * the request plumbing common to all XS2A calls (request id, signature check, fault gate, error answers).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxBankDefinition } from './banks.js';
import { Xs2aError } from './errors.js';
import type { FaultPlan, OperationName } from './faults.js';
import { MAX_HOLD_MS } from './faults.js';
import { verifyRequestSignature } from './signature.js';
import type { SandboxState } from './state.js';

export interface BankContext {
  readonly state: SandboxState;
  readonly banks: ReadonlyMap<string, SandboxBankDefinition>;
  readonly faults: FaultPlan;
  /** Public base URL of the sandbox, without a trailing slash. */
  readonly publicUrl: string;
  /** Raw request bodies, kept for the Digest check. */
  readonly rawBodies: WeakMap<FastifyRequest, Buffer>;
  /** Requests held by a timeout fault, released when the app closes. */
  readonly held: Set<() => void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/** `true`/`false` headers of the standard; anything else is a format error. */
export function booleanHeader(request: FastifyRequest, name: string): boolean | undefined {
  const value = header(request, name);
  if (value === undefined) return undefined;
  if (value.toLowerCase() === 'true') return true;
  if (value.toLowerCase() === 'false') return false;
  throw new Xs2aError('FORMAT_ERROR', `${name} must be true or false`);
}

export function requireBank(context: BankContext, slug: string): SandboxBankDefinition {
  const bank = context.banks.get(slug);
  if (bank === undefined) throw new Xs2aError('RESOURCE_UNKNOWN', `No sandbox bank "${slug}"`, { status: 404 });
  return bank;
}

/** Absolute URL of a path of a bank. */
export function bankUrl(context: BankContext, bank: SandboxBankDefinition, path: string): string {
  return `${context.publicUrl}/${bank.slug}${path}`;
}

/**
 * Common checks of an XS2A call, in the order a bank applies them: request id, signature (for banks that demand
 * one), then injected faults. Returns false when a fault has already taken over the answer.
 */
export async function admit(
  context: BankContext,
  request: FastifyRequest,
  reply: FastifyReply,
  bank: SandboxBankDefinition,
  operation: OperationName,
  psuId: string | undefined,
): Promise<boolean> {
  const requestId = header(request, 'x-request-id');
  if (requestId === undefined || !UUID.test(requestId)) {
    throw new Xs2aError('FORMAT_ERROR', 'X-Request-ID must be a UUID');
  }
  if (bank.signRequests) {
    const verification = verifyRequestSignature(
      { headers: request.headers, body: context.rawBodies.get(request) },
      { now: context.state.now() },
    );
    if (!verification.ok) throw new Xs2aError(verification.code, verification.text);
  }
  const plan = context.faults.take({ bank: bank.slug, operation, psuId });
  const payerFault = plan ?? payerFaultFor(context, operation, psuId);
  if (payerFault === undefined) return true;
  switch (payerFault.kind) {
    case 'delay':
      await sleep(payerFault.delayMs);
      return true;
    case 'error':
      // The standard defines no body for 5xx answers.
      await reply.code(payerFault.status).send();
      return false;
    case 'timeout':
      await hold(context, request, reply, payerFault.holdMs ?? MAX_HOLD_MS);
      return false;
  }
}

function payerFaultFor(context: BankContext, operation: OperationName, psuId: string | undefined) {
  const payer = context.state.payer(psuId);
  for (const rule of payer?.faults ?? []) {
    const operations = rule.operations ?? (rule.operation === undefined ? undefined : [rule.operation]);
    if (operations === undefined || operations.includes(operation)) return rule.fault;
  }
  return undefined;
}

/** Never answers: keeps the request until the client gives up or the bound passes, then drops the connection. */
export async function hold(context: Pick<BankContext, 'held'>, request: FastifyRequest, reply: FastifyReply, holdMs: number): Promise<void> {
  reply.hijack();
  await new Promise<void>((resolve) => {
    const release = (): void => {
      clearTimeout(timer);
      context.held.delete(release);
      request.raw.socket.off('close', release);
      reply.raw.socket?.destroy();
      resolve();
    };
    const timer = setTimeout(release, Math.min(holdMs, MAX_HOLD_MS));
    context.held.add(release);
    request.raw.socket.once('close', release);
  });
}
