/**
 * What the People pages read and change: every person with their client's name, a person with their recent
 * actions, and the changes an operator makes (each audited here). Passwords are made by the service, never chosen
 * by an operator (docs/console.md, "Decisions").
 */
import { randomBytes } from 'node:crypto';
import type { ConsoleUser } from '../../people/accounts.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';

export interface ClientName {
  readonly clientId: string;
  readonly name: string;
}

export type AuditEntries = Awaited<ReturnType<ConsoleServices['audit']['list']>>;

export const newPassword = (): string => randomBytes(18).toString('base64url');

export async function peopleAndClients(services: ConsoleServices): Promise<{ people: ConsoleUser[]; clients: ClientName[] }> {
  const [people, clients] = await Promise.all([services.users.list(), services.clients.list()]);
  return { people, clients };
}

export interface NewPerson {
  readonly email: string;
  readonly name: string;
  readonly role: 'operator' | 'member';
  /** A member's client (ignored for an operator). */
  readonly client: string | undefined;
}

/** Creates the person with a new password (returned, to be shown once); ConsoleUserError when refused. */
export async function createPerson(
  services: ConsoleServices,
  viewer: Viewer,
  person: NewPerson,
): Promise<{ created: ConsoleUser; password: string }> {
  const password = newPassword();
  const created = await services.users.create({
    email: person.email,
    name: person.name,
    role: person.role,
    clientId: person.role === 'member' && person.client !== undefined && person.client !== '' ? person.client : undefined,
    password,
  });
  await services.audit.record(viewer.actor, {
    action: 'user.created',
    clientId: created.clientId,
    target: created.email,
    details: { role: person.role },
  });
  return { created, password };
}

export async function findPerson(services: ConsoleServices, userId: string): Promise<ConsoleUser | undefined> {
  return services.users.get(userId);
}

/** What a person's page shows beside the account: their client's name and their last ten actions. */
export async function personDetails(
  services: ConsoleServices,
  person: ConsoleUser,
): Promise<{ client: ClientName | undefined; recent: AuditEntries }> {
  const client =
    person.clientId === null ? undefined : (await services.clients.list()).find((candidate) => candidate.clientId === person.clientId);
  const recent = await services.audit.list({ actor: person.email, limit: 10 });
  return { client, recent };
}

/** The changes of a person's page, by the last segment of their address, with their audit action. */
export const PERSON_CHANGES = {
  disable: { action: 'user.disabled', change: (services: ConsoleServices, id: string) => services.users.disable(id) },
  enable: { action: 'user.enabled', change: (services: ConsoleServices, id: string) => services.users.enable(id) },
  unlock: { action: 'user.unlocked', change: (services: ConsoleServices, id: string) => services.users.unlock(id) },
  'reset-second-factor': {
    action: 'user.second-factor-reset',
    change: (services: ConsoleServices, id: string) => services.users.resetSecondFactor(id),
  },
} as const;
export type PersonChange = keyof typeof PERSON_CHANGES;

export async function changePerson(services: ConsoleServices, viewer: Viewer, person: ConsoleUser, change: PersonChange): Promise<void> {
  const { action, change: work } = PERSON_CHANGES[change];
  await work(services, person.id);
  await services.audit.record(viewer.actor, { action, clientId: person.clientId, target: person.email });
}

/** A new password for the person (their sessions end), returned to be shown once. */
export async function resetPassword(
  services: ConsoleServices,
  viewer: Viewer,
  person: ConsoleUser,
): Promise<{ changed: ConsoleUser; password: string }> {
  const password = newPassword();
  const changed = await services.users.resetPassword(person.id, password);
  await services.audit.record(viewer.actor, { action: 'user.password-reset', clientId: person.clientId, target: person.email });
  return { changed, password };
}
