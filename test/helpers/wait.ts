/**
 * Polling helpers for tests that wait on background work; every wait is bounded. The bound only ends a test that is
 * broken: a passing one returns as soon as the condition holds. So it is generous (a loaded machine, 2 cores at load
 * ~19, makes background work many times slower) and never the thing a test checks.
 */

/** How long a wait may take before the test fails, by default. */
export const WAIT_BOUND_MS = 60_000;

/**
 * How long a process the tests start (the service through tsx, the CLI) may take to become ready or to end: starting
 * one loads and compiles the sources, which a machine loaded many times over its cores stretches to minutes.
 */
export const PROCESS_BOUND_MS = 300_000;

/** Calls `probe` every `intervalMs` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = WAIT_BOUND_MS,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** An access token with every scope of the client, from a running service. */
export async function clientToken(serviceUrl: string, client: { clientId: string; clientSecret: string }): Promise<string> {
  const response = await fetch(`${serviceUrl}/api/v1/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Waits until `condition` holds, checking every 25 ms; fails after `timeoutMs`. */
export async function waitUntil(what: string, condition: () => boolean, timeoutMs = WAIT_BOUND_MS): Promise<void> {
  await waitFor(what, () => (condition() ? true : undefined), timeoutMs, 25);
}
