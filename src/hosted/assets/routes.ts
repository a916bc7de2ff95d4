/**
 * Our assets: the pages' stylesheet and scripts, a brand colour's stylesheet, clients' logos and the icon. Their
 * address changes with their content, so browsers keep them for a year.
 */
import type { FastifyError, FastifyReply } from 'fastify';
import type { ClientBrandingStore } from '../../branding/client-branding.js';
import { buttonColours } from '../../branding/colour.js';
import type { OperatorIdentity } from '../../config/config.js';
import { sendError } from '../../http/errors.js';
import type { AppPlugin } from '../../http/root-plugin.js';
import { sendInvalidLink } from '../answers.js';
import { BANK_FILTER_SCRIPT, BANK_FILTER_SCRIPT_PATH } from '../bank-selection/filter-script.js';
import { FAVICON_PATH, FAVICON_SVG } from '../layout/favicon.js';
import { HOSTED_JS, HOSTED_JS_PATH } from '../layout/script.js';
import { brandColourOfPath, brandStylesheet, HOSTED_CSS, HOSTED_CSS_PATH } from '../layout/styles.js';
import { BrandStylesheetParams, LogoParams, UnreadQuery } from '../schemas.js';

export interface AssetRoutesOptions {
  /** Clients' logos, served by their hash. */
  readonly branding: ClientBrandingStore;
  readonly operator: OperatorIdentity;
}

/** An asset whose address names its content: cached for a year, never sniffed. */
function longCache(reply: FastifyReply, type: string): FastifyReply {
  return reply.type(type).header('Cache-Control', 'public, max-age=31536000, immutable').header('X-Content-Type-Options', 'nosniff');
}

const fixedAsset = { schema: { hide: true, querystring: UnreadQuery } };

export const assetRoutes: AppPlugin<AssetRoutesOptions> = async (scope, { branding, operator }) => {
  // Assets are fetched by the browser for a page, never shown as one: a failure answers with the service's error body
  // (src/http/errors.ts); a malformed name, like an unknown one, with the page of an invalid link.
  scope.setErrorHandler((error: FastifyError, request, reply) =>
    error.validation !== undefined ? sendInvalidLink(request, reply, operator) : sendError(error, request, reply),
  );

  scope.get(HOSTED_CSS_PATH, fixedAsset, async (_request, reply) => longCache(reply, 'text/css; charset=utf-8').send(HOSTED_CSS));
  scope.get(HOSTED_JS_PATH, fixedAsset, async (_request, reply) => longCache(reply, 'text/javascript; charset=utf-8').send(HOSTED_JS));
  scope.get(BANK_FILTER_SCRIPT_PATH, fixedAsset, async (_request, reply) =>
    longCache(reply, 'text/javascript; charset=utf-8').send(BANK_FILTER_SCRIPT),
  );

  // A brand colour's stylesheet: the colour is in the address, so any colour is answered alike (no client is named).
  scope.get(
    '/pay/assets/:file',
    { schema: { hide: true, params: BrandStylesheetParams, querystring: UnreadQuery } },
    async (request, reply) => {
      const colour = brandColourOfPath(`/pay/assets/${request.params.file}`);
      // A stylesheet of an earlier version of our styles: gone.
      if (colour === undefined) return sendInvalidLink(request, reply, operator);
      return longCache(reply, 'text/css; charset=utf-8').send(brandStylesheet(buttonColours(colour)));
    },
  );

  // A client's logo, as we re-encoded it, by its SHA-256.
  scope.get('/pay/assets/logos/:file', { schema: { hide: true, params: LogoParams, querystring: UnreadQuery } }, async (request, reply) => {
    const png = await branding.logoPng(request.params.file.slice(0, -'.png'.length));
    if (png === undefined) return sendInvalidLink(request, reply, operator);
    return longCache(reply, 'image/png').header('Content-Security-Policy', "default-src 'none'").send(png);
  });

  scope.get(FAVICON_PATH, fixedAsset, async (_request, reply) =>
    reply
      .type('image/svg+xml')
      .header('Cache-Control', 'public, max-age=86400')
      .header('X-Content-Type-Options', 'nosniff')
      .send(FAVICON_SVG),
  );
  // Browsers ask for /favicon.ico by themselves on pages that name no icon (the API's JSON, the documents).
  scope.get('/favicon.ico', fixedAsset, async (_request, reply) => reply.code(301).header('Location', FAVICON_PATH).send());
};
