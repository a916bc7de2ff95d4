/**
 * What the payer pages of every standard share: the page frame in the bank's colours, the security headers every
 * page is sent with, form reading, the anti-forgery token check, and the pages that look the same at every bank
 * (unknown link, expired form, finished authorisation). Each standard keeps its own steps.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import escapeHtml from 'escape-html';

/** The bank as a page needs it; no bank: the sandbox's own index pages. */
export type PageBank = { readonly name: string; readonly brandColor: string } | undefined;

/** Form fields arrive as strings, or arrays of strings when repeated; anything else is ignored. */
export type FormBody = Record<string, string | string[] | undefined>;

/** The parsed form of a page post (an empty form when the body is no form). */
export function formBody(body: unknown): FormBody {
  return typeof body === 'object' && body !== null ? (body as FormBody) : {};
}

export function field(body: FormBody, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

export function fields(body: FormBody, name: string): string[] {
  const value = body[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Compares a form's anti-forgery token in constant time. */
export function sameToken(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** No scripts, no framing, no referrer: the pages carry tokens in their URLs and forms. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

export function sendPage(reply: FastifyReply, status: number, html: string, csp = PAGE_CSP): FastifyReply {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', csp)
    .send(html);
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2933}
header{background:var(--brand);color:#fff;padding:14px 24px;font-weight:600;font-size:18px}
header small{display:block;font-weight:400;font-size:13px}
main{max-width:480px;margin:32px auto;background:#fff;border-radius:10px;padding:28px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 16px}label{display:block;margin:14px 0 4px;font-weight:600;font-size:14px}
input[type=text],input[type=password]{width:100%;padding:10px;border:1px solid #cbd2d9;border-radius:6px;font-size:16px}
.choice{display:flex;gap:10px;align-items:flex-start;border:1px solid #e4e7eb;border-radius:6px;padding:10px;margin:8px 0;font-weight:400}
.choice input{margin-top:5px}
button{margin-top:20px;padding:10px 18px;border-radius:6px;border:0;font-size:16px;cursor:pointer}
button.primary{background:var(--brand);color:#fff}button.secondary{background:#e4e7eb;color:#1f2933;margin-left:8px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0}dt{color:#616e7c}dd{margin:0;word-break:break-word}
.notice{background:#fff4e5;border:1px solid #f0b429;border-radius:6px;padding:8px 12px;margin-bottom:12px}
.hint{color:#616e7c;font-size:13px;margin-top:18px}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border-bottom:1px solid #e4e7eb;padding:6px;text-align:left;vertical-align:top}
`;

/** The page frame every sandbox bank page shares. */
export function layout(bank: PageBank, title: string, content: string): string {
  const brand = bank?.brandColor ?? '#334155';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}${bank === undefined ? '' : ` – ${escapeHtml(bank.name)}`}</title>
<style>:root{--brand:${escapeHtml(brand)}}${STYLE}</style></head>
<body><header>${escapeHtml(bank?.name ?? 'openpis sandbox bank')}<small>Sandbox – no real money moves</small></header>
<main>${content}</main></body></html>`;
}

/** The notice above a step's form (wrong password, …), or nothing. */
export function noticeHtml(notice: string | undefined): string {
  return notice === undefined ? '' : `<p class="notice" role="alert">${escapeHtml(notice)}</p>`;
}

/**
 * A step's form: it posts back to the page's own (relative) URL with the anti-forgery token and the step it was
 * rendered for, so a stale form is recognised.
 */
export function stepForm(page: { readonly pageToken: string; readonly formToken: string; readonly step: string }, content: string): string {
  return `<form method="post" action="${escapeHtml(page.pageToken)}">
<input type="hidden" name="csrf" value="${escapeHtml(page.formToken)}">
<input type="hidden" name="step" value="${escapeHtml(page.step)}">
${content}</form>`;
}

/**
 * The approve button and the one that refuses. The refusing one carries `formnovalidate`: the login and code fields
 * are `required`, and the browser would otherwise refuse to submit it with them empty (the server checks what an
 * approval needs anyway).
 */
export function approveAndRefuseButtons(label: string, refuse: { readonly action: string; readonly label: string }): string {
  return (
    `<button class="primary" type="submit" name="action" value="approve">${escapeHtml(label)}</button>` +
    `<button class="secondary" type="submit" name="action" value="${escapeHtml(refuse.action)}" formnovalidate>${escapeHtml(refuse.label)}</button>`
  );
}

/** An unknown, used-up or foreign page token. */
export function sendLinkNotValid(reply: FastifyReply, bank: PageBank): FastifyReply {
  return sendPage(
    reply,
    404,
    layout(
      bank,
      'Link not valid',
      '<h1>This link is not valid</h1><p>The authorisation link is unknown or has been used up. Please return to the app or website you came from and start again.</p>',
    ),
  );
}

/** A post whose anti-forgery token does not match; `next` says what the payer can do. */
export function sendFormExpired(reply: FastifyReply, bank: PageBank, next: string): FastifyReply {
  return sendPage(reply, 403, layout(bank, 'Form expired', `<h1>This form has expired</h1><p>${escapeHtml(next)}</p>`));
}

/** The page of an authorisation that has ended, whatever its outcome. */
export function finishedPage(bank: PageBank): string {
  return layout(
    bank,
    'Finished',
    '<h1>Finished</h1><p>This authorisation has ended. You can return to the app or website you came from.</p>',
  );
}
