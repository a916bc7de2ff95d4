/**
 * What protects the console (docs/console.md, "Security"):
 * - the session cookie: HttpOnly, SameSite=Strict, Path=/console, Secure whenever BASE_URL is https; its value is
 *   256 random bits the database knows only as a hash (src/people/sessions.ts);
 * - a CSRF token in every form: HMAC-SHA256 keyed with the session's cookie value (which another site can neither
 *   read nor set), compared in constant time; before sign-in the same with a pre-session cookie. Cross-site posts
 *   are refused besides, by Fetch Metadata and Origin (the payer pages' rule, src/hosted/security.ts);
 * - the payer pages' headers, a CSP without any script (`script-src` absent: nothing runs), plus
 *   `form-action 'self'` (every console form posts to the console and is answered inside it).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CONSOLE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export const SESSION_COOKIE = 'openpis_console';
/** Carries the key of the sign-in form's CSRF token before any session exists. */
export const PRE_SESSION_COOKIE = 'openpis_console_pre';
export const CSRF_FIELD = '_csrf';

export function consoleHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CONSOLE_CSP)
    .header('Referrer-Policy', 'same-origin')
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('Cross-Origin-Resource-Policy', 'same-origin');
}

export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  return parseCookies(header)[name];
}

export interface CookieSettings {
  /** Secure cookies: BASE_URL is https (a browser would refuse to send them over plain http). */
  readonly secure: boolean;
}

/** A console cookie: only for /console, only to our own pages (SameSite=Strict), never to scripts (HttpOnly). */
export function setConsoleCookie(reply: FastifyReply, settings: CookieSettings, name: string, value: string, maxAgeSeconds?: number): void {
  reply.header(
    'Set-Cookie',
    serializeCookie(name, value, {
      path: '/console',
      httpOnly: true,
      sameSite: 'strict',
      secure: settings.secure,
      ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
    }),
  );
}

export function clearConsoleCookie(reply: FastifyReply, settings: CookieSettings, name: string): void {
  setConsoleCookie(reply, settings, name, '', 0);
}

export function newPreSessionKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The form token of a session (or pre-session) cookie value. */
export function consoleCsrfToken(cookie: string): string {
  return createHmac('sha256', Buffer.from(cookie, 'utf8')).update('openpis-console-csrf').digest('base64url');
}

export function consoleCsrfValid(cookie: string | undefined, given: unknown): boolean {
  if (cookie === undefined || cookie === '' || typeof given !== 'string' || given.length > 128) return false;
  const expected = Buffer.from(consoleCsrfToken(cookie));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
