/** The sign-in steps' pages: the password form, the code form, the enrolment of an authenticator, and the refusals. */
import { html, SafeHtml } from '../../hosted/html.js';
import type { ConsoleUser } from '../../people/accounts.js';
import { authPage, csrfField, errorSummary } from '../layout.js';

/** An address of a step with the page to return to afterwards (`?next=`), when there is one. */
export function withNext(path: string, next: string | undefined): string {
  return next === undefined ? path : `${path}?next=${encodeURIComponent(next)}`;
}

export function lockedText(user: ConsoleUser): string {
  const until = user.lockedUntil === null ? '' : ` until ${user.lockedUntil.slice(11, 16)} UTC`;
  return `Too many failed attempts: this account is locked${until}. Try again later, or ask an operator to unlock it.`;
}

export function signInPage(csrf: string, next: string | undefined, problems: readonly string[], email = ''): string {
  return authPage(
    'Sign in',
    html`${errorSummary(problems)}
<form method="post" action="${withNext('/console/sign-in', next)}">
${csrfField(csrf)}
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"${problems.length > 0 ? html` aria-invalid="true"` : ''}></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${problems.length > 0 ? html` aria-invalid="true"` : ''}></div>
<button class="primary" type="submit">Sign in</button>
</form>`,
  );
}

function codeForm(action: string, csrf: string, problem: string | undefined, intro: SafeHtml): SafeHtml {
  return html`${errorSummary(problem === undefined ? [] : [problem])}${intro}
<form method="post" action="${action}">
${csrfField(csrf)}
<div class="field"><label for="code">Code <span class="hint">The 6 digits your authenticator app shows now</span></label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required${problem === undefined ? '' : html` aria-invalid="true"`}></div>
<button class="primary" type="submit">Continue</button>
</form>`;
}

export function codePage(next: string | undefined, csrf: string, problem?: string): string {
  return authPage(
    'Enter your code',
    new SafeHtml(
      codeForm(
        withNext('/console/sign-in/code', next),
        csrf,
        problem,
        html`<p>Open your authenticator app and type the code for the openpis console.</p>`,
      ).toString(),
    ),
  );
}

export interface Enrolment {
  readonly secret: string;
  readonly uri: string;
  /** The QR code of the URI, an SVG drawn on the server. */
  readonly qrSvg: string;
}

export function enrolPage(next: string | undefined, enrolment: Enrolment, csrf: string, problem?: string): string {
  const intro = html`<p>The console asks for a code from an authenticator app as well as your password. Scan this code with the app (or enter the key by hand), then type the code it shows.</p>
<div class="qr" role="img" aria-label="QR code of the authenticator set-up link">${new SafeHtml(enrolment.qrSvg)}</div>
<p><span class="muted">Key:</span> <code class="mono">${enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</code></p>
<details class="more"><summary>Set-up link</summary><p class="mono">${enrolment.uri}</p></details>`;
  return authPage(
    'Set up your second factor',
    new SafeHtml(codeForm(withNext('/console/sign-in/enrol', next), csrf, problem, intro).toString()),
  );
}

export const signInFormExpiredPage = (): string =>
  authPage('This form has expired', html`<p>Please <a href="/console/sign-in">open the sign-in page again</a>.</p>`);
export const stepFormExpiredPage = (): string =>
  authPage('This form has expired', html`<p>Please <a href="/console/sign-in">sign in again</a>.</p>`);
export const signedOutPage = (text: string): string =>
  authPage('Signed out', html`${errorSummary([text])}<p><a href="/console/sign-in">Back to sign-in</a></p>`);
