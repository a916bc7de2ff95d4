/**
 * A scripted bank for unit tests: a loopback HTTP server whose answers the test writes per request. It records
 * what arrived, so tests can check headers and bodies, and can hang or answer slowly to exercise timeouts.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BerlinGroupSettings as ConnectorSettings } from '../../../src/connectors/berlin-group/settings.js';

export interface FakeRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly bodyText: string;
  readonly body: unknown;
}

export interface FakeAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as they are. */
  readonly body?: unknown;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Never answer (the socket is destroyed when the server closes). */
  readonly hang?: boolean;
}

export type FakeHandler = (request: FakeRequest) => FakeAnswer;

export interface FakeBank {
  /** Origin of the server, e.g. `http://127.0.0.1:4711`. */
  readonly origin: string;
  readonly requests: FakeRequest[];
  handle(handler: FakeHandler): void;
  close(): Promise<void>;
}

export async function startFakeBank(initial: FakeHandler = () => ({ status: 404 })): Promise<FakeBank> {
  let handler = initial;
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const bodyText = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = bodyText === '' ? undefined : (JSON.parse(bodyText) as unknown);
      } catch {
        body = bodyText;
      }
      const recorded: FakeRequest = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        bodyText,
        body,
      };
      requests.push(recorded);
      const answer = handler(recorded);
      if (answer.hang === true) return;
      const send = (): void => {
        const payload = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        response.writeHead(answer.status, {
          ...(typeof answer.body === 'object' ? { 'Content-Type': 'application/json' } : {}),
          ...answer.headers,
        });
        response.end(payload);
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function settings(baseUrl: string, overrides: Partial<ConnectorSettings> = {}): ConnectorSettings {
  return {
    standard: 'berlin-group',
    baseUrl,
    scaApproaches: ['REDIRECT'],
    products: { SEPA: 'sepa-credit-transfers', SEPA_INSTANT: 'instant-sepa-credit-transfers' },
    acceptedForExecutionIsCompleted: false,
    requiresDebtorAccount: false,
    accountInformation: false,
    requiresSenderAuthorization: false,
    timeoutMs: 2000,
    ...overrides,
  };
}
