/**
 * Binding a listener, with a port that cannot be had told in one line that names the setting to change, not as
 * Node's stack trace. Every listener a process opens goes through here (the API, the metrics listener, the
 * stand-alone sandbox bank), and a process binds all of them before it starts serving.
 */

/** A listener could not be bound; the message is the whole story, for the operator. */
export class ListenerUnavailableError extends Error {}

/** What a bind failure means, by the system's error code. */
const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the address is already in use (another openpis on this machine?)',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'no such address on this machine',
};

/**
 * Calls `listen` (a Fastify instance's, typically); a bind failure becomes a `ListenerUnavailableError` saying
 * what `what` could not listen on, why, and `fix` (which setting to change). Other errors pass unchanged.
 */
export async function listenOrExplain<T>(
  listen: () => Promise<T>,
  target: { readonly what: string; readonly host: string; readonly port: number; readonly fix: string },
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
    const reason = code === undefined ? undefined : REASONS[code];
    if (reason === undefined) throw error;
    const host = target.host.includes(':') ? `[${target.host}]` : target.host;
    throw new ListenerUnavailableError(`Cannot listen for ${target.what} on ${host}:${target.port}: ${reason}. ${target.fix}`);
  }
}
