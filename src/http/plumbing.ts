/**
 * The HTTP plumbing every surface shares, as plugins of the root (src/http/root-plugin.ts): the request id and HSTS
 * on every answer, one error body for errors and unknown routes, and the request bodies we read.
 */
import formbody from '@fastify/formbody';
import { sendError, sendRouteNotFound } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { rootPlugin } from './root-plugin.js';

/** One year, the usual HSTS lifetime; subdomains are the operator's business, so not included. */
const HSTS = 'max-age=31536000';

/** Every answer names its request (X-Request-ID) and, over HTTPS, keeps the browser on HTTPS. */
export const responseHeaders = rootPlugin('response-headers', async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (request, reply) => {
    // Once a browser has reached us over HTTPS it never again tries plain HTTP (payer credentials, decisions).
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
});

/** Errors and unknown routes answer with the spec's error body (src/http/errors.ts); a surface may scope its own. */
export const errorAnswers = rootPlugin('error-answers', async (app) => {
  app.setErrorHandler(sendError);
  app.setNotFoundHandler(sendRouteNotFound);
});

/** Bodies are JSON, or a form (the token endpoint, the pages); plain text is never a valid request (415). */
export const requestBodies = rootPlugin('request-bodies', async (app) => {
  app.removeContentTypeParser('text/plain');
  // Every JSON body is judged on its text: no repeated keys, no number a double would change (src/http/json-body.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  await app.register(formbody);
});
