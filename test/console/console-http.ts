/**
 * A browser stand-in for the console over plain HTTP: keeps its cookies, follows nothing by itself (tests see every
 * 303), and fills a form's CSRF token from the last page it read.
 */
import type { TestApp } from '../helpers/test-app.js';
import type { ConsoleUsers } from '../../src/people/accounts.js';
import { ConsoleUsers as Users } from '../../src/people/accounts.js';
import { SecretBox } from '../../src/crypto/secret-box.js';

export interface ConsoleAnswer {
  readonly status: number;
  readonly location: string | null;
  readonly html: string;
  readonly headers: Headers;
  readonly setCookies: string[];
}

export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();
  lastHtml = '';

  constructor(private readonly baseUrl: string) {}

  /** Any request, with the cookies; keeps what it sets. */
  async send(path: string, init: RequestInit): Promise<ConsoleAnswer> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies.entries()].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    for (const cookie of setCookies) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = await response.text();
    if (response.headers.get('content-type')?.startsWith('text/html') === true) this.lastHtml = html;
    return { status: response.status, location: response.headers.get('location'), html, headers: response.headers, setCookies };
  }

  get(path: string): Promise<ConsoleAnswer> {
    return this.send(path, { method: 'GET' });
  }

  /** The CSRF token of the last page read (its first form). */
  csrf(): string {
    return /name="_csrf" value="([^"]+)"/.exec(this.lastHtml)?.[1] ?? '';
  }

  /** Posts a form with the last page's CSRF token unless `_csrf` is given. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<ConsoleAnswer> {
    const body = new URLSearchParams({ _csrf: this.csrf(), ...fields });
    return this.send(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
  }

  /** Posts a multipart form (a file upload) with the last page's CSRF token unless `_csrf` is given. */
  upload(
    path: string,
    fields: Record<string, string>,
    files: Record<string, { bytes: Uint8Array; name: string; type: string }>,
  ): Promise<ConsoleAnswer> {
    const body = new FormData();
    for (const [name, value] of Object.entries({ _csrf: this.csrf(), ...fields })) body.append(name, value);
    for (const [name, file] of Object.entries(files)) body.append(name, new Blob([file.bytes], { type: file.type }), file.name);
    return this.send(path, { method: 'POST', body });
  }

  /** Email and password; answers the sign-in post (a 303 on success). */
  async signIn(email: string, password: string): Promise<ConsoleAnswer> {
    await this.get('/console/sign-in');
    return this.post('/console/sign-in', { email, password });
  }
}

export const PASSWORD = 'correct horse battery staple';

export function consoleUsers(app: TestApp, now?: () => Date): ConsoleUsers {
  return new Users(app.database.db, new SecretBox(app.config.secretKeys), app.config.console.lockout, now);
}

/** The enrolment key shown on the enrol page. */
export function enrolmentKey(html: string): string {
  return (/Key:<\/span> <code class="mono">([A-Z2-7 ]+)<\/code>/.exec(html)?.[1] ?? '').replace(/ /g, '');
}

const TOTP_STEP_MS = 30_000;
/** The last time step each authenticator key gave a code for in these tests (a code is accepted once). */
const usedSteps = new Map<string, number>();

/**
 * A code of the authenticator `key` that the console has not taken yet: this time step's, or the next one's when
 * this one was used (the console accepts one step either side, each once). With the real clock (no `now`) and both
 * used, it waits for the next step, at most 30 s; with a test clock it says to move the clock on instead.
 */
export async function freshTotpCode(key: string, now?: () => Date): Promise<string> {
  const { totpCode } = await import('../../src/people/second-factor.js');
  const at = (now ?? (() => new Date()))();
  const current = Math.floor(at.getTime() / TOTP_STEP_MS);
  const step = Math.max(current, (usedSteps.get(key) ?? current - 1) + 1);
  if (step > current + 1) {
    if (now !== undefined) throw new Error('both usable codes of this authenticator are spent: move the test clock on 30 s');
    await new Promise((resolve) => setTimeout(resolve, (step - 1) * TOTP_STEP_MS - at.getTime() + 100));
    return freshTotpCode(key);
  }
  usedSteps.set(key, step);
  return totpCode(key, new Date(step * TOTP_STEP_MS));
}

/**
 * Signs a person (operator or member) in over HTTP with the password and the second factor, enrolling their
 * authenticator the first time; returns the authenticator's key (give it back for later sign-ins).
 */
export async function signInPerson(
  browser: ConsoleBrowser,
  email: string,
  options: { readonly key?: string; readonly now?: () => Date; readonly password?: string } = {},
): Promise<string> {
  const first = await browser.signIn(email, options.password ?? PASSWORD);
  if (first.location?.startsWith('/console/sign-in/enrol') === true) {
    const enrolPage = await browser.get('/console/sign-in/enrol');
    const enrolled = enrolmentKey(enrolPage.html);
    const answer = await browser.post('/console/sign-in/enrol', { code: await freshTotpCode(enrolled, options.now) });
    if (answer.status !== 303) throw new Error(`enrolment failed: ${answer.status}`);
    return enrolled;
  }
  if (first.location?.startsWith('/console/sign-in/code') !== true)
    throw new Error(`the password step answered ${first.status} ${first.location ?? ''}`);
  if (options.key === undefined) throw new Error('the person is enrolled: give the key');
  await browser.get('/console/sign-in/code');
  const answer = await browser.post('/console/sign-in/code', { code: await freshTotpCode(options.key, options.now) });
  if (answer.status !== 303) throw new Error(`second factor failed: ${answer.status}`);
  return options.key;
}

/** Signs an operator in over HTTP, enrolling their authenticator the first time; returns the enrolment key. */
export async function signInOperator(browser: ConsoleBrowser, email: string, at: () => Date, key?: string): Promise<string> {
  return signInPerson(browser, email, { now: at, ...(key === undefined ? {} : { key }) });
}

/**
 * The two people most console tests need: Olga, an operator, and Mia, a member of `memberClientId`, each signed in
 * with their second factor (enrolled on the way) in a browser of their own.
 */
export async function signedInOperatorAndMember(
  app: TestApp,
  memberClientId: string,
  memberEmail = 'mia@acme.example',
): Promise<{ operator: ConsoleBrowser; member: ConsoleBrowser }> {
  const users = consoleUsers(app);
  await users.create({ email: 'olga@operator.example', name: 'Olga Operator', role: 'operator', password: PASSWORD });
  await users.create({ email: memberEmail, name: 'Mia Member', role: 'member', clientId: memberClientId, password: PASSWORD });
  const operator = new ConsoleBrowser(app.baseUrl);
  await signInPerson(operator, 'olga@operator.example');
  const member = new ConsoleBrowser(app.baseUrl);
  await signInPerson(member, memberEmail);
  return { operator, member };
}
