/**
 * An undici dispatcher that records every request the connector sends (method, URL, headers, body) before passing
 * it on, so tests can check the wire against the standard and look for leaked secrets.
 */
import { Agent, type Dispatcher } from 'undici';
import type { RecordedRequest } from './openapi-validator.js';

export interface WireRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string | undefined;
}

function headerRecord(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers === undefined || headers === null) return record;
  if (Array.isArray(headers)) {
    for (let index = 0; index + 1 < headers.length; index += 2) {
      record[String(headers[index])] = String(headers[index + 1]);
    }
    return record;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return record;
}

export function recordingDispatcher(options: Agent.Options = {}): {
  dispatcher: Dispatcher;
  requests: WireRequest[];
  close: () => Promise<void>;
} {
  const agent = new Agent(options);
  const requests: WireRequest[] = [];
  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    requests.push({
      method: opts.method,
      url: new URL(opts.path, String(opts.origin)),
      headers: headerRecord(opts.headers),
      bodyText: typeof opts.body === 'string' ? opts.body : undefined,
    });
    return dispatch(opts, handler);
  });
  return { dispatcher, requests, close: () => agent.close() };
}

/** The wire request as the OpenAPI validator wants it: the path below the bank's base path. */
export function relativeToBank(request: WireRequest, bankBaseUrl: string): RecordedRequest {
  const basePath = new URL(bankBaseUrl).pathname.replace(/\/+$/, '');
  const pathname = request.url.pathname.startsWith(basePath) ? request.url.pathname.slice(basePath.length) : request.url.pathname;
  return {
    method: request.method,
    path: pathname,
    headers: request.headers,
    body: request.bodyText === undefined ? undefined : (JSON.parse(request.bodyText) as unknown),
  };
}
