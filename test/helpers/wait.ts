/** Polling helpers for tests that wait on background work; every wait is bounded. */

/** Calls `probe` every `intervalMs` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 8000, intervalMs = 50): Promise<T> {
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
export async function waitUntil(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  await waitFor(what, () => (condition() ? true : undefined), timeoutMs, 25);
}
