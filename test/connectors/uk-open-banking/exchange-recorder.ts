/**
 * Like test/connectors/helpers/recording-dispatcher.ts, but keeps the bank's answer too (status, headers, body),
 * so the tests can check both directions against the standard's OpenAPI definition. Works with undici handlers of
 * either style (legacy `onHeaders`/`onData`, or `onResponseStart`/`onResponseData`).
 */
import { Agent, type Dispatcher } from 'undici';
import type { WireRequest } from '../helpers/recording-dispatcher.js';

export interface WireExchange {
  readonly request: WireRequest;
  status: number | undefined;
  headers: Record<string, string>;
  readonly chunks: Buffer[];
}

export function bodyOf(exchange: WireExchange): string {
  return Buffer.concat(exchange.chunks).toString('utf8');
}

function requestHeaders(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers === undefined || headers === null) return record;
  if (Array.isArray(headers)) {
    for (let index = 0; index + 1 < headers.length; index += 2) record[String(headers[index])] = String(headers[index + 1]);
    return record;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return record;
}

function rawHeaders(raw: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let index = 0; index + 1 < raw.length; index += 2) record[String(raw[index]).toLowerCase()] = String(raw[index + 1]);
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [name, value] of Object.entries(raw as Record<string, unknown>))
      record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return record;
}

type AnyFunction = (...args: unknown[]) => unknown;

export function exchangeRecorder(): {
  dispatcher: Dispatcher;
  requests: WireRequest[];
  exchanges: WireExchange[];
  close: () => Promise<void>;
} {
  const agent = new Agent();
  const requests: WireRequest[] = [];
  const exchanges: WireExchange[] = [];
  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    const request: WireRequest = {
      method: opts.method,
      url: new URL(opts.path, String(opts.origin)),
      headers: requestHeaders(opts.headers),
      bodyText: typeof opts.body === 'string' ? opts.body : undefined,
    };
    const exchange: WireExchange = { request, status: undefined, headers: {}, chunks: [] };
    requests.push(request);
    exchanges.push(exchange);
    const observed = new Proxy(handler, {
      get(target, property, receiver) {
        const original = Reflect.get(target, property, receiver) as unknown;
        if (typeof original !== 'function') return original;
        const call = (args: unknown[]): unknown => (original as AnyFunction).apply(target, args);
        switch (property) {
          case 'onHeaders':
            return (...args: unknown[]) => {
              exchange.status = Number(args[0]);
              exchange.headers = rawHeaders((args[1] as unknown[]).map((value) => String(value)));
              return call(args);
            };
          case 'onResponseStart':
            return (...args: unknown[]) => {
              exchange.status = Number(args[1]);
              exchange.headers = rawHeaders(args[2]);
              return call(args);
            };
          case 'onData':
            return (...args: unknown[]) => {
              exchange.chunks.push(Buffer.from(args[0] as Uint8Array));
              return call(args);
            };
          case 'onResponseData':
            return (...args: unknown[]) => {
              exchange.chunks.push(Buffer.from(args[1] as Uint8Array));
              return call(args);
            };
          default:
            return (...args: unknown[]) => call(args);
        }
      },
    });
    return dispatch(opts, observed);
  });
  return { dispatcher, requests, exchanges, close: () => agent.close() };
}
