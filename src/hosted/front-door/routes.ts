/** The front door (`GET /`): what this service is, with the ways in for developers. */
import type { AppPlugin } from '../../http/root-plugin.js';
import { isSupportedLocale } from '../../i18n/locale.js';
import { queryText, requestLocale, sendPage } from '../answers.js';
import { LanguageQuery } from '../schemas.js';
import { frontDoorPage } from './page.js';

export interface FrontDoorOptions {
  /** The sandbox banks' index (undefined: none to show). */
  readonly sandboxBankUrl?: string | undefined;
  /** The operators' console, once there is one to link. */
  readonly consoleUrl?: string | undefined;
}

export const frontDoorRoutes: AppPlugin<FrontDoorOptions> = async (scope, options) => {
  scope.get('/', { schema: { hide: true, querystring: LanguageQuery } }, async (request, reply) => {
    const asked = queryText(request, 'lang');
    const locale = asked !== undefined && isSupportedLocale(asked) ? asked : requestLocale(request);
    return sendPage(
      reply,
      200,
      frontDoorPage(locale, { apiReferenceUrl: '/docs', sandboxUrl: options.sandboxBankUrl, consoleUrl: options.consoleUrl }),
    );
  });
};
