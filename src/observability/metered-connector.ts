/**
 * Bank-call metrics without touching the connectors: wraps a bank's connector so that every operation is
 * counted by provider, operation and result, and timed.
 */
import { ConnectorError, type BankConnector, type Connectors } from '../connectors/index.js';
import type { ConnectorSettings, ProviderCatalogue } from '../providers/catalogue.js';
import type { Metrics } from './metrics.js';

/** `ok`, or the connector error kind (`rejected`, `unavailable`, `protocol`), or `error` for anything else. */
export function bankCallResult(error: unknown): string {
  return error instanceof ConnectorError ? error.kind : 'error';
}

/** The capabilities whose operations are bank calls too (counted under the operation's own name). */
const CAPABILITIES: ReadonlySet<string> = new Set(['embedded', 'accountInformation']);

export function meterConnector(connector: BankConnector, provider: string, metrics: Metrics): BankConnector {
  return meterOperations(connector, provider, metrics);
}

function meterOperations<T extends object>(operations: T, provider: string, metrics: Metrics): T {
  return new Proxy(operations, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property === 'string' && CAPABILITIES.has(property) && typeof value === 'object' && value !== null) {
        return meterOperations(value, provider, metrics);
      }
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const operation = property;
      return async (...args: unknown[]) => {
        const stopTimer = metrics.bankCallDuration.startTimer({ provider, operation });
        try {
          const result: unknown = await (value as (...callArgs: unknown[]) => unknown).apply(target, args);
          metrics.bankCalls.inc({ provider, operation, result: 'ok' });
          return result;
        } catch (error) {
          metrics.bankCalls.inc({ provider, operation, result: bankCallResult(error) });
          throw error;
        } finally {
          stopTimer();
        }
      };
    },
  });
}

/** The process's connectors, each bank's metered under the bank's name. */
export function meterConnectors(connectors: Connectors, catalogue: ProviderCatalogue, metrics: Metrics): Connectors {
  const names = new Map<ConnectorSettings, string>();
  for (const environment of ['sandbox', 'production'] as const) {
    for (const bank of catalogue.banks(environment)) names.set(bank.connector, bank.name);
  }
  return {
    for: (settings) => meterConnector(connectors.for(settings), names.get(settings) ?? 'unknown', metrics),
    close: () => connectors.close(),
  };
}
