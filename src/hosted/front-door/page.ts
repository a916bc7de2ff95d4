/**
 * The front door (`/`): what the service is, and where to go from here: the API reference, the sandbox banks'
 * test payers, and the console once there is one (its slot stays empty until a console URL is configured).
 */
import { SUPPORTED_LOCALES, type Locale } from '../../i18n/locale.js';
import { LANGUAGE_NAMES, translator } from '../../i18n/messages.js';
import { html } from '../html.js';
import { document } from '../layout/layout.js';

export interface FrontDoorView {
  readonly apiReferenceUrl: string;
  /** The sandbox banks' index (their banks and test payers); undefined where no sandbox is reachable. */
  readonly sandboxUrl: string | undefined;
  /** The operators' console; undefined while there is none. */
  readonly consoleUrl: string | undefined;
}

export function frontDoorPage(locale: Locale, view: FrontDoorView): string {
  const t = translator(locale);
  const link = (href: string, title: string, text: string) =>
    html`<li><a class="door" href="${href}"><strong>${title}</strong><span>${text}</span></a></li>`;
  const body = html`<main id="main"><h1>${t('front.heading')}</h1><p>${t('front.intro')}</p>
<h2>${t('front.forDevelopers')}</h2><ul class="doors">
${link(view.apiReferenceUrl, t('front.api'), t('front.apiText'))}
${view.sandboxUrl === undefined ? '' : link(view.sandboxUrl, t('front.sandbox'), t('front.sandboxText'))}
${view.consoleUrl === undefined ? '' : link(view.consoleUrl, t('front.console'), t('front.consoleText'))}
</ul><p class="hint">${t('front.payer')}</p></main>
<footer><nav aria-label="${t('page.language')}"><ul class="langs">${SUPPORTED_LOCALES.map(
    (code) =>
      html`<li><a href="/?lang=${code}" lang="${code}" hreflang="${code}"${code === locale ? html` aria-current="true"` : ''}>${LANGUAGE_NAMES[code]}</a></li>`,
  )}</ul></nav></footer>`;
  return document({ locale, title: t('front.heading'), body, sandbox: false });
}
