/**
 * The payer's browser, reduced to plain HTTP: opens the bank's SCA page, fills in and submits its forms (one
 * step after another, following 303s), until the bank sends the browser back to the TPP. It understands the
 * minimal HTML of server-rendered forms: one `<form>` with `action`, hidden inputs, text/password inputs, radio
 * and checkbox choices, and submit buttons named `action`.
 */
import { request } from 'undici';

export interface PsuAnswers {
  readonly psuId?: string;
  readonly password?: string;
  readonly otp?: string;
  /** SCA method id to choose when asked; default: the preselected one. */
  readonly methodId?: string;
  /** Account resource ids to choose when asked; default: the preselected ones. */
  readonly accountIds?: readonly string[];
  /** Press "cancel" instead of "approve" on the first page. */
  readonly cancel?: boolean;
}

export interface BrowserResult {
  /** The URL the bank finally sent the browser to (the TPP's redirect URI), if any. */
  readonly redirectedTo: string | undefined;
  /** The last page's HTML when the bank ended without a redirect (decoupled app, error page). */
  readonly lastPage: string | undefined;
  /** Field names of every form submitted, in order (for assertions on the journey). */
  readonly steps: readonly string[];
}

interface ParsedForm {
  readonly action: string;
  readonly fields: Array<[string, string]>;
  readonly names: Set<string>;
  readonly step: string | undefined;
}

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
};

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function parseForm(html: string): ParsedForm | undefined {
  const formMatch = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (formMatch === null) return undefined;
  const formTag = /<form\b[^>]*>/i.exec(formMatch[0])?.[0] ?? '';
  const fields: Array<[string, string]> = [];
  const names = new Set<string>();
  let step: string | undefined;
  for (const [tag] of (formMatch[1] ?? '').matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(tag, 'name');
    if (name === undefined) continue;
    names.add(name);
    const type = (attribute(tag, 'type') ?? 'text').toLowerCase();
    const value = attribute(tag, 'value') ?? '';
    if (type === 'hidden') {
      fields.push([name, value]);
      if (name === 'step') step = value;
    } else if ((type === 'radio' || type === 'checkbox') && /\schecked\b/i.test(tag)) {
      fields.push([`default:${name}`, value]);
    }
  }
  return { action: attribute(formTag, 'action') ?? '', fields, names, step };
}

/**
 * Walks the bank's pages from `startUrl` with the payer's answers. Stops when the bank redirects outside its own
 * pages (back to the TPP) or shows a page without a form. Bounded to 12 pages.
 */
export async function completeBankPages(startUrl: string, answers: PsuAnswers): Promise<BrowserResult> {
  const steps: string[] = [];
  let url = new URL(startUrl);
  const pagesOrigin = url.origin;
  for (let page = 0; page < 12; page += 1) {
    const shown = await request(url, { method: 'GET', headersTimeout: 5000, bodyTimeout: 5000 });
    const html = await shown.body.text();
    if (shown.statusCode !== 200) throw new Error(`The bank page answered ${shown.statusCode}`);
    const form = parseForm(html);
    if (form === undefined) return { redirectedTo: undefined, lastPage: html, steps };
    const body = new URLSearchParams();
    for (const [name, value] of form.fields) if (!name.startsWith('default:')) body.append(name, value);
    const defaults = (name: string): string[] => form.fields.filter(([key]) => key === `default:${name}`).map(([, value]) => value);
    if (form.names.has('psuId')) body.append('psuId', answers.psuId ?? '');
    if (form.names.has('password')) body.append('password', answers.password ?? '');
    if (form.names.has('otp')) body.append('otp', answers.otp ?? '');
    if (form.names.has('methodId')) body.append('methodId', answers.methodId ?? defaults('methodId')[0] ?? '');
    if (form.names.has('accountId')) for (const id of answers.accountIds ?? defaults('accountId')) body.append('accountId', id);
    body.append('action', answers.cancel === true ? 'cancel' : 'approve');
    steps.push(form.step ?? [...form.names].join(','));

    const posted = await request(new URL(form.action, url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      headersTimeout: 5000,
      bodyTimeout: 5000,
    });
    const postedHtml = await posted.body.text();
    if (posted.statusCode === 303) {
      const location = posted.headers['location'];
      if (typeof location !== 'string') throw new Error('A 303 without Location');
      const next = new URL(location, url);
      if (next.origin !== pagesOrigin || !next.pathname.startsWith(url.pathname.split('/').slice(0, 3).join('/'))) {
        return { redirectedTo: next.href, lastPage: undefined, steps };
      }
      url = next;
      continue;
    }
    if (posted.statusCode === 200) return { redirectedTo: undefined, lastPage: postedHtml, steps };
    throw new Error(`The bank answered ${posted.statusCode} to the form`);
  }
  throw new Error('Too many bank pages');
}
