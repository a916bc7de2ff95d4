/**
 * Signing in and out: the email and password (argon2id), then for everyone (operators and members) the code of their
 * authenticator (or, the first time, enrolling one: a QR code and the `otpauth://` URI), each step a session stage of
 * its own with a new cookie value; the lock-out counts wrong passwords and wrong codes alike (src/people/accounts.ts).
 * Every attempt is written to the audit log, failed ones too (src/console/sign-in/queries.ts).
 *
 * Who may take a step is checked by the steps' own hooks: a step's half-way session (else back to the sign-in page),
 * and for a post our own origin and the form's CSRF token (keyed by the pre-session cookie before any session).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { CredentialCheck } from '../../people/accounts.js';
import type { App } from '../../http/fastify-types.js';
import { sameOriginPost } from '../../hosted/security.js';
import type { ConsoleSessionStage } from '../../storage/schema.js';
import { firstFormText, signedInSession, viewerOf } from '../access.js';
import { sendPage, seeOther, seeOtherSignedOut } from '../replies.js';
import { CsrfField, FormText, NoQuery, QueryText, type RequestOf } from '../schemas.js';
import {
  clearConsoleCookie,
  consoleCsrfToken,
  consoleCsrfValid,
  cookieValue,
  CSRF_FIELD,
  newPreSessionKey,
  PRE_SESSION_COOKIE,
  SESSION_COOKIE,
  setConsoleCookie,
} from '../security.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import { afterCode, checkPassword, enrolmentOf, sessionAt, signOut, type HalfWaySession } from './queries.js';
import {
  codePage,
  enrolPage,
  lockedText,
  signedOutPage,
  signInFormExpiredPage,
  signInPage,
  stepFormExpiredPage,
  withNext,
} from './views.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The half-way session of a sign-in step: set by the step's `requireHalfWay` hook, null elsewhere. */
    consoleHalfWay: HalfWaySession | null;
  }
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** A `next` that stays inside the console (never another host, never `//evil`). */
function safeNext(next: string | undefined): string | undefined {
  return next !== undefined && /^\/console(\/[A-Za-z0-9/_?=&%.,:+-]*)?$/.test(next) && !next.startsWith('/console/sign-')
    ? next
    : undefined;
}

/** Fields longer than this are cut, not refused: a pasted password of any length is answered as a wrong one. */
const cut = (value: string | undefined): string => (value ?? '').slice(0, 512);

function halfWayOf(request: FastifyRequest): HalfWaySession {
  const half = request.consoleHalfWay;
  if (half === null) throw new Error('a sign-in step ran without its half-way session check');
  return half;
}

/** A step's half-way session at the stage, or back to the sign-in page. */
function requireHalfWay(services: ConsoleServices, stage: ConsoleSessionStage): Hook {
  return async function requireHalfWayHook(request, reply) {
    const half = await sessionAt(services, request, stage);
    if (half === undefined) return seeOther(reply, '/console/sign-in');
    request.consoleHalfWay = half;
    return undefined;
  };
}

/** A step's form from our own origin with the half-way session's CSRF token, or 403. */
function requireStepForm(services: ConsoleServices): Hook {
  return async function requireStepFormHook(request, reply) {
    if (
      sameOriginPost(request, services.config.baseUrl) &&
      consoleCsrfValid(halfWayOf(request).token, firstFormText(request.body, CSRF_FIELD))
    )
      return undefined;
    return sendPage(reply, stepFormExpiredPage(), 403);
  };
}

/** The password form from our own origin with the pre-session's CSRF token, or 403. */
function requireSignInForm(services: ConsoleServices): Hook {
  return async function requireSignInFormHook(request, reply) {
    if (
      sameOriginPost(request, services.config.baseUrl) &&
      consoleCsrfValid(cookieValue(request, PRE_SESSION_COOKIE), firstFormText(request.body, CSRF_FIELD))
    )
      return undefined;
    return sendPage(reply, signInFormExpiredPage(), 403);
  };
}

const NextQuery = Type.Object({ next: Type.Optional(QueryText) });
const SignInPageRoute = { querystring: NextQuery };

async function showSignIn(
  services: ConsoleServices,
  request: RequestOf<typeof SignInPageRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if ((await signedInSession(services, request)) !== undefined) return seeOther(reply, '/console');
  await services.sessions.sweep();
  let key = cookieValue(request, PRE_SESSION_COOKIE);
  if (key === undefined || key.length < 43) {
    key = newPreSessionKey();
    setConsoleCookie(reply, services.cookies, PRE_SESSION_COOKIE, key);
  }
  return sendPage(reply, signInPage(consoleCsrfToken(key), safeNext(request.query.next), []));
}

const PasswordRoute = {
  querystring: NextQuery,
  body: Type.Object({ ...CsrfField, email: Type.Optional(Type.String()), password: Type.Optional(Type.String()) }),
};

/** What a refused password step says: the same for an unknown email, a wrong password and a disabled account. */
function refusal(check: CredentialCheck): string {
  if (check.outcome === 'locked' || (check.outcome === 'refused' && check.nowLocked && check.user !== undefined))
    return check.user === undefined ? '' : lockedText(check.user);
  return 'The email or the password is wrong.';
}

async function takePassword(
  services: ConsoleServices,
  request: RequestOf<typeof PasswordRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const next = safeNext(request.query.next);
  const email = cut(request.body.email);
  const { check, next: step } = await checkPassword(services, request, email, cut(request.body.password));
  if (step === undefined) {
    const csrf = consoleCsrfToken(cookieValue(request, PRE_SESSION_COOKIE) ?? '');
    return sendPage(reply, signInPage(csrf, next, [refusal(check)], email), check.outcome === 'locked' ? 429 : 401);
  }
  setConsoleCookie(reply, services.cookies, SESSION_COOKIE, step.token);
  clearConsoleCookie(reply, services.cookies, PRE_SESSION_COOKIE);
  return seeOther(reply, withNext(step.stage === 'second-factor' ? '/console/sign-in/code' : '/console/sign-in/enrol', next));
}

/** Signed in (to `next` or the viewer's start page), the form again with why not, or signed out when the account locked. */
async function answerCode(
  services: ConsoleServices,
  request: RequestOf<typeof CodeRoute>,
  reply: FastifyReply,
  stage: ConsoleSessionStage,
  check: CredentialCheck,
  again: (csrf: string, problem: string) => Promise<string>,
): Promise<FastifyReply> {
  const half = halfWayOf(request);
  const outcome = await afterCode(services, request, half, stage, check, stage === 'second-factor' ? 'sign-in' : 'second-factor.enrolled');
  switch (outcome.kind) {
    case 'signed-in':
      setConsoleCookie(reply, services.cookies, SESSION_COOKIE, outcome.token);
      return seeOther(
        reply,
        safeNext(request.query.next) ?? (check.user === undefined ? '/console' : services.navigation.homeOf(check.user)),
      );
    case 'raced':
      return seeOther(reply, '/console/sign-in');
    case 'wrong-code':
      return sendPage(
        reply,
        await again(consoleCsrfToken(half.token), 'That code is not right. Use the newest code your authenticator app shows.'),
        401,
      );
    case 'ended':
      clearConsoleCookie(reply, services.cookies, SESSION_COOKIE);
      return sendPage(
        reply,
        signedOutPage(check.outcome === 'disabled' || check.user === undefined ? 'This account cannot sign in.' : lockedText(check.user)),
        429,
      );
  }
}

const StepPageRoute = { querystring: NextQuery };
const CodeRoute = { querystring: NextQuery, body: Type.Object({ ...CsrfField, code: Type.Optional(FormText) }) };

async function showCodeStep(request: RequestOf<typeof StepPageRoute>, reply: FastifyReply): Promise<FastifyReply> {
  return sendPage(reply, codePage(safeNext(request.query.next), consoleCsrfToken(halfWayOf(request).token)));
}

async function takeCode(services: ConsoleServices, request: RequestOf<typeof CodeRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const check = await services.users.checkSecondFactor(halfWayOf(request).session.user.id, cut(request.body.code));
  return answerCode(services, request, reply, 'second-factor', check, async (csrf, problem) =>
    codePage(safeNext(request.query.next), csrf, problem),
  );
}

async function showEnrolStep(
  services: ConsoleServices,
  request: RequestOf<typeof StepPageRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const half = halfWayOf(request);
  return sendPage(
    reply,
    enrolPage(safeNext(request.query.next), await enrolmentOf(services, half.session.user.id), consoleCsrfToken(half.token)),
  );
}

async function takeEnrolmentCode(
  services: ConsoleServices,
  request: RequestOf<typeof CodeRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const userId = halfWayOf(request).session.user.id;
  const check = await services.users.confirmSecondFactor(userId, cut(request.body.code));
  return answerCode(services, request, reply, 'enrol-second-factor', check, async (csrf, problem) =>
    enrolPage(safeNext(request.query.next), await enrolmentOf(services, userId), csrf, problem),
  );
}

/** The sign-in steps, for anyone (the console's public part). */
export async function registerSignInRoutes(steps: App, services: ConsoleServices): Promise<void> {
  steps.decorateRequest('consoleHalfWay', null);
  const atCode = requireHalfWay(services, 'second-factor');
  const atEnrol = requireHalfWay(services, 'enrol-second-factor');
  const stepForm = requireStepForm(services);
  steps.get('/sign-in', { schema: SignInPageRoute }, (request, reply) => showSignIn(services, request, reply));
  steps.post('/sign-in', { schema: PasswordRoute, preValidation: requireSignInForm(services) }, (request, reply) =>
    takePassword(services, request, reply),
  );
  steps.get('/sign-in/code', { schema: StepPageRoute, onRequest: atCode }, showCodeStep);
  steps.post('/sign-in/code', { schema: CodeRoute, onRequest: atCode, preValidation: stepForm }, (request, reply) =>
    takeCode(services, request, reply),
  );
  steps.get('/sign-in/enrol', { schema: StepPageRoute, onRequest: atEnrol }, (request, reply) => showEnrolStep(services, request, reply));
  steps.post('/sign-in/enrol', { schema: CodeRoute, onRequest: atEnrol, preValidation: stepForm }, (request, reply) =>
    takeEnrolmentCode(services, request, reply),
  );
}

const SignOutRoute = { querystring: NoQuery, body: Type.Object(CsrfField) };

async function signOutViewer(
  services: ConsoleServices,
  request: RequestOf<typeof SignOutRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  await signOut(services, request);
  await services.audit.record(viewer.actor, { action: 'sign-out', clientId: viewer.user.clientId });
  return seeOtherSignedOut(reply, services.cookies, '/console/sign-in');
}

/** Signing out: a signed-in person's form, so among the signed-in pages. */
export const signOutSection: ConsoleSectionRoutes = {
  routes: async (pages, services) => {
    pages.post('/sign-out', { schema: SignOutRoute }, (request, reply) => signOutViewer(services, request, reply));
  },
};
