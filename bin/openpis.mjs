#!/usr/bin/env node
// The operator CLI: the compiled code in dist/ (`npm install` builds it; `npm run build` after changing src/).
// See docs/adr/0007-compiled-javascript-in-production.md.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/run.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('openpis is not built: run `npm run build` (npm install does it) in the openpis folder.\n');
  process.exit(1);
}
// Stack traces of unexpected errors point into src/ (source maps are read only when a trace is made).
process.setSourceMapsEnabled(true);
await import(entry.href);
