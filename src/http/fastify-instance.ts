/**
 * The Fastify instance every surface is registered on: logging (with secrets redacted), request ids, body limit,
 * our validator and its error messages, the HTTP or HTTPS server with our Host check, and the error body for
 * errors raised before any route runs. The routes, hooks and plugins come after (src/app.ts composes them).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { addOpenpisFormats, AJV_OPTIONS } from './ajv.js';
import { limitedMessagesFor } from './ajv-messages.js';
import { answerClientError, requireHostHeader, sendError, ValidationError } from './errors.js';
import type { App } from './fastify-types.js';

/** What the instance needs of the service's configuration (src/config/config.ts). */
export interface HttpServerSettings {
  readonly logLevel: string;
  /** Where log lines go (default: stdout). */
  readonly logDestination?: { write(line: string): void } | undefined;
  /** Whether (or from which addresses) X-Forwarded-* headers are believed. */
  readonly trustProxy: boolean | readonly string[];
  /** Certificate and key files to serve HTTPS with; plain HTTP without. */
  readonly tls: { readonly certFile: string; readonly keyFile: string } | undefined;
}

/** A client's X-Request-ID is echoed when it is a sane token; anything else gets a fresh UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A request URL as logged: the secrets that some paths carry (the payer's flow link, our bank callback and
 * notification addresses, a desktop's hand-over link, the sandbox bank's page tokens) are replaced, so a log reader cannot walk into a payer's flow.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/^\/pay\/return\/([^/?#]+)\/[^/?#]+/, '/pay/return/$1/[secret]')
    .replace(/^\/pay\/handover\/[^/?#]+/, '/pay/handover/[secret]')
    .replace(/^\/notifications\/([a-z0-9-]+)\/[^/?#]+/, '/notifications/$1/[token]')
    .replace(/^\/pay\/(?!return\/|handover\/)[^/?#]+/, '/pay/[token]')
    .replace(/\/(sca|decoupled)\/[^/?#]+/, '/$1/[token]')
    .replace(/\/uk\/([a-z0-9-]+)\/(pay|app)\/[^/?#]+/, '/uk/$1/$2/[token]');
}

/** Paths whose values must never reach logs, whatever object they appear in. */
export const LOG_REDACTIONS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.clientSecret',
  '*.client_secret',
  '*.access_token',
  '*.webhookSecret',
  '*.credentials',
];

export function createFastifyApp(settings: HttpServerSettings): App {
  return Fastify({
    logger: {
      level: settings.logLevel,
      redact: { paths: LOG_REDACTIONS, censor: '[redacted]' },
      serializers: {
        req: (request: { method: string; url: string; ip?: string }) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
      },
      ...(settings.logDestination === undefined ? {} : { stream: settings.logDestination }),
    },
    // 1 MiB is far above any valid payment request; larger bodies get 413 (decisions §6).
    bodyLimit: 1024 * 1024,
    // Start-up waits for every plugin however busy the machine is: no timer (Fastify's default fails a plugin that
    // takes 10 s, which a loaded machine once made happen). A plugin that truly hangs is the orchestrator's to see.
    pluginTimeout: 0,
    requestIdHeader: false,
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    ajv: { customOptions: AJV_OPTIONS, plugins: [addOpenpisFormats] },
    schemaErrorFormatter: (errors) => {
      const { messages, unlisted } = limitedMessagesFor(errors);
      return new ValidationError(messages, unlisted);
    },
    return503OnClosing: true,
    // Behind a proxy, request.protocol (hence HSTS) follows X-Forwarded-Proto only when the operator says so.
    trustProxy: typeof settings.trustProxy === 'boolean' ? settings.trustProxy : [...settings.trustProxy],
    serverFactory: (fastifyHandler) => {
      // Node's Host check answers without the error body; ours answers with it (src/http/errors.ts).
      const handler = requireHostHeader(fastifyHandler);
      if (settings.tls === undefined) return createHttpServer({ requireHostHeader: false }, handler);
      const tls = { cert: readFileSync(settings.tls.certFile), key: readFileSync(settings.tls.keyFile) };
      // An https.Server serves requests like the http.Server Fastify's types expect (request.protocol reads the
      // socket's `encrypted`); Fastify's own `https` option would change the app's type for every caller.
      return createHttpsServer({ ...tls, requireHostHeader: false }, handler);
    },
    // Errors raised before any route or hook runs get the same error body as everything else (src/http/errors.ts).
    // The reply is sent; Fastify ignores what this returns (sendError's reply is thenable, which is no promise to wait for).
    frameworkErrors: (error, request, reply) => void sendError(error, request, reply),
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();
}
