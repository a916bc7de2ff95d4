/**
 * A local HTTPS webhook receiver for tests: listens on 127.0.0.1, port 0, with a certificate issued by a CA made up
 * at test time (keys live in a temporary directory that is removed straight away; nothing is committed).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  readonly caCertificate: string;
  readonly serverKey: string;
  readonly serverCertificate: string;
}

/** A throw-away CA and a server certificate for 127.0.0.1, ::1 and localhost, made with the openssl CLI. */
export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'openpis-webhook-pki-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'pipe' });
  };
  try {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
      '-days',
      '1',
      '-subj',
      '/CN=openpis test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    openssl(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      '/CN=localhost',
    );
    writeFileSync(
      file('server.ext'),
      'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n',
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.crt'),
      '-days',
      '1',
      '-extfile',
      file('server.ext'),
    );
    return {
      caCertificate: readFileSync(file('ca.crt'), 'utf8'),
      serverKey: readFileSync(file('server.key'), 'utf8'),
      serverCertificate: readFileSync(file('server.crt'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A test PKI whose CA certificate is also in a file, for `WEBHOOK_CA_FILE`; `remove` deletes the file. */
export function createTestPkiWithCaFile(): TestPki & { readonly caFile: string; remove(): void } {
  const pki = createTestPki();
  const dir = mkdtempSync(join(tmpdir(), 'openpis-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pki.caCertificate);
  return { ...pki, caFile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type Route = (request: ReceivedRequest, response: ServerResponse) => void;

export interface TestReceiver {
  /** Origin such as `https://127.0.0.1:43210`. */
  readonly origin: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far: proves that a refused target was never connected to. */
  connections: number;
  /** Routes by path; unknown paths get 404. */
  readonly routes: Map<string, Route>;
  close(): Promise<void>;
}

/** Starts an HTTPS receiver (or plain HTTP when `pki` is omitted) on 127.0.0.1, port 0. */
export async function startReceiver(pki?: TestPki): Promise<TestReceiver> {
  const routes = new Map<string, Route>();
  const requests: ReceivedRequest[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const route = routes.get(received.path);
      if (route === undefined) {
        res.statusCode = 404;
        res.end();
        return;
      }
      route(received, res);
    });
  };
  const server: Server =
    pki === undefined ? createHttpServer(handler) : createHttpsServer({ key: pki.serverKey, cert: pki.serverCertificate }, handler);
  const receiver: TestReceiver = {
    origin: '',
    port: 0,
    requests,
    connections: 0,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, { port, origin: `${pki === undefined ? 'http' : 'https'}://127.0.0.1:${port}` });
}

/** A loopback port with nothing listening on it (bound, noted and closed again). */
export async function unusedLoopbackPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
