/**
 * The console's pages around their content: a skip link, the navigation, who is signed in (and the sign-out
 * form), the page heading; and the smaller frame of the sign-in pages. Built with the escaping `html` template
 * of the payer pages (src/hosted/html.ts): a value is escaped unless it is itself a template result.
 */
import { html, type SafeHtml } from '../hosted/html.js';
import type { ConsoleNavigation, ConsoleSectionId } from './navigation.js';
import { CONSOLE_CSS_PATH } from './styles.js';
import { CSRF_FIELD } from './security.js';
import type { Viewer } from './viewer.js';

export interface ConsolePageOptions {
  readonly title: string;
  /** The navigation entry to mark as current. */
  readonly section: ConsoleSectionId | undefined;
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  /** Under the heading: a line that says what the page is for. */
  readonly lead?: string | SafeHtml;
  /** Beside the heading (e.g. a button). */
  readonly headActions?: SafeHtml;
  readonly body: SafeHtml;
  /** Reload the page after this many seconds (a page following work elsewhere; the console has no script). */
  readonly refreshSeconds?: number;
}

function document(title: string, body: SafeHtml, refreshSeconds?: number): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${refreshSeconds === undefined ? '' : html`<meta http-equiv="refresh" content="${String(refreshSeconds)}">`}
<title>${title} · openpis console</title>
<link rel="stylesheet" href="${CONSOLE_CSS_PATH}">
</head>
${body}
</html>`.toString();
}

/** The hidden CSRF field every console form carries. */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

export function consolePage(options: ConsolePageOptions): string {
  const { viewer, navigation } = options;
  const sections = navigation.visibleTo(viewer.user);
  return document(
    options.title,
    html`<body>
<a class="skip" href="#main">Skip to content</a>
<div class="shell">
<header class="side">
<a class="product" href="/console"><b aria-hidden="true">op</b> openpis console</a>
<nav aria-label="Console">
<ul>
${sections.map(
  (section) =>
    html`<li><a href="${section.path}"${section.id === options.section ? html` aria-current="page"` : ''}>${section.label}</a></li>`,
)}
</ul>
</nav>
<div class="who">
<strong>${viewer.user.name}</strong>
<span class="email">${viewer.user.email}</span>
<span>${viewer.user.role === 'operator' ? 'Operator (every client)' : html`Member of ${viewer.clientName ?? viewer.user.clientId ?? ''}`}</span>
<a href="/console/account/password">Change password</a>
<form method="post" action="/console/sign-out">${csrfField(viewer.csrfToken)}<button type="submit">Sign out</button></form>
</div>
</header>
<main id="main" class="content" tabindex="-1">
${navigation.alertsFor(viewer.user).map((alert) => html`<div class="alert" role="alert">${alert}</div>`)}
<div class="page-head">
<div>
<h1>${options.title}</h1>
${options.lead === undefined ? '' : html`<p class="lead">${options.lead}</p>`}
</div>
${options.headActions ?? ''}
</div>
${options.body}
</main>
</div>
</body>`,
    options.refreshSeconds,
  );
}

/** The sign-in pages: one small card, no navigation. */
export function authPage(title: string, body: SafeHtml): string {
  return document(
    title,
    html`<body>
<main class="auth" id="main">
<div class="product"><b aria-hidden="true">op</b> openpis console</div>
<div class="card">
<h1>${title}</h1>
${body}
</div>
</main>
</body>`,
  );
}

export function errorSummary(problems: readonly string[]): SafeHtml | '' {
  if (problems.length === 0) return '';
  return html`<div class="errors" role="alert"><h2>Please check</h2><ul>${problems.map((problem) => html`<li>${problem}</li>`)}</ul></div>`;
}

export function notice(text: string | SafeHtml, kind: 'info' | 'success' = 'info'): SafeHtml {
  return html`<div class="notice${kind === 'success' ? ' success' : ''}" role="status">${text}</div>`;
}

/** What a list shows when it has nothing: what is missing, and what to do about it. */
export function emptyState(title: string, hint: string | SafeHtml): SafeHtml {
  return html`<div class="card empty"><strong>${title}</strong>${hint}</div>`;
}
