/**
 * The fixed return URL's answer to a bank that put its answer in the URL fragment (OAuth 2.0 `response_mode=fragment`,
 * the default of hybrid flows). Browsers never send the fragment to a server, so this page's one script posts the
 * fragment's parameters to the same URL as a form, where the payment is found by its `state`. The script is allowed
 * by its SHA-256 hash alone: the page's own Content-Security-Policy admits no other script.
 */
import { createHash } from 'node:crypto';
import { REGISTERED_RETURN_PATH } from '../../flow/steps/callback.js';
import { html, SafeHtml } from '../html.js';
import { FAVICON_PATH } from '../layout/favicon.js';
import { HOSTED_CSS_PATH } from '../layout/styles.js';

/** Posts the fragment's parameters to the fixed return URL; without a `state` there, it shows that nothing came. */
export const FRAGMENT_RETURN_SCRIPT = `(function () {
  var fields = new URLSearchParams(location.hash.slice(1));
  if (!fields.has('state')) {
    document.getElementById('no-answer').hidden = false;
    return;
  }
  var form = document.createElement('form');
  form.method = 'post';
  form.action = '${REGISTERED_RETURN_PATH}';
  fields.forEach(function (value, name) {
    var input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  });
  document.body.appendChild(form);
  form.submit();
})();`;

/** The CSP source that allows exactly {@link FRAGMENT_RETURN_SCRIPT}. */
export const FRAGMENT_RETURN_SCRIPT_HASH = `sha256-${createHash('sha256').update(FRAGMENT_RETURN_SCRIPT).digest('base64')}`;

/**
 * The hosted pages' policy with this page's script admitted by hash. `form-action` stays absent, as on every hosted
 * page: the post is answered with a redirect to the payer's next page or the shop, and browsers apply it to those.
 */
export const FRAGMENT_RETURN_CSP = `default-src 'none'; script-src '${FRAGMENT_RETURN_SCRIPT_HASH}'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'`;

export function fragmentReturnPage(): string {
  // The script is our constant (no `</script>` inside): inserted as it is, so its hash matches.
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Returning from your bank</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${HOSTED_CSS_PATH}">
</head>
<body>
<main id="main">
<h1>Returning from your bank</h1>
<p id="no-answer" hidden>We could not read your bank's answer. Please start the payment again from the shop.</p>
<noscript><p>Your bank sent its answer in a way that needs JavaScript to reach us. Please turn JavaScript on and go back to your bank, or start the payment again from the shop.</p></noscript>
</main>
<script>${new SafeHtml(FRAGMENT_RETURN_SCRIPT)}</script>
</body>
</html>`.value;
}
