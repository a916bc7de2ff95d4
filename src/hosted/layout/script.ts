/**
 * The hosted pages' one script, served by us as a static file (`script-src 'self'` in the CSP: nothing inline).
 * Every page works without it; with it:
 * - a form's buttons show that they are working and cannot be pressed twice (the server is idempotent anyway: a
 *   second post finds the payment leased or moved on);
 * - a waiting page (and a desktop's page offering the QR code) asks the small status endpoint every two seconds and
 *   reloads only when the payer's view changed, never once the payer sent a form or is leaving (without script, a
 *   waiting page's `<noscript>` meta refresh reloads it);
 * - the decoupled page counts the minutes left down;
 * - the completed page continues to the shop after a few seconds, with a button to stay (without script, a
 *   `<noscript>` meta refresh continues);
 * - a login form keeps the typed user ID across its post (in the tab's sessionStorage, removed as the next page
 *   loads), so a refused password does not clear it.
 */
import { createHash } from 'node:crypto';

export const HOSTED_JS = `(function () {
  'use strict';
  // Once the payer sends a form or leaves, the page no longer reloads itself (a reload would cancel that navigation).
  var leaving = false;
  window.addEventListener('beforeunload', function () { leaving = true; });
  // A login form keeps the typed user ID for the answer to its own post (the server never sends it back): kept in
  // this tab only, read once and removed when the next page loads.
  var KEEP = 'openpis-login-id:';
  var keptIds = {};
  try {
    for (var n = sessionStorage.length - 1; n >= 0; n -= 1) {
      var name = sessionStorage.key(n);
      if (name && name.indexOf(KEEP) === 0) { keptIds[name.slice(KEEP.length)] = sessionStorage.getItem(name); sessionStorage.removeItem(name); }
    }
  } catch (e) { keptIds = {}; }
  var keeping = document.querySelectorAll('form[data-keep-login]');
  for (var k = 0; k < keeping.length; k += 1) {
    var kept = keptIds[keeping[k].action];
    var loginField = keeping[k].querySelector('input[name="loginId"]');
    if (kept && loginField && loginField.value === '') loginField.value = kept;
  }
  document.addEventListener('submit', function (event) {
    leaving = true;
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== 'post') return;
    if (form.hasAttribute('data-keep-login')) {
      var typed = form.querySelector('input[name="loginId"]');
      try { if (typed && typed.value) sessionStorage.setItem(KEEP + form.action, typed.value); } catch (e) { /* storage off: typed again */ }
    }
    if (form.getAttribute('data-busy') === 'true') { event.preventDefault(); return; }
    form.setAttribute('data-busy', 'true');
    var submitter = event.submitter;
    if (submitter) { submitter.classList.add('busy'); submitter.setAttribute('aria-busy', 'true'); }
    // Disabled after the browser took the form's values (a disabled button's own value would not be sent).
    setTimeout(function () {
      var buttons = document.querySelectorAll('form[method="post"] button');
      for (var i = 0; i < buttons.length; i += 1) buttons[i].disabled = true;
    }, 0);
  });
  // Back to a page from the browser's cache: its buttons work again.
  window.addEventListener('pageshow', function (event) {
    if (!event.persisted) return;
    leaving = false;
    var forms = document.querySelectorAll('form[data-busy]');
    for (var i = 0; i < forms.length; i += 1) forms[i].removeAttribute('data-busy');
    var buttons = document.querySelectorAll('button');
    for (var j = 0; j < buttons.length; j += 1) { buttons[j].disabled = false; buttons[j].classList.remove('busy'); buttons[j].removeAttribute('aria-busy'); }
  });

  var main = document.getElementById('main');
  var statusUrl = main && main.getAttribute('data-status-url');
  var view = main && main.getAttribute('data-view');
  if (statusUrl && view) {
    var poll = function () {
      fetch(statusUrl, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (leaving) return;
          if (answer && typeof answer.view === 'string' && answer.view !== view) location.reload();
          else setTimeout(poll, 2000);
        }, function () { setTimeout(poll, 4000); });
    };
    setTimeout(poll, 2000);
  }

  var minutes = document.querySelector('[data-until]');
  if (minutes) {
    var until = Date.parse(minutes.getAttribute('data-until') || '');
    var tick = function () {
      var left = Math.max(0, Math.ceil((until - Date.now()) / 60000));
      if (minutes.textContent !== String(left)) minutes.textContent = String(left);
      if (left > 0) setTimeout(tick, 10000);
    };
    if (!isNaN(until)) tick();
  }

  var onward = document.querySelector('a[data-auto-continue]');
  if (onward) {
    var seconds = Number(onward.getAttribute('data-auto-continue')) || 5;
    var counter = document.querySelector('[data-countdown]');
    var stay = document.querySelector('button[data-stay]');
    var note = document.querySelector('[data-auto-note]');
    var timer;
    var step = function () {
      if (counter) counter.textContent = String(seconds);
      if (seconds <= 0) { location.assign(onward.href); return; }
      seconds -= 1;
      timer = setTimeout(step, 1000);
    };
    if (note) note.hidden = false;
    if (stay) {
      stay.hidden = false;
      stay.addEventListener('click', function () {
        clearTimeout(timer);
        if (note) note.hidden = true;
        stay.hidden = true;
        onward.focus();
      });
    }
    step();
  }
})();
`;

export const HOSTED_JS_VERSION = createHash('sha256').update(HOSTED_JS).digest('base64url').slice(0, 12);
export const HOSTED_JS_PATH = `/pay/assets/hosted-${HOSTED_JS_VERSION}.js`;
