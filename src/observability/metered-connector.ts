/**
 * Bank-call metrics without touching the connectors: wraps a bank's connector so that every operation is
 * counted by provider, operation and result, and timed; and, given a sink, recorded one by one for the console
 * (src/observability/bank-call-records.ts: who the call served, operation, outcome, HTTP status, latency; nothing
 * of what was sent or received).
 */
import { ConnectorError, type BankCallCaller, type BankConnector, type Connectors } from '../connectors/index.js';
import type { ConnectorSettings, ProviderCatalogue } from '../providers/catalogue.js';
import type { BankCallOutcome } from '../storage/schema.js';
import type { BankCallSink } from './bank-call-records.js';
import type { Metrics } from './metrics.js';

/** `ok`, or the connector error kind (`rejected`, `unavailable`, `protocol`), or `error` for anything else. */
export function bankCallResult(error: unknown): string {
  return error instanceof ConnectorError ? error.kind : 'error';
}

/** The capabilities whose operations are bank calls too (counted under the operation's own name). */
const CAPABILITIES: ReadonlySet<string> = new Set(['embedded', 'accountInformation']);

/** A call's outcome as the records of bank calls name it. */
export function bankCallOutcome(error: unknown): BankCallOutcome {
  if (!(error instanceof ConnectorError)) return 'error';
  return error.kind === 'rejected' ? 'refused' : error.kind;
}

/** Where a metered connector's calls are recorded, and for whom. */
export interface BankCallRecording {
  readonly sink: BankCallSink;
  /** Whom the calls serve; without it (a call outside a payment's flow) the record names the bank only. */
  readonly bankId: string;
  readonly caller: BankCallCaller | undefined;
}

export function meterConnector(connector: BankConnector, provider: string, metrics: Metrics, recording?: BankCallRecording): BankConnector {
  return meterOperations(connector, provider, metrics, recording);
}

function meterOperations<T extends object>(operations: T, provider: string, metrics: Metrics, recording: BankCallRecording | undefined): T {
  return new Proxy(operations, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property === 'string' && CAPABILITIES.has(property) && typeof value === 'object' && value !== null) {
        return meterOperations(value, provider, metrics, recording);
      }
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const operation = property;
      return async (...args: unknown[]) => {
        const stopTimer = metrics.bankCallDuration.startTimer({ provider, operation });
        const startedAt = new Date();
        const started = performance.now();
        const finish = (outcome: BankCallOutcome, httpStatus: number | null): void => {
          if (recording === undefined) return;
          recording.sink.record({
            at: startedAt.toISOString(),
            bankId: recording.caller?.bankId ?? recording.bankId,
            clientId: recording.caller?.clientId ?? null,
            paymentId: recording.caller?.paymentId ?? null,
            operation,
            outcome,
            httpStatus,
            latencyMs: performance.now() - started,
          });
        };
        try {
          const result: unknown = await (value as (...callArgs: unknown[]) => unknown).apply(target, args);
          metrics.bankCalls.inc({ provider, operation, result: 'ok' });
          finish('ok', null);
          return result;
        } catch (error) {
          metrics.bankCalls.inc({ provider, operation, result: bankCallResult(error) });
          finish(bankCallOutcome(error), error instanceof ConnectorError ? (error.httpStatus ?? null) : null);
          throw error;
        } finally {
          stopTimer();
        }
      };
    },
  });
}

/** The process's connectors, each bank's metered under the bank's name (and recorded into `sink`, if given). */
export function meterConnectors(connectors: Connectors, catalogue: ProviderCatalogue, metrics: Metrics, sink?: BankCallSink): Connectors {
  const banks = new Map<ConnectorSettings, { id: string; name: string }>();
  for (const environment of ['sandbox', 'production'] as const) {
    for (const bank of catalogue.banks(environment)) banks.set(bank.connector, { id: bank.id, name: bank.name });
  }
  return {
    for: (settings, caller) => {
      const bank = banks.get(settings);
      const recording = sink === undefined ? undefined : { sink, bankId: bank?.id ?? 'unknown', caller };
      return meterConnector(connectors.for(settings, caller), bank?.name ?? 'unknown', metrics, recording);
    },
    close: () => connectors.close(),
  };
}
