/**
 * The client-credentials token cache: a token is reused until shortly before its `expires_in` runs out, per bank,
 * scope and client identity; concurrent callers share one token request; a failed request is not cached; a 401
 * drops the token and the call is made once more with a fresh one, and only once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BankRejectedError, BankUnavailableError } from '../../../src/connectors/errors.js';
import { issuedToken, TokenCache, type IssuedToken, type TokenKey } from '../../../src/connectors/http/oauth2.js';

const KEY: TokenKey = { bank: 'https://as.bank.example', scope: 'payments', clientId: 'openpis', identity: 'private_key_jwt:kid-1' };

/** A clock the test moves by hand. */
function testClock(start = Date.parse('2026-03-02T10:00:00Z')): { now: () => Date; advance: (ms: number) => void } {
  let at = start;
  return { now: () => new Date(at), advance: (ms) => (at += ms) };
}

/** A token endpoint stand-in counting its requests; each answers `t<n>` with the given lifetime. */
function tokenEndpoint(lifetime: number | 'not given' = 300): { fetch: () => Promise<IssuedToken>; readonly count: number } {
  let count = 0;
  return {
    fetch: () => {
      count += 1;
      return Promise.resolve({ accessToken: `t${count}`, expiresInSeconds: lifetime === 'not given' ? undefined : lifetime });
    },
    get count() {
      return count;
    },
  };
}

/** A promise resolved by hand (to hold a token request open while others arrive). */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const unauthorised = (): BankRejectedError => new BankRejectedError('getPaymentStatus', 401, 'BANK_REJECTED', []);

describe('token cache: lifetime', () => {
  it('reuses the token while it lives and fetches a new one shortly before expires_in runs out', async () => {
    const clock = testClock();
    const cache = new TokenCache({ now: clock.now });
    const endpoint = tokenEndpoint(300);
    assert.equal(await cache.token(KEY, endpoint.fetch), 't1');
    clock.advance(200_000);
    assert.equal(await cache.token(KEY, endpoint.fetch), 't1');
    assert.equal(endpoint.count, 1);
    // 300 s lifetime: given out until 30 s (a tenth) before its end.
    clock.advance(75_000);
    assert.equal(await cache.token(KEY, endpoint.fetch), 't2');
    assert.equal(endpoint.count, 2);
  });

  it('the margin before the end is at most a minute for long-lived tokens', async () => {
    const clock = testClock();
    const cache = new TokenCache({ now: clock.now });
    const endpoint = tokenEndpoint(3600);
    await cache.token(KEY, endpoint.fetch);
    clock.advance(3600_000 - 61_000);
    assert.equal(await cache.token(KEY, endpoint.fetch), 't1');
    clock.advance(2_000);
    assert.equal(await cache.token(KEY, endpoint.fetch), 't2');
  });

  it('a token without expires_in is used by the calls waiting for it only', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const endpoint = tokenEndpoint('not given');
    assert.equal(await cache.token(KEY, endpoint.fetch), 't1');
    assert.equal(await cache.token(KEY, endpoint.fetch), 't2');
  });

  it('keeps tokens apart per bank, scope, client id and identity', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const endpoint = tokenEndpoint();
    const keys: TokenKey[] = [
      KEY,
      { ...KEY, bank: 'https://as.other.example' },
      { ...KEY, scope: 'accounts' },
      { ...KEY, clientId: 'another-client' },
      { ...KEY, identity: 'private_key_jwt:kid-2' },
    ];
    const tokens = await Promise.all(keys.map((key) => cache.token(key, endpoint.fetch)));
    assert.equal(new Set(tokens).size, keys.length);
    assert.equal(await cache.token(KEY, endpoint.fetch), tokens[0]);
    assert.equal(endpoint.count, keys.length);
  });
});

describe('token cache: single flight', () => {
  it('20 concurrent calls make one token request and all get its token', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const answer = deferred<IssuedToken>();
    let requests = 0;
    const fetch = (): Promise<IssuedToken> => {
      requests += 1;
      return answer.promise;
    };
    const waiting = Array.from({ length: 20 }, () => cache.token(KEY, fetch));
    answer.resolve({ accessToken: 'shared', expiresInSeconds: 300 });
    assert.deepEqual(
      await Promise.all(waiting),
      Array.from({ length: 20 }, () => 'shared'),
    );
    assert.equal(requests, 1);
  });

  it('a failed request fails every caller waiting on it and is not cached', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const answer = deferred<IssuedToken>();
    let requests = 0;
    const failing = (): Promise<IssuedToken> => {
      requests += 1;
      return answer.promise;
    };
    const waiting = Array.from({ length: 20 }, () => cache.token(KEY, failing));
    answer.reject(new BankUnavailableError('token', 'timeout'));
    const results = await Promise.allSettled(waiting);
    assert.ok(results.every((result) => result.status === 'rejected' && result.reason instanceof BankUnavailableError));
    assert.equal(requests, 1);
    const endpoint = tokenEndpoint();
    assert.equal(await cache.token(KEY, endpoint.fetch), 't1');
  });
});

describe('token cache: 401', () => {
  it('drops the token and makes the call once more with a fresh one', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const endpoint = tokenEndpoint();
    await cache.token(KEY, endpoint.fetch);
    const used: string[] = [];
    const result = await cache.withToken(KEY, endpoint.fetch, (token) => {
      used.push(token);
      return used.length === 1 ? Promise.reject(unauthorised()) : Promise.resolve('status');
    });
    assert.equal(result, 'status');
    assert.deepEqual(used, ['t1', 't2']);
    assert.equal(endpoint.count, 2);
    // The fresh token is the cached one from now on.
    assert.equal(await cache.token(KEY, endpoint.fetch), 't2');
  });

  it('refreshes once only: a second 401 is the bank answer', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const endpoint = tokenEndpoint();
    let calls = 0;
    await assert.rejects(
      cache.withToken(KEY, endpoint.fetch, () => {
        calls += 1;
        return Promise.reject(unauthorised());
      }),
      (error: unknown) => error instanceof BankRejectedError && error.httpStatus === 401,
    );
    assert.equal(calls, 2);
    assert.equal(endpoint.count, 2);
  });

  it('20 concurrent calls refused with 401 share one refresh', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const endpoint = tokenEndpoint();
    await cache.token(KEY, endpoint.fetch);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        cache.withToken(KEY, endpoint.fetch, (token) => (token === 't1' ? Promise.reject(unauthorised()) : Promise.resolve(token))),
      ),
    );
    assert.ok(results.every((token) => token === 't2'));
    assert.equal(endpoint.count, 2);
  });

  it('other refusals and no answer are not retried', async () => {
    const cache = new TokenCache({ now: testClock().now });
    const endpoint = tokenEndpoint();
    for (const error of [new BankRejectedError('op', 403, 'BANK_REJECTED', []), new BankUnavailableError('op', 'timeout')]) {
      let calls = 0;
      await assert.rejects(
        cache.withToken(KEY, endpoint.fetch, () => {
          calls += 1;
          return Promise.reject(error);
        }),
        (caught: unknown) => caught === error,
      );
      assert.equal(calls, 1);
    }
    assert.equal(endpoint.count, 1);
  });
});

describe('token answer', () => {
  it('reads access_token and expires_in (a number or a numeric string); no token is a protocol error', () => {
    assert.deepEqual(issuedToken('op', { access_token: 'a', expires_in: 60 }), { accessToken: 'a', expiresInSeconds: 60 });
    assert.deepEqual(issuedToken('op', { access_token: 'a', expires_in: '60' }), { accessToken: 'a', expiresInSeconds: 60 });
    assert.deepEqual(issuedToken('op', { access_token: 'a', expires_in: -1 }), { accessToken: 'a', expiresInSeconds: undefined });
    assert.throws(() => issuedToken('op', { token_type: 'Bearer' }), /no access_token/);
  });
});
