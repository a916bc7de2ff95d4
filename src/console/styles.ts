/**
 * The console's only stylesheet, served by us (`style-src 'self'`: no inline style anywhere). Desktop: a side
 * navigation and a wide content column; phones: the navigation as a wrapping row on top and tables read as cards
 * (each cell labelled by its column, from the cell's `data-label`). Colours meet WCAG AA contrast on their
 * backgrounds; status badges carry their word, never colour alone.
 */
import { createHash } from 'node:crypto';

export const CONSOLE_CSS = `
*{box-sizing:border-box}
[hidden]{display:none!important}
html{font-size:100%;-webkit-text-size-adjust:100%}
body{margin:0;font:.9375rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f5f6f8;color:#111827}
a{color:#1d4ed8;text-underline-offset:2px}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem}
.shell{display:grid;grid-template-columns:1fr;min-height:100vh}
@media (min-width:64rem){.shell{grid-template-columns:15rem 1fr;background:linear-gradient(to right,#111827 15rem,transparent 15rem)}}
.side{background:#111827;color:#e5e7eb;padding:1rem}
.side .product{display:flex;align-items:center;gap:.5rem;color:#fff;font-weight:700;font-size:1.0625rem;text-decoration:none;margin:0 0 1rem}
.side .product b{display:inline-grid;place-items:center;width:1.75rem;height:1.75rem;border-radius:6px;background:#2563eb;color:#fff;font-size:.875rem}
.side nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}
@media (min-width:64rem){.side{position:sticky;top:0;height:100vh;overflow:auto}.side nav ul{display:block}}
.side nav a{display:block;color:#e5e7eb;text-decoration:none;padding:.5rem .75rem;border-radius:6px;min-height:2.75rem;line-height:1.75rem}
.side nav a:hover{background:#1f2937}
.side nav a[aria-current=page]{background:#2563eb;color:#fff;font-weight:600}
.side .who{border-top:1px solid #374151;margin-top:.75rem;padding-top:.75rem;font-size:.875rem;color:#d1d5db;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem}
.side .who strong{color:#fff;overflow-wrap:anywhere}
.side .who .email{display:none}
.side .who form{margin:0 0 0 auto}
.side .who a{color:#e5e7eb}
@media (min-width:64rem){.side .who{display:block;margin-top:1rem;padding-top:1rem}.side .who strong,.side .who span{display:block}.side .who .email{display:block}.side .who form{margin-top:.5rem}}
.side .who button{background:transparent;color:#e5e7eb;border:1px solid #6b7280;min-height:2.5rem;padding:.375rem .75rem;width:auto;margin:0}
.content{padding:1rem;min-width:0}
@media (min-width:64rem){.content{padding:2rem 2.5rem}}
.page-head{display:flex;flex-wrap:wrap;align-items:flex-end;justify-content:space-between;gap:.5rem 1rem;margin-bottom:1.25rem}
h1{font-size:1.5rem;line-height:1.25;margin:0}
h2{font-size:1.125rem;margin:2rem 0 .75rem}
.card>h2:first-child,.card>h3:first-child{margin-top:0}
.card>input[type=hidden]:first-child+h2,.card>input[type=hidden]:first-child+h3{margin-top:0}
h3{font-size:1rem;margin:1.25rem 0 .5rem}
.lead{color:#4b5563;margin:.25rem 0 0}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:10px;padding:1rem;margin:0 0 1rem}
.card.narrow{max-width:32rem}
@media (min-width:64rem){.card{padding:1.25rem 1.5rem}}
.grid{display:grid;gap:1rem}
@media (min-width:48rem){.grid.two{grid-template-columns:1fr 1fr}}
dl.facts{display:grid;grid-template-columns:minmax(8rem,auto) 1fr;gap:.375rem 1rem;margin:0}
dl.facts dt{color:#4b5563}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8125rem}
.muted{color:#4b5563}
@media (min-width:64rem){td time{white-space:nowrap}}
.amount{font-variant-numeric:tabular-nums;white-space:nowrap;text-align:right}
label{display:block;font-weight:600;margin:0 0 .25rem;font-size:.875rem}
.hint{display:block;color:#4b5563;font-size:.8125rem;font-weight:400}
input[type=text],input[type=email],input[type=password],input[type=search],input[type=date],input[type=url],input[type=number],select{width:100%;min-height:2.75rem;padding:.5rem .625rem;border:1px solid #6b7280;border-radius:6px;font:inherit;background:#fff;color:#111827}
input[aria-invalid=true]{border:2px solid #b91c1c}
.field{margin:0 0 1rem}
.checks{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;border:0;padding:0;margin:0 0 1rem}
.checks legend{font-weight:600;font-size:.875rem;margin-bottom:.25rem}
.checks label{display:flex;align-items:center;gap:.5rem;font-weight:400;min-height:2.75rem;margin:0}
.checks input{width:1.25rem;height:1.25rem}
button,.button{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.5rem 1rem;border-radius:6px;border:1px solid transparent;font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
.primary{background:#1d4ed8;color:#fff}
.primary:hover{background:#1e40af}
.secondary{background:#fff;color:#111827;border-color:#9ca3af}
.danger{background:#fff;color:#b91c1c;border-color:#b91c1c}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.actions form{margin:0}
.action-list{display:grid;gap:.75rem}
.action-list form{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;margin:0}
.attempts{list-style:none;margin:0;padding:0;font-size:.8125rem}
.attempts li{padding:.125rem 0}
.attempts .error{color:#7f1d1d;overflow-wrap:anywhere}
.timeline .status-name{font-weight:600;overflow-wrap:anywhere}
.total{margin:.5rem 0 0;color:#374151}
.filters{display:grid;gap:.75rem 1rem;grid-template-columns:1fr;align-items:end}
@media (min-width:40rem){.filters{grid-template-columns:repeat(auto-fill,minmax(13rem,1fr))}}
.filters .checks{margin:0;align-self:end}
@media (min-width:40rem){.filters .checks{grid-column:span 2}}
.filters .checks label{min-height:2.75rem}
.filters .field{margin:0}
.filters .wide{grid-column:1/-1}
.filters .actions{grid-column:1/-1}
details.more{margin:0}
details.more summary{cursor:pointer;font-weight:600;min-height:2.75rem;display:flex;align-items:center;gap:.375rem;color:#1d4ed8}
details.more summary::before{content:"▸"}
details.more[open] summary::before{content:"▾"}
table{width:100%;border-collapse:collapse;background:#fff}
caption{text-align:left;font-weight:600;padding:0 0 .5rem}
th,td{padding:.625rem .75rem;text-align:left;vertical-align:top;border-bottom:1px solid #e5e7eb}
th{font-size:.8125rem;color:#374151;background:#f9fafb;font-weight:600;white-space:nowrap}
tbody tr:hover{background:#f9fafb}
td.amount,th.amount{text-align:right}
.table-wrap{border:1px solid #e5e7eb;border-radius:10px;overflow:hidden;background:#fff}
@media (max-width:47.99rem){
  table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
  table.cards tr{border-bottom:1px solid #e5e7eb;padding:.5rem 0}
  table.cards td{border:0;padding:.25rem .75rem .25rem 8.5rem;position:relative;text-align:left;min-height:1.75rem}
  table.cards td::before{content:attr(data-label);color:#4b5563;font-size:.8125rem;position:absolute;left:.75rem;top:.375rem;width:7.25rem}
  table.cards td.amount{text-align:left}
}
.badge{display:inline-block;border-radius:999px;padding:.125rem .625rem;font-size:.8125rem;font-weight:600;white-space:nowrap;border:1px solid}
.badge.completed{background:#dcfce7;color:#14532d;border-color:#86efac}
.badge.failed{background:#fee2e2;color:#7f1d1d;border-color:#fca5a5}
.badge.pending{background:#fef3c7;color:#78350f;border-color:#fcd34d}
.badge.neutral{background:#f3f4f6;color:#1f2937;border-color:#d1d5db}
.detail{display:block;color:#4b5563;font-size:.75rem;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere;margin-top:.125rem}
.empty{text-align:center;padding:2.5rem 1rem;color:#374151}
.empty strong{display:block;font-size:1.0625rem;margin-bottom:.25rem;color:#111827}
.pager{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-top:1rem}
.notice{background:#eff6ff;border:1px solid #1d4ed8;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.alert{background:#fef2f2;border:1px solid #b91c1c;color:#7f1d1d;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem;font-weight:600;overflow-wrap:anywhere}
.notice.success{background:#f0fdf4;border-color:#15803d}
.errors{background:#fee2e2;border:2px solid #b91c1c;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.errors h2{margin:0 0 .25rem;font-size:1rem}
.errors ul{margin:0;padding-left:1.25rem}
.secret{background:#fffbeb;border:2px solid #b45309;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.secret code{display:block;font-size:.9375rem;overflow-wrap:anywhere;background:#fff;border:1px solid #d1d5db;border-radius:6px;padding:.5rem;margin:.25rem 0 .5rem}
.slot{border:2px dashed #9ca3af;border-radius:10px;padding:1rem;color:#374151;background:#fff}
ol.timeline{list-style:none;margin:0;padding:0;border-left:2px solid #d1d5db;margin-left:.5rem}
ol.timeline li{position:relative;padding:0 0 1rem 1.25rem}
ol.timeline li::before{content:"";position:absolute;left:-.4375rem;top:.375rem;width:.75rem;height:.75rem;border-radius:50%;background:#9ca3af;border:2px solid #fff}
ol.timeline li.completed::before{background:#15803d}
ol.timeline li.failed::before{background:#b91c1c}
ol.timeline li.pending::before{background:#b45309}
ol.timeline .when{color:#4b5563;font-size:.8125rem}
ol.timeline .meaning{margin:.125rem 0;color:#374151;font-size:.875rem}
ol.timeline .gap{color:#4b5563;font-size:.8125rem;font-style:italic}
.reasons{margin:.25rem 0 0;padding-left:1.25rem;color:#7f1d1d}
.auth{max-width:26rem;margin:3rem auto;padding:0 1rem}
.auth .card{padding:1.5rem}
.auth .product{display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.125rem;margin-bottom:1rem}
.auth .product b{display:inline-grid;place-items:center;width:2rem;height:2rem;border-radius:6px;background:#2563eb;color:#fff}
.auth button.primary{width:100%;margin-top:.5rem}
.logo{display:block;max-height:3rem;max-width:10rem;width:auto;height:auto}
.qr{display:block;width:12rem;height:12rem;margin:.5rem 0}
.qr svg{width:100%;height:100%}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
ul.plain{margin:0;padding-left:1.1rem}
.card > h2:first-child{margin-top:0}
table.cards td > .badge{justify-self:start}
.small{display:block;font-size:.8125rem}
ul.quiet-banks{columns:16rem;margin:.5rem 0 0;padding-left:1.1rem}
ul.quiet-banks li{break-inside:avoid;margin-bottom:.25rem}
figure.chart{margin:0 0 1rem;min-width:0}
figure.chart figcaption h2{margin:0 0 .25rem}
figure.chart figcaption p{margin:0 0 .75rem}
svg.plot{display:block;width:100%;height:auto;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
svg.plot.font-12{font-size:12px}
svg.plot.font-13{font-size:13px}
.plot-narrow{display:none}
@media (max-width:40rem){.plot-wide{display:none}.plot-narrow{display:block}}
svg.plot text{fill:#374151}
svg.plot text.bar-label{fill:#111827;font-weight:600}
svg.plot text.bar-note,svg.plot text.value{fill:#111827}
svg.plot line.grid{stroke:#e5e7eb;stroke-width:1}
svg.plot line.baseline{stroke:#6b7280;stroke-width:1}
svg.plot .completed{fill:#15803d}
svg.plot .failed{fill:#b91c1c}
svg.plot .pending{fill:#d97706}
svg.plot .primary{fill:#1d4ed8}
svg.plot .muted{fill:#9ca3af}
svg.plot .track{fill:#f3f4f6}
ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0 0 .5rem;padding:0;font-size:.8125rem;color:#374151}
ul.legend li{display:flex;align-items:center;gap:.375rem}
.swatch{display:inline-block;width:.75rem;height:.75rem;border-radius:2px}
.swatch.completed{background:#15803d}
.swatch.failed{background:#b91c1c}
.swatch.pending{background:#d97706}
.swatch.primary{background:#1d4ed8}
figure.chart details.more{margin-top:.5rem}
figure.chart details.more table{margin-top:.5rem;font-size:.875rem}
figure.chart th{white-space:normal}
figure.chart th,figure.chart td{padding:.5rem .5rem}
@media (max-width:40rem){figure.chart th,figure.chart td{padding:.5rem .3125rem}}
figure.chart tbody th{color:#111827;background:#fff;font-size:.875rem}
figure.chart th .hint{font-weight:400}
.table-wrap + .actions{margin-top:1rem}
.tabs ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;padding:0;margin:0 0 1rem}
.tabs a{display:inline-block;padding:.5rem 0}
.tabs a[aria-current]{font-weight:700;color:inherit;text-decoration:none;border-bottom:3px solid #2563eb}
`;

const CONSOLE_CSS_VERSION = createHash('sha256').update(CONSOLE_CSS).digest('base64url').slice(0, 12);
/** A new version gets a new URL, so the file can be cached for long. */
export const CONSOLE_CSS_PATH = `/console/assets/console-${CONSOLE_CSS_VERSION}.css`;
