/**
 * Signing in and out: the email and password (argon2id), then for everyone (operators and members) the code of their authenticator
 * (or, the first time, enrolling one: a QR code and the `otpauth://` URI), each step a session stage of its own
 * with a new cookie value; the lock-out counts wrong passwords and wrong codes alike (src/people/accounts.ts).
 * Every attempt is written to the audit log, failed ones too.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/fastify-types.js';
import { html, SafeHtml } from '../../hosted/html.js';
import { sameOriginPost } from '../../hosted/security.js';
import type { ConsoleUser, CredentialCheck } from '../../people/accounts.js';
import { qrCodeSvg } from '../../people/second-factor.js';
import type { ConsoleSessionStage } from '../../storage/schema.js';
import { authPage, csrfField, errorSummary } from '../layout.js';
import type { ConsoleRouter } from '../router.js';
import {
  clearConsoleCookie,
  consoleCsrfToken,
  consoleCsrfValid,
  consoleHeaders,
  cookieValue,
  CSRF_FIELD,
  newPreSessionKey,
  PRE_SESSION_COOKIE,
  SESSION_COOKIE,
  setConsoleCookie,
} from '../security.js';
import type { ConsoleServices } from '../services.js';
import { actorOf } from '../viewer.js';
import { signedInSession } from '../access.js';

/** A `next` that stays inside the console (never another host, never `//evil`). */
function safeNext(next: unknown): string | undefined {
  return typeof next === 'string' && /^\/console(\/[A-Za-z0-9/_?=&%.,:+-]*)?$/.test(next) && !next.startsWith('/console/sign-') ? next : undefined;
}

function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, 512) : '';
}

function lockedText(user: ConsoleUser): string {
  const until = user.lockedUntil === null ? '' : ` until ${user.lockedUntil.slice(11, 16)} UTC`;
  return `Too many failed attempts: this account is locked${until}. Try again later, or ask an operator to unlock it.`;
}

export async function registerSignInRoutes(app: App, services: ConsoleServices): Promise<void> {
  const { users, sessions, audit, navigation, cookies } = services;
  const hidden = { schema: { hide: true } } as const;

  const send = (reply: FastifyReply, status: number, body: string): FastifyReply => consoleHeaders(reply).code(status).type('text/html; charset=utf-8').send(body);
  const origin = (request: FastifyRequest) => ({ ip: request.ip, userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : '' });

  /** The session of a request half-way through signing in, at the given stage. */
  const sessionAt = async (request: FastifyRequest, stage: ConsoleSessionStage) => {
    const token = cookieValue(request, SESSION_COOKIE);
    const session = await sessions.find(token);
    return session !== undefined && token !== undefined && session.stage === stage ? { session, token } : undefined;
  };

  const signInForm = (csrf: string, next: string | undefined, problems: readonly string[], email = ''): string =>
    authPage(
      'Sign in',
      html`${errorSummary(problems)}
<form method="post" action="/console/sign-in${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}">
${csrfField(csrf)}
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"${problems.length > 0 ? html` aria-invalid="true"` : ''}></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${problems.length > 0 ? html` aria-invalid="true"` : ''}></div>
<button class="primary" type="submit">Sign in</button>
</form>`,
    );

  app.get('/sign-in', hidden, async (request, reply) => {
    if ((await signedInSession(services, request)) !== undefined) return consoleHeaders(reply).code(303).header('Location', '/console').send();
    await sessions.sweep();
    let key = cookieValue(request, PRE_SESSION_COOKIE);
    if (key === undefined || key.length < 43) {
      key = newPreSessionKey();
      setConsoleCookie(reply, cookies, PRE_SESSION_COOKIE, key);
    }
    return send(reply, 200, signInForm(consoleCsrfToken(key), safeNext((request.query as Record<string, unknown> | undefined)?.['next']), []));
  });

  app.post('/sign-in', hidden, async (request, reply) => {
    const key = cookieValue(request, PRE_SESSION_COOKIE);
    const next = safeNext((request.query as Record<string, unknown> | undefined)?.['next']);
    if (!sameOriginPost(request, services.config.baseUrl) || !consoleCsrfValid(key, field(request.body, CSRF_FIELD))) {
      return send(reply, 403, authPage('This form has expired', html`<p>Please <a href="/console/sign-in">open the sign-in page again</a>.</p>`));
    }
    const email = field(request.body, 'email');
    const check = await users.checkPassword(email, field(request.body, 'password'));
    const actor = actorOf(request, check.user, email);
    const refuse = async (problem: string): Promise<FastifyReply> =>
      send(reply, check.outcome === 'locked' ? 429 : 401, signInForm(consoleCsrfToken(key ?? ''), next, [problem], email));
    switch (check.outcome) {
      case 'refused':
        await audit.record(actor, { action: 'sign-in.failed', clientId: check.user?.clientId ?? null, details: { step: 'password' } });
        if (check.nowLocked && check.user !== undefined) {
          await audit.record(actor, { action: 'account.locked', clientId: check.user.clientId, target: check.user.email });
          return refuse(lockedText(check.user));
        }
        return refuse('The email or the password is wrong.');
      case 'disabled':
        // Said like a wrong password: the page does not tell which accounts exist.
        await audit.record(actor, { action: 'sign-in.refused', clientId: check.user.clientId, details: { reason: 'disabled' } });
        return refuse('The email or the password is wrong.');
      case 'locked':
        await audit.record(actor, { action: 'sign-in.refused', clientId: check.user.clientId, details: { reason: 'locked' } });
        return refuse(lockedText(check.user));
      case 'accepted': {
        const { user } = check;
        // Everyone passes a second factor (members see payers' names and account numbers too): the code, or the
        // enrolment of an authenticator the first time.
        const stage: ConsoleSessionStage = user.secondFactor === 'enrolled' ? 'second-factor' : 'enrol-second-factor';
        const token = await sessions.start(user.id, stage, origin(request));
        setConsoleCookie(reply, cookies, SESSION_COOKIE, token);
        clearConsoleCookie(reply, cookies, PRE_SESSION_COOKIE);
        const step = stage === 'second-factor' ? '/console/sign-in/code' : '/console/sign-in/enrol';
        return consoleHeaders(reply).code(303).header('Location', next === undefined ? step : `${step}?next=${encodeURIComponent(next)}`).send();
      }
    }
  });

  /** The outcome of a code (second step, or enrolment): signed in, or the form again with why not. */
  const afterCode = async (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    stage: ConsoleSessionStage,
    check: CredentialCheck,
    action: string,
    again: (csrf: string, problem: string) => Promise<string>,
  ): Promise<FastifyReply> => {
    const next = safeNext((request.query as Record<string, unknown> | undefined)?.['next']);
    const actor = actorOf(request, check.user);
    if (check.outcome === 'accepted') {
      const fresh = await sessions.advance(token, stage, 'signed-in', origin(request));
      // Moved on by another request of this half-way session at the same moment: that one signed in.
      if (fresh === undefined) return consoleHeaders(reply).code(303).header('Location', '/console/sign-in').send();
      setConsoleCookie(reply, cookies, SESSION_COOKIE, fresh);
      await audit.record(actor, { action, clientId: check.user.clientId });
      if (action !== 'sign-in') await audit.record(actor, { action: 'sign-in', clientId: check.user.clientId });
      return consoleHeaders(reply).code(303).header('Location', next ?? navigation.homeOf(check.user)).send();
    }
    const clientId = check.user?.clientId ?? null;
    // A code checked and wrong is a failed sign-in; one not checked at all (locked or disabled before) is refused.
    if (check.outcome === 'refused') await audit.record(actor, { action: 'sign-in.failed', clientId, details: { step: 'second-factor' } });
    else await audit.record(actor, { action: 'sign-in.refused', clientId, details: { step: 'second-factor', reason: check.outcome } });
    if (check.outcome === 'refused' && !check.nowLocked) return send(reply, 401, await again(consoleCsrfToken(token), 'That code is not right. Use the newest code your authenticator app shows.'));
    // Locked (now or before) or disabled: the half-way session ends; start again from the password.
    if (check.outcome === 'refused' && check.user !== undefined) await audit.record(actor, { action: 'account.locked', clientId, target: check.user.email });
    await sessions.end(token);
    clearConsoleCookie(reply, cookies, SESSION_COOKIE);
    const text = check.outcome === 'disabled' || check.user === undefined ? 'This account cannot sign in.' : lockedText(check.user);
    return send(reply, 429, authPage('Signed out', html`${errorSummary([text])}<p><a href="/console/sign-in">Back to sign-in</a></p>`));
  };

  const codeForm = (action: string, csrf: string, problem: string | undefined, intro: SafeHtml): string =>
    html`${errorSummary(problem === undefined ? [] : [problem])}${intro}
<form method="post" action="${action}">
${csrfField(csrf)}
<div class="field"><label for="code">Code <span class="hint">The 6 digits your authenticator app shows now</span></label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required${problem === undefined ? '' : html` aria-invalid="true"`}></div>
<button class="primary" type="submit">Continue</button>
</form>`.toString();

  const withNext = (request: FastifyRequest, path: string): string => {
    const next = safeNext((request.query as Record<string, unknown> | undefined)?.['next']);
    return next === undefined ? path : `${path}?next=${encodeURIComponent(next)}`;
  };

  const secondStepPage = (request: FastifyRequest, csrf: string, problem?: string): string =>
    authPage('Enter your code', new SafeHtml(codeForm(withNext(request, '/console/sign-in/code'), csrf, problem, html`<p>Open your authenticator app and type the code for the openpis console.</p>`)));

  app.get('/sign-in/code', hidden, async (request, reply) => {
    const half = await sessionAt(request, 'second-factor');
    if (half === undefined) return consoleHeaders(reply).code(303).header('Location', '/console/sign-in').send();
    return send(reply, 200, secondStepPage(request, consoleCsrfToken(half.token)));
  });

  app.post('/sign-in/code', hidden, async (request, reply) => {
    const half = await sessionAt(request, 'second-factor');
    if (half === undefined) return consoleHeaders(reply).code(303).header('Location', '/console/sign-in').send();
    if (!sameOriginPost(request, services.config.baseUrl) || !consoleCsrfValid(half.token, field(request.body, CSRF_FIELD))) {
      return send(reply, 403, authPage('This form has expired', html`<p>Please <a href="/console/sign-in">sign in again</a>.</p>`));
    }
    const check = await users.checkSecondFactor(half.session.user.id, field(request.body, 'code'));
    return afterCode(request, reply, half.token, 'second-factor', check, 'sign-in', async (csrf, problem) => secondStepPage(request, csrf, problem));
  });

  const enrolPage = async (request: FastifyRequest, userId: string, csrf: string, problem?: string): Promise<string> => {
    const enrolment = await users.secondFactorEnrolment(userId);
    const qr = await qrCodeSvg(enrolment.uri);
    return authPage(
      'Set up your second factor',
      new SafeHtml(
        codeForm(
          withNext(request, '/console/sign-in/enrol'),
          csrf,
          problem,
          html`<p>The console asks for a code from an authenticator app as well as your password. Scan this code with the app (or enter the key by hand), then type the code it shows.</p>
<div class="qr" role="img" aria-label="QR code of the authenticator set-up link">${new SafeHtml(qr)}</div>
<p><span class="muted">Key:</span> <code class="mono">${enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</code></p>
<details class="more"><summary>Set-up link</summary><p class="mono">${enrolment.uri}</p></details>`,
        ),
      ),
    );
  };

  app.get('/sign-in/enrol', hidden, async (request, reply) => {
    const half = await sessionAt(request, 'enrol-second-factor');
    if (half === undefined) return consoleHeaders(reply).code(303).header('Location', '/console/sign-in').send();
    return send(reply, 200, await enrolPage(request, half.session.user.id, consoleCsrfToken(half.token)));
  });

  app.post('/sign-in/enrol', hidden, async (request, reply) => {
    const half = await sessionAt(request, 'enrol-second-factor');
    if (half === undefined) return consoleHeaders(reply).code(303).header('Location', '/console/sign-in').send();
    if (!sameOriginPost(request, services.config.baseUrl) || !consoleCsrfValid(half.token, field(request.body, CSRF_FIELD))) {
      return send(reply, 403, authPage('This form has expired', html`<p>Please <a href="/console/sign-in">sign in again</a>.</p>`));
    }
    const userId = half.session.user.id;
    const check = await users.confirmSecondFactor(userId, field(request.body, 'code'));
    return afterCode(request, reply, half.token, 'enrol-second-factor', check, 'second-factor.enrolled', (csrf, problem) => enrolPage(request, userId, csrf, problem));
  });

}

export function registerSignOut(router: ConsoleRouter, services: ConsoleServices): void {
  const { sessions, audit } = services;
  router.post('/sign-out', {}, async ({ request, viewer }) => {
    await sessions.end(cookieValue(request, SESSION_COOKIE));
    await audit.record(viewer.actor, { action: 'sign-out', clientId: viewer.user.clientId });
    return { kind: 'redirect', location: '/console/sign-in', endSession: true };
  });
}
