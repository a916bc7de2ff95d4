/**
 * What protects the hosted pages:
 * - headers on every page: a strict Content-Security-Policy (scripts, styles and images only our own files, no
 *   inline script or style; the script may ask only us; no framing), `Referrer-Policy: no-referrer` (the flow link never leaks to the bank or the
 *   shop), `Cache-Control: no-store`;
 * - a CSRF token in every form: HMAC-SHA256 of the form's action under a random key of the payment (kept in its
 *   flow state, so every process of a deployment checks it alike), compared in constant time; and cross-site
 *   form posts are refused by the browser's Fetch Metadata (`Sec-Fetch-Site`) and `Origin` where sent.
 *
 * `form-action` is deliberately absent from the CSP: our forms post to ourselves, but the answer may redirect the
 * payer to the bank or back to the shop, and browsers apply `form-action` to those redirects too.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'";

export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Cross-Origin-Opener-Policy', 'same-origin');
}

export function newPageKey(): string {
  return randomBytes(32).toString('base64url');
}

export function csrfToken(pageKey: string, action: string): string {
  return createHmac('sha256', Buffer.from(pageKey, 'base64url')).update(`csrf:${action}`).digest('base64url');
}

export function csrfValid(pageKey: string | undefined, action: string, given: unknown): boolean {
  if (pageKey === undefined || typeof given !== 'string' || given.length > 128) return false;
  const expected = Buffer.from(csrfToken(pageKey, action));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** False for a form post another site made the payer's browser send. */
export function sameOriginPost(request: FastifyRequest, baseUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  // Browsers send `Origin: null` on our pages because of `Referrer-Policy: no-referrer`.
  return origin === undefined || origin === 'null' || origin === new URL(baseUrl).origin;
}

/** A cookie of ours the payer's browser sent (undefined: absent, or longer than any we set). */
export function payerCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined || header.length > 8192) return undefined;
  const value = parseCookies(header)[name];
  return value !== undefined && value.length <= 128 ? value : undefined;
}

/**
 * A first-party cookie of the payer's pages: sent to our payer pages only (its path under `/pay`), with top-level
 * navigations from the bank too (SameSite=Lax: the payer comes back from the bank's site), never to scripts
 * (HttpOnly), over HTTPS only where we are served so (docs/hosted-pages.md, "Cookies").
 */
export function setPayerCookie(
  reply: FastifyReply,
  cookie: { readonly name: string; readonly value: string; readonly path: string; readonly maxAgeSeconds: number },
  secure: boolean,
): void {
  reply.header(
    'Set-Cookie',
    serializeCookie(cookie.name, cookie.value, {
      path: cookie.path,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: cookie.maxAgeSeconds,
    }),
  );
}
