/** Who is looking at a console page, and what follows from it for every query and every audit entry. */
import type { FastifyRequest } from 'fastify';
import type { ConsoleUser } from '../people/accounts.js';
import type { AuditActor } from '../people/audit-log.js';

export interface Viewer {
  readonly user: ConsoleUser;
  /** The token every form of this session carries. */
  readonly csrfToken: string;
  /**
   * The one client whose data this viewer may see: a member's client. Undefined for operators (every client).
   * Every query of client data takes it; a row of another client is answered as not found (404), never 403.
   */
  readonly clientScope: string | undefined;
  /** A member's client's name, for the header. */
  readonly clientName: string | undefined;
  readonly actor: AuditActor;
}

/** The audit actor of a request: the user (or the email typed at sign-in), the address and the browser. */
export function actorOf(request: FastifyRequest, user: ConsoleUser | undefined, typedEmail?: string): AuditActor {
  return {
    id: user?.id ?? null,
    label: user?.email ?? (typedEmail ?? '').slice(0, 254),
    role: user?.role ?? 'anonymous',
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
  };
}
