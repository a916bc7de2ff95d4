/**
 * The hosted pages' only stylesheet, served by us (`style-src 'self'` in the CSP: no inline styles). Mobile
 * first: one column, large touch targets; wider screens only get a centred card. Colours meet WCAG AA contrast.
 */
import { createHash } from 'node:crypto';
import type { ButtonColours } from '../../branding/colour.js';

export const HOSTED_CSS = `
*{box-sizing:border-box}
[hidden]{display:none!important}
html{font-size:100%}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f3f4f6;color:#111827}
a{color:#1d4ed8}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.top{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;background:#fff;color:#111827;padding:.625rem max(1rem,calc((100% - 36rem)/2));border-bottom:1px solid #e5e7eb}
.brand{font-weight:700}
.merchant{display:flex;align-items:center;gap:.625rem;min-width:0;font-weight:700;font-size:1.0625rem}
.merchant img{display:block;height:auto;max-height:2.5rem;width:auto;max-width:10rem}
.merchant span{overflow-wrap:anywhere}
.secure{color:#4b5563;font-size:.875rem}
.sandbox{background:#fde68a;color:#111827;border-radius:4px;padding:0 .5rem;font-size:.875rem}
main{background:#fff;margin:0;padding:1rem}
@media (min-width:40rem){main{max-width:36rem;margin:2rem auto;border-radius:12px;padding:2rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 1rem}
h2{font-size:1.125rem;margin:1.5rem 0 .5rem}
.summary{border:1px solid #d1d5db;border-radius:8px;padding:.75rem 1rem;margin:0 0 1.25rem}
.summary h2{margin:0 0 .5rem;font-size:1rem}
.summary dl{display:grid;grid-template-columns:minmax(7rem,auto) 1fr;gap:.25rem 1rem;margin:0}
.summary dt{color:#4b5563}
.summary dd{margin:0;word-break:break-word}
.bulk-wrap{overflow-x:auto;margin:0 0 .5rem}
.bulk-lines{width:100%;border-collapse:collapse;font-size:.9rem}
.bulk-lines th{text-align:left;color:#4b5563;font-weight:600;border-bottom:1px solid #d1d5db;padding:.25rem .5rem .25rem 0}
.bulk-lines td{border-bottom:1px solid #e5e7eb;padding:.35rem .5rem .35rem 0;vertical-align:top;word-break:break-word}
.bulk-lines .line-amount{text-align:right;white-space:nowrap;padding-right:0}
@media (max-width:36rem){.bulk-lines thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.bulk-lines,.bulk-lines tbody,.bulk-lines tr,.bulk-lines td{display:block;width:100%}.bulk-lines tr{border-bottom:1px solid #e5e7eb;padding:.4rem 0}.bulk-lines td,.bulk-lines .line-amount{border:0;padding:.1rem 0 .1rem 7.5rem;position:relative;text-align:left;white-space:normal}.bulk-lines td::before{content:attr(data-label);color:#4b5563;position:absolute;left:0;width:7rem}}
.amount{font-size:1.25rem;font-weight:700}
.sentence{margin:0 0 .75rem;font-size:1.0625rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
.hint{display:block;color:#4b5563;font-size:.875rem;margin:.25rem 0}
input[type=text],input[type=password],input[type=search],select{width:100%;min-height:2.75rem;padding:.5rem .75rem;border:1px solid #6b7280;border-radius:6px;font-size:1rem;background:#fff;color:#111827}
input[aria-invalid=true]{border:2px solid #b91c1c}
.field-error{color:#b91c1c;font-weight:600;margin:.25rem 0}
button,.button{display:inline-block;font-family:inherit;min-height:2.75rem;padding:.625rem 1.25rem;border-radius:6px;border:0;font-size:1rem;font-weight:600;cursor:pointer;text-decoration:none;text-align:center}
.primary{background:#1d4ed8;color:#fff;width:100%;margin-top:1.25rem}
.secondary{background:#e5e7eb;color:#111827;width:100%;margin-top:.75rem}
.consent{color:#374151;font-size:.875rem;margin:1rem 0 0}
form+.summary{margin-top:1.5rem}
.cancel-link{text-align:center;margin:1rem 0 0}
.cancel-link a{display:inline-block;min-height:2.75rem;padding:.625rem .5rem;color:#374151}
.banks{list-style:none;margin:0;padding:0}
.banks li{margin:.5rem 0}
.bank{display:flex;align-items:center;gap:.75rem;width:100%;background:#fff;color:#111827;border:1px solid #9ca3af;text-align:left;font-weight:600}
.bank img{flex:none;border-radius:8px}
.filters{display:grid;gap:.5rem;margin-bottom:1rem}
@media (min-width:40rem){.filters{grid-template-columns:1fr 1fr auto;align-items:end}.filters:has(button[hidden]){grid-template-columns:1fr 1fr}.filters label{margin-top:0}.filters button{margin:0}}
fieldset{border:0;padding:0;margin:1rem 0}
legend{font-weight:600;margin-bottom:.5rem}
.choice{display:flex;gap:.75rem;align-items:flex-start;border:1px solid #9ca3af;border-radius:6px;padding:.75rem;margin:.5rem 0;font-weight:400}
.choice input{margin-top:.3rem;width:1.25rem;height:1.25rem}
.doors{list-style:none;margin:0 0 1rem;padding:0;display:grid;gap:.75rem}
.door{display:block;border:1px solid #9ca3af;border-radius:8px;padding:.75rem 1rem;text-decoration:none;color:#111827}
.door strong{display:block;color:#1d4ed8}
.door:hover{border-color:#1d4ed8}
.info{background:#eff6ff;border:1px solid #1d4ed8;border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem}
.notice{background:#fef3c7;border:1px solid #b45309;border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem}
.errors{background:#fee2e2;border:2px solid #b91c1c;border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem}
.errors h2{margin:0 0 .25rem;font-size:1rem}
.errors ul{margin:0;padding-left:1.25rem}
footer{padding:1rem;text-align:center;color:#4b5563;font-size:.875rem}
footer p{margin:.5rem auto;max-width:36rem}
.legal{list-style:none;margin:.25rem 0 0;padding:0;display:flex;flex-wrap:wrap;justify-content:center;gap:.25rem 1rem}
.legal a{display:inline-block;padding:.5rem .25rem}
.langs{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;justify-content:center;gap:.25rem 1rem}
.langs{font-size:1rem}
.langs a{display:inline-block;padding:.5rem .25rem}
.langs a[aria-current]{font-weight:700;color:#111827}
[hidden]{display:none!important}
.progress{display:block;width:100%;height:.5rem;margin:0 0 1rem;accent-color:#1d4ed8}
.lead{font-size:1.125rem;font-weight:600;margin:0 0 1rem}
.outcome-mark{width:3.5rem;height:3.5rem;border-radius:50%;margin:0 0 .75rem;position:relative}
.outcome-done{background:#15803d}
.outcome-done::after{content:"";position:absolute;left:1.3rem;top:.8rem;width:.8rem;height:1.5rem;border:solid #fff;border-width:0 .3rem .3rem 0;transform:rotate(45deg)}
.outcome-failed{background:#b91c1c}
.outcome-failed::before,.outcome-failed::after{content:"";position:absolute;left:1.6rem;top:.9rem;width:.3rem;height:1.7rem;background:#fff;transform:rotate(45deg)}
.outcome-failed::after{transform:rotate(-45deg)}
.receipt{display:grid;grid-template-columns:minmax(7rem,auto) 1fr;gap:.25rem 1rem;margin:0 0 1.25rem;border-top:1px solid #d1d5db;padding-top:.75rem}
.receipt dt{color:#4b5563}
.receipt dd{margin:0;word-break:break-word}
.bank-says{display:block;border-left:4px solid #9ca3af;padding:.125rem .75rem;margin:.375rem 0;color:#374151;font-weight:400}
.timer{font-weight:700}
button.busy{position:relative;color:transparent}
button.busy::after{content:"";position:absolute;left:50%;top:50%;width:1.25rem;height:1.25rem;margin:-.625rem 0 0 -.625rem;border:3px solid #fff;border-right-color:transparent;border-radius:50%;animation:spin .8s linear infinite}
button.secondary.busy::after,.bank.busy::after{border-color:#1d4ed8;border-right-color:transparent}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){button.busy::after{animation:none}}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.bank-problems{display:block;color:#92400e;font-size:.875rem;font-weight:400}
.bank.problems{border-style:dashed}
.country-group{border:1px solid #d1d5db;border-radius:8px;margin:.5rem 0}
.country-group summary{cursor:pointer;padding:.625rem .75rem;font-weight:600;min-height:2.75rem}
.country-group summary:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.country-group .banks{padding:0 .75rem .25rem}
.count{color:#4b5563;font-weight:400}
.handover{display:none}
@media (min-width:60rem){.handover{display:block;border-top:1px solid #e5e7eb;margin-top:1.5rem;padding-top:.25rem}.handover-body{display:flex;gap:1rem;align-items:flex-start}.handover-body p{margin:0 0 .5rem}.qr{flex:none;width:10rem;height:10rem}.qr svg{display:block;width:100%;height:100%}}
`;

/** Part of the stylesheet's URL: a new version gets a new URL, so it can be cached for long. */
export const HOSTED_CSS_VERSION = createHash('sha256').update(HOSTED_CSS).digest('base64url').slice(0, 12);
export const HOSTED_CSS_PATH = `/pay/assets/hosted-${HOSTED_CSS_VERSION}.css`;

/**
 * A client's brand colour on its pages: a tiny stylesheet of our own (no inline style under our CSP), a pure function
 * of the colour, served at an address naming the colour and this template's version (so it is cached for long).
 * The text colour keeps AA contrast; a pale colour gets an outline so the button stands out on the white card.
 */
export function brandStylesheet(colours: ButtonColours): string {
  const outline = colours.outlined ? 'box-shadow:inset 0 0 0 2px #4b5563;' : '';
  return `.primary{background:${colours.background};color:${colours.text};${outline}}\n.primary:hover{filter:brightness(.94)}\n`;
}

const BRAND_CSS_VERSION = createHash('sha256')
  .update(brandStylesheet({ background: '#000000', text: '#ffffff', outlined: true }))
  .digest('base64url')
  .slice(0, 8);
export const BRAND_CSS_PATH = /^\/pay\/assets\/brand-([0-9a-f]{6})-([A-Za-z0-9_-]{8})\.css$/;

export function brandStylesheetPath(colour: string): string {
  return `/pay/assets/brand-${colour.slice(1)}-${BRAND_CSS_VERSION}.css`;
}

/** The colour a brand stylesheet's address names, when the address is one of ours (this version). */
export function brandColourOfPath(path: string): string | undefined {
  const match = BRAND_CSS_PATH.exec(path);
  return match === null || match[2] !== BRAND_CSS_VERSION ? undefined : `#${match[1]}`;
}
