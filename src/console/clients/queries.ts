/**
 * What the Clients pages read and change (src/auth/clients.ts, src/branding/client-branding.ts): the clients a viewer
 * may see with their branding, one client with its members, and the changes an operator makes, each audited here.
 */
import type { ClientSummary, IssuedClientCredentials } from '../../auth/clients.js';
import type { Scope } from '../../auth/scopes.js';
import { BrandingError, type BrandingChanges, type ClientBranding } from '../../branding/client-branding.js';
import type { ProcessedLogo } from '../../branding/logo.js';
import type { ConsoleUser } from '../../people/accounts.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';

/** The clients this viewer may see (a member: their own), with their branding. */
export async function visibleClients(
  services: ConsoleServices,
  viewer: Viewer,
): Promise<{ clients: ClientSummary[]; brandings: Map<string, ClientBranding> }> {
  const all = await services.clients.list();
  const clients = viewer.clientScope === undefined ? all : all.filter((client) => client.clientId === viewer.clientScope);
  const brandings = new Map((await services.branding.list()).map((branding) => [branding.clientId, branding]));
  return { clients, brandings };
}

/** The client, if this viewer may see it (else undefined: answered as not found, as an unknown one). */
export async function visibleClient(services: ConsoleServices, viewer: Viewer, clientId: string): Promise<ClientSummary | undefined> {
  if (viewer.clientScope !== undefined && viewer.clientScope !== clientId) return undefined;
  return (await services.clients.list()).find((client) => client.clientId === clientId);
}

export async function clientDetails(
  services: ConsoleServices,
  clientId: string,
): Promise<{ branding: ClientBranding | undefined; members: ConsoleUser[] }> {
  const branding = await services.branding.get(clientId);
  const members = await services.users.list({ clientId });
  return { branding, members };
}

export async function createClient(
  services: ConsoleServices,
  viewer: Viewer,
  client: { name: string; environment: 'sandbox' | 'production'; scopes: Scope[] },
): Promise<IssuedClientCredentials> {
  const issued = await services.clients.create(client);
  await services.audit.record(viewer.actor, {
    action: 'client.created',
    clientId: issued.clientId,
    target: issued.clientId,
    details: { name: client.name, environment: client.environment, scopes: issued.scopes },
  });
  return issued;
}

export async function rotateSecret(services: ConsoleServices, viewer: Viewer, clientId: string): Promise<string> {
  const rotated = await services.clients.rotateSecret(clientId);
  await services.audit.record(viewer.actor, { action: 'client.secret-rotated', clientId, target: clientId });
  return rotated.clientSecret;
}

export async function rotateWebhookSecret(services: ConsoleServices, viewer: Viewer, clientId: string): Promise<string> {
  const rotated = await services.clients.rotateWebhookSecret(clientId, services.config.webhooks.secretGraceSeconds);
  await services.audit.record(viewer.actor, {
    action: 'client.webhook-secret-rotated',
    clientId,
    target: clientId,
    details: { previousSecretExpiresAt: rotated.previousSecretExpiresAt },
  });
  return rotated.webhookSecret;
}

export async function disableClient(services: ConsoleServices, viewer: Viewer, clientId: string): Promise<void> {
  await services.clients.disable(clientId);
  await services.audit.record(viewer.actor, { action: 'client.disabled', clientId, target: clientId });
}

export async function setScopes(services: ConsoleServices, viewer: Viewer, clientId: string, scopes: Scope[]): Promise<void> {
  await services.clients.setScopes(clientId, scopes);
  await services.audit.record(viewer.actor, { action: 'client.scopes-changed', clientId, target: clientId, details: { scopes } });
}

/** Saves the branding changes; the problems when the branding store refuses them (nothing is saved then). */
export async function updateBranding(
  services: ConsoleServices,
  viewer: Viewer,
  clientId: string,
  changes: BrandingChanges,
): Promise<readonly string[] | undefined> {
  try {
    await services.branding.update(clientId, changes);
  } catch (error) {
    if (error instanceof BrandingError) return [...error.problems];
    throw error;
  }
  await services.audit.record(viewer.actor, {
    action: 'client.branding-changed',
    clientId,
    target: clientId,
    details: { changed: Object.keys(changes) },
  });
  return undefined;
}

export async function saveLogo(services: ConsoleServices, viewer: Viewer, clientId: string, logo: ProcessedLogo): Promise<void> {
  await services.branding.update(clientId, { logo });
  await services.audit.record(viewer.actor, {
    action: 'client.branding-changed',
    clientId,
    target: clientId,
    details: { changed: ['logo'], logoSha256: logo.sha256 },
  });
}
