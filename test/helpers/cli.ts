/**
 * The operator CLI as tests run it: its TypeScript sources through tsx (`node …CLI_ARGS, 'clients', 'list'`), so a
 * test never runs a stale build. `bin/openpis.mjs` runs the compiled dist/ instead; test/ship runs that.
 */
import { fileURLToPath } from 'node:url';

export const CLI_ARGS: readonly string[] = ['--import', 'tsx', fileURLToPath(new URL('../../src/cli/run.ts', import.meta.url))];
