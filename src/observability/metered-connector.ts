/**
 * Bank-call metrics without touching the connectors: wraps a bank's connector so that every operation is
 * counted by provider, operation and result, and timed; and, given a sink, recorded one by one for the console
 * (src/observability/bank-call-records.ts: who the call served, operation, outcome, HTTP status, latency; nothing
 * of what was sent or received).
 */
import {
  BankRejectedError,
  ConnectorError,
  isCapabilityName,
  type BankCallCaller,
  type BankConnector,
  type Connectors,
} from '../connectors/index.js';
import type { CatalogueView } from '../providers/catalogue.js';
import type { BankCallOutcome } from '../storage/schema.js';
import type { BankCallSink } from './bank-call-records.js';
import type { Metrics } from './metrics.js';

/** `ok`, or the connector error kind (`rejected`, `unavailable`, `protocol`), or `error` for anything else. */
export function bankCallResult(error: unknown): string {
  return error instanceof ConnectorError ? error.kind : 'error';
}

/** A call's outcome as the records of bank calls name it. */
export function bankCallOutcome(error: unknown): BankCallOutcome {
  if (!(error instanceof ConnectorError)) return 'error';
  return error.kind === 'rejected' ? 'refused' : error.kind;
}

/**
 * Did the bank refuse a call about a resource it gave us itself (a payment or consent the call names) because it
 * does not know it? The bank lost it, or this process talks to another bank than the one that made it (a sandbox
 * bank in each of two processes, docs/operations.md). The payment stays as it is (the bank's truth is unknown, so
 * never failed on this alone), but the operator must hear of it: counted and logged as an error.
 */
export function unknownToBank(input: unknown, error: unknown): boolean {
  if (!(error instanceof BankRejectedError)) return false;
  const namesOwnResource = typeof input === 'object' && input !== null && ('payment' in input || 'consent' in input);
  return namesOwnResource && (error.httpStatus === 404 || error.messages.some((message) => message.code === 'RESOURCE_UNKNOWN'));
}

/** Where an unknown resource is reported (the app's logger); calls are counted whether or not one is given. */
export interface BankCallAlerts {
  error(details: Record<string, unknown>, message: string): void;
}

/** Where a metered connector's calls are recorded, and for whom. */
export interface BankCallRecording {
  readonly sink: BankCallSink;
  /** Whom the calls serve; without it (a call outside a payment's flow) the record names the bank only. */
  readonly bankId: string;
  readonly caller: BankCallCaller | undefined;
}

export function meterConnector(
  connector: BankConnector,
  provider: string,
  metrics: Metrics,
  recording?: BankCallRecording,
  alerts?: BankCallAlerts,
): BankConnector {
  return meterOperations(connector, provider, metrics, recording, alerts);
}

function meterOperations<T extends object>(
  operations: T,
  provider: string,
  metrics: Metrics,
  recording: BankCallRecording | undefined,
  alerts: BankCallAlerts | undefined,
): T {
  return new Proxy(operations, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      // A capability's operations are bank calls too (counted under the operation's own name).
      if (typeof property === 'string' && isCapabilityName(property) && typeof value === 'object' && value !== null) {
        return meterOperations(value, provider, metrics, recording, alerts);
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
          if (unknownToBank(args[0], error)) {
            metrics.bankUnknownResources.inc({ provider, operation });
            alerts?.error(
              {
                provider,
                operation,
                httpStatus: error instanceof ConnectorError ? error.httpStatus : undefined,
                paymentId: recording?.caller?.paymentId,
              },
              'the bank does not know a payment or consent it gave us; the payment stays pending (a sandbox bank per process? see docs/operations.md)',
            );
          }
          throw error;
        } finally {
          stopTimer();
        }
      };
    },
  });
}

/** The process's connectors, each bank's metered under the bank's name (and recorded into `sink`, if given). */
export function meterConnectors(
  connectors: Connectors,
  catalogue: CatalogueView,
  metrics: Metrics,
  sink?: BankCallSink,
  alerts?: BankCallAlerts,
): Connectors {
  return {
    for: (settings, caller) => {
      // Asked at each use: the catalogue may have changed since the start (src/providers/bank-registry.ts).
      const bank = catalogue.bankOfSettings(settings);
      const recording = sink === undefined ? undefined : { sink, bankId: bank?.id ?? 'unknown', caller };
      return meterConnector(connectors.for(settings, caller), bank?.name ?? 'unknown', metrics, recording, alerts);
    },
    close: () => connectors.close(),
  };
}
