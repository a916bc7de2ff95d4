/**
 * The payer's browser reduced to HTTP for tests that need no real browser: reads our pages, finds a form by its
 * action and posts it with its CSRF token, and follows nothing by itself (every redirect is asserted).
 */
import assert from 'node:assert/strict';
import { waitFor } from '../helpers/wait.js';

export interface Answer {
  readonly status: number;
  readonly location: string | undefined;
  readonly html: string;
  readonly headers: Headers;
}

export async function get(url: string, headers: Record<string, string> = {}, seen?: string[]): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual', headers });
  const html = await response.text();
  seen?.push(html);
  return { status: response.status, location: response.headers.get('location') ?? undefined, html, headers: response.headers };
}

export async function post(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  seen?: string[],
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const html = await response.text();
  seen?.push(html);
  return { status: response.status, location: response.headers.get('location') ?? undefined, html, headers: response.headers };
}

/** The CSRF token of the form posting to `/pay/<token>/<action>` on a page. */
export function csrfOf(html: string, action: string): string {
  const form = new RegExp(`<form method="post" action="[^"]*/${action}"[^>]*><input type="hidden" name="csrf" value="([^"]+)">`).exec(html);
  assert.ok(form?.[1] !== undefined, `no ${action} form on the page:\n${html.slice(0, 2000)}`);
  return form[1];
}

/** Posts the page's form for `action` with its token. */
export async function submit(
  pageUrl: string,
  html: string,
  action: string,
  fields: Record<string, string> = {},
  seen?: string[],
): Promise<Answer> {
  return post(`${pageUrl}/${action}`, { csrf: csrfOf(html, action), ...fields }, {}, seen);
}

/** The credential and code fields a page of ours asks for (by input name). */
export function fieldsAsked(html: string): string[] {
  return [...html.matchAll(/<input type="(?:text|password)" id="[^"]*" name="(loginId|password|iban|otp)"/g)]
    .map((match) => match[1] ?? '')
    .sort();
}

/** The page's main heading, as text. */
export function headingOf(html: string): string {
  return /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? '';
}

/**
 * Opens the flow link and goes on from the review page ("Continue", which calls the bank) to the first page that
 * needs the payer, following our own redirects. Returns that page, or the redirect to the bank or the shop.
 */
export async function openFlow(redirectUrl: string, seen?: string[]): Promise<Answer> {
  let page = await get(redirectUrl, {}, seen);
  if (page.status === 200 && page.html.includes(`/continue"`)) {
    const continued = await submit(redirectUrl, page.html, 'continue', {}, seen);
    if (continued.status !== 303 || continued.location === undefined || !continued.location.startsWith('/pay/')) return continued;
    page = await get(redirectUrl, {}, seen);
  }
  return page;
}

/** Posts a form of the page and, after our own post/redirect/get, shows the next page (a 303 elsewhere is returned). */
export async function submitAndFollow(
  pageUrl: string,
  html: string,
  action: string,
  fields: Record<string, string>,
  seen?: string[],
): Promise<Answer> {
  const answer = await submit(pageUrl, html, action, fields, seen);
  if (answer.status === 303 && answer.location?.startsWith('/pay/') === true) return get(pageUrl, {}, seen);
  return answer;
}

/** The outcome page's Continue link (the shop's return address), once the answer is asserted to be that page. */
export function continueLinkOf(answer: Answer): string {
  assert.equal(answer.status, 200, `expected the outcome page, got ${answer.status} ${answer.location ?? ''}`);
  const link = /<a class="button (?:primary|secondary)" id="continue" href="([^"]+)"/.exec(answer.html)?.[1];
  assert.ok(link !== undefined, `no outcome page:\n${answer.html.slice(0, 2000)}`);
  return link.replace(/&amp;/g, '&');
}

/**
 * `page`, or, while it is our waiting page ("We are processing your payment"), the flow link read again until the
 * flow has moved on (the bank answered): bounded generously, since a loaded machine answers slowly.
 */
export async function pastWaitingPage(redirectUrl: string, page: Answer, seen?: string[]): Promise<Answer> {
  let current = page;
  await waitFor('the flow to move past the waiting page', async () => {
    if (headingOf(current.html) !== 'We are processing your payment') return true;
    current = await get(redirectUrl, {}, seen);
    return headingOf(current.html) === 'We are processing your payment' ? undefined : true;
  });
  return current;
}
