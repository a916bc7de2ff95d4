/**
 * Per-client rate limit (decisions §6): a token bucket per client, refilled at `perSecond` up to `burst`.
 * Answers 429 with `Retry-After` and the IETF RateLimit headers. The buckets live in this process; behind a
 * load balancer with several processes the effective limit is per process (docs/api-decisions.md).
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import { rootPlugin } from './root-plugin.js';

interface Bucket {
  tokens: number;
  updatedAtMs: number;
}

export interface RateLimitOptions {
  readonly perSecond: number;
  readonly burst: number;
  readonly nowMs?: () => number;
  /** At most this many clients are tracked; the least recently seen are forgotten first. */
  readonly maxClients?: number;
}

export function createRateLimiter(options: RateLimitOptions): (request: FastifyRequest, key: string) => void {
  const buckets = new Map<string, Bucket>();
  const nowMs = options.nowMs ?? Date.now;
  const maxClients = options.maxClients ?? 100_000;
  const policy = `"per-client";q=${options.burst};w=${Math.max(1, Math.ceil(options.burst / options.perSecond))}`;

  return function take(request: FastifyRequest, key: string): void {
    const now = nowMs();
    const existing = buckets.get(key);
    const bucket = existing ?? { tokens: options.burst, updatedAtMs: now };
    bucket.tokens = Math.min(options.burst, bucket.tokens + ((now - bucket.updatedAtMs) / 1000) * options.perSecond);
    bucket.updatedAtMs = now;
    // Re-inserting keeps the Map in least-recently-seen order, so eviction drops idle clients first.
    buckets.delete(key);
    buckets.set(key, bucket);
    if (buckets.size > maxClients) {
      const oldest = buckets.keys().next().value;
      if (oldest !== undefined) buckets.delete(oldest);
    }
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / options.perSecond));
      throw new ApiError(429, `Rate limit of ${options.perSecond} requests per second exceeded; retry after ${retryAfter} s`, {
        'retry-after': String(retryAfter),
        'ratelimit-policy': policy,
        ratelimit: `"per-client";r=0;t=${retryAfter}`,
      });
    }
    bucket.tokens -= 1;
    request.rateLimitHeaders = {
      'ratelimit-policy': policy,
      ratelimit: `"per-client";r=${Math.floor(bucket.tokens)};t=${Math.ceil((options.burst - bucket.tokens) / options.perSecond)}`,
    };
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** RateLimit headers to add to the response, set when the request passed the limiter. */
    rateLimitHeaders: Readonly<Record<string, string>> | null;
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The RateLimit headers a request earned (set by the limiter of the route that checked it) go on its answer. */
export const rateLimitHeaders = rootPlugin('rate-limit-headers', async (app) => {
  app.decorateRequest('rateLimitHeaders', null);
  app.addHook('onSend', async (request, reply) => {
    if (request.rateLimitHeaders !== null) reply.headers(request.rateLimitHeaders);
  });
});
