/**
 * The console's file uploads (multipart forms), in a scope of their own: the multipart parser
 * (@fastify/multipart) is registered here alone, so no other console route takes multipart bodies. Who is asking
 * is settled before the body is read (signed in, from our own origin, an operator), so only operators can make the
 * server parse an upload; the CSRF token, which travels in the body, is checked once the body is read. Fields and
 * files are kept in memory up to the route's limits (its `config.uploadLimits`); a longer file is cut (not refused
 * by the parser) one byte past the limit, so the page answers it with the file checker's own message rather than a
 * bare 413.
 */
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../hosted/html.js';
import type { App } from '../http/fastify-types.js';
import { requireOperator, requireOwnOrigin, requireSessionForm, requireSignedIn } from './access.js';
import { authPage } from './layout.js';
import { sendPage } from './replies.js';
import type { ConsoleServices } from './services.js';

/** What a multipart form may carry. */
export interface UploadLimits {
  /** Bytes a file may have; the parser cuts a longer file after `maxFileBytes + 1` so the handler sees it is too large. */
  readonly maxFileBytes: number;
  readonly files: number;
  readonly fields: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An upload route's limits (src/console/uploads.ts). */
    uploadLimits?: UploadLimits;
  }
}

const NO_UPLOAD: UploadLimits = { maxFileBytes: 0, files: 0, fields: 0 };

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;
}

/**
 * Reads a multipart body into `request.body`: fields as text, files as bytes. A body the sender cut off or
 * malformed (the reader's errors carry no status), or with more parts than the form has (413), gets a page that
 * says so, not a server error; only the reader's own faults (5xx) go on to the error handler.
 */
async function readUploadForm(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (!request.isMultipart()) return undefined;
  const limits = request.routeOptions.config.uploadLimits ?? NO_UPLOAD;
  const body: Record<string, string | Buffer> = {};
  try {
    const parts = request.parts({
      limits: { fileSize: limits.maxFileBytes + 1, files: limits.files, fields: limits.fields, parts: limits.files + limits.fields },
    });
    for await (const part of parts) {
      if (part.type === 'file') body[part.fieldname] = await part.toBuffer();
      else if (typeof part.value === 'string') body[part.fieldname] = part.value;
    }
  } catch (error) {
    const status = statusOf(error) ?? 400;
    if (status >= 500) throw error;
    request.log.warn({ err: error }, 'console upload unreadable');
    return sendPage(
      reply,
      authPage(
        'The upload could not be read',
        html`<p>The form did not arrive whole, or it carried more than it may. Please go back and choose the file again.</p><p><a href="/console">Back to the console</a></p>`,
      ),
      status >= 400 ? status : 400,
    );
  }
  request.body = body;
  return undefined;
}

export async function registerUploads(
  uploads: App,
  services: ConsoleServices,
  routes: readonly ((scope: App, services: ConsoleServices) => Promise<void>)[],
): Promise<void> {
  await uploads.register(multipart, { throwFileSizeLimit: false });
  uploads.addHook('onRequest', requireSignedIn(services));
  uploads.addHook('onRequest', requireOwnOrigin(services));
  uploads.addHook('onRequest', requireOperator(services));
  uploads.addHook('preValidation', readUploadForm);
  uploads.addHook('preValidation', requireSessionForm);
  for (const register of routes) await register(uploads, services);
}
