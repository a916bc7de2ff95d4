/**
 * What signing in reads and writes (src/people/): the half-way session of a step, the password check and the code
 * check with every attempt audited (failed ones too), a step's session moved on to the next stage, and the
 * enrolment of an authenticator.
 */
import type { FastifyRequest } from 'fastify';
import type { CredentialCheck } from '../../people/accounts.js';
import type { ConsoleSession } from '../../people/sessions.js';
import { qrCodeSvg } from '../../people/second-factor.js';
import type { ConsoleSessionStage } from '../../storage/schema.js';
import { cookieValue, SESSION_COOKIE } from '../security.js';
import type { ConsoleServices } from '../services.js';
import { actorOf } from '../viewer.js';
import type { Enrolment } from './views.js';

export interface HalfWaySession {
  readonly session: ConsoleSession;
  readonly token: string;
}

const originOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : '',
});

/** The session of a request half-way through signing in, at the given stage. */
export async function sessionAt(
  services: ConsoleServices,
  request: FastifyRequest,
  stage: ConsoleSessionStage,
): Promise<HalfWaySession | undefined> {
  const token = cookieValue(request, SESSION_COOKIE);
  const session = await services.sessions.find(token);
  return session !== undefined && token !== undefined && session.stage === stage ? { session, token } : undefined;
}

/** The password step: checked and audited; when accepted, the half-way session of the next step (its cookie value). */
export async function checkPassword(
  services: ConsoleServices,
  request: FastifyRequest,
  email: string,
  password: string,
): Promise<{ check: CredentialCheck; next?: { stage: ConsoleSessionStage; token: string } }> {
  const { audit } = services;
  const check = await services.users.checkPassword(email, password);
  const actor = actorOf(request, check.user, email);
  switch (check.outcome) {
    case 'refused':
      await audit.record(actor, { action: 'sign-in.failed', clientId: check.user?.clientId ?? null, details: { step: 'password' } });
      if (check.nowLocked && check.user !== undefined)
        await audit.record(actor, { action: 'account.locked', clientId: check.user.clientId, target: check.user.email });
      return { check };
    case 'disabled':
      await audit.record(actor, { action: 'sign-in.refused', clientId: check.user.clientId, details: { reason: 'disabled' } });
      return { check };
    case 'locked':
      await audit.record(actor, { action: 'sign-in.refused', clientId: check.user.clientId, details: { reason: 'locked' } });
      return { check };
    case 'accepted': {
      // Everyone passes a second factor (members see payers' names and account numbers too): the code, or the
      // enrolment of an authenticator the first time.
      const stage: ConsoleSessionStage = check.user.secondFactor === 'enrolled' ? 'second-factor' : 'enrol-second-factor';
      return { check, next: { stage, token: await services.sessions.start(check.user.id, stage, originOf(request)) } };
    }
  }
}

export type CodeOutcome =
  /** Signed in: the new cookie value. */
  | { readonly kind: 'signed-in'; readonly token: string }
  /** Moved on by another request of this half-way session at the same moment: that one signed in. */
  | { readonly kind: 'raced' }
  | { readonly kind: 'wrong-code' }
  /** Locked (now or before) or disabled: the half-way session has ended. */
  | { readonly kind: 'ended' };

/** The outcome of a code (second step, or enrolment), audited; a lock or a disabled account ends the half-way session. */
export async function afterCode(
  services: ConsoleServices,
  request: FastifyRequest,
  half: HalfWaySession,
  stage: ConsoleSessionStage,
  check: CredentialCheck,
  action: string,
): Promise<CodeOutcome> {
  const { audit, sessions } = services;
  const actor = actorOf(request, check.user);
  if (check.outcome === 'accepted') {
    const fresh = await sessions.advance(half.token, stage, 'signed-in', originOf(request));
    if (fresh === undefined) return { kind: 'raced' };
    await audit.record(actor, { action, clientId: check.user.clientId });
    if (action !== 'sign-in') await audit.record(actor, { action: 'sign-in', clientId: check.user.clientId });
    return { kind: 'signed-in', token: fresh };
  }
  const clientId = check.user?.clientId ?? null;
  // A code checked and wrong is a failed sign-in; one not checked at all (locked or disabled before) is refused.
  if (check.outcome === 'refused') await audit.record(actor, { action: 'sign-in.failed', clientId, details: { step: 'second-factor' } });
  else await audit.record(actor, { action: 'sign-in.refused', clientId, details: { step: 'second-factor', reason: check.outcome } });
  if (check.outcome === 'refused' && !check.nowLocked) return { kind: 'wrong-code' };
  if (check.outcome === 'refused' && check.user !== undefined)
    await audit.record(actor, { action: 'account.locked', clientId, target: check.user.email });
  await sessions.end(half.token);
  return { kind: 'ended' };
}

export async function enrolmentOf(services: ConsoleServices, userId: string): Promise<Enrolment> {
  const enrolment = await services.users.secondFactorEnrolment(userId);
  return { ...enrolment, qrSvg: await qrCodeSvg(enrolment.uri) };
}

export async function signOut(services: ConsoleServices, request: FastifyRequest): Promise<void> {
  await services.sessions.end(cookieValue(request, SESSION_COOKIE));
}
