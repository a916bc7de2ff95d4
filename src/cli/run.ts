/**
 * The CLI's entry: `bin/openpis.mjs` runs its compiled form (dist/cli/run.js); tests and development run it from
 * source through tsx (`node --import tsx src/cli/run.ts …`).
 */
import { main } from './main.js';

await main(process.argv);
