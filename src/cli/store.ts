/**
 * What a command opens: the database (migrated if a migration is pending), the key ring and the configuration, and
 * for the commands that reach banks the provider catalogue; each closed when the command's work ends.
 *
 * Start-up of a command is mostly module loading (docs/performance.md#start-up-of-the-cli-and-the-service): what a
 * command needs beyond commander and the configuration is imported inside its action, so `clients list` never
 * loads the sandbox bank, the logo decoder, the provider catalogue's validation or the webhook sender. The same
 * holds for every file of src/cli/commands/.
 */
import type { Runtime, Store } from '../runtime.js';

/** The database (migrated if a migration is pending), the key ring and the configuration; closed after `work`. */
export async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const { openStore } = await import('../runtime.js');
  const store = await openStore();
  try {
    return await work(store);
  } finally {
    await store.database.close();
  }
}

/** withStore and the provider catalogue: for the commands that reach banks. */
export async function withRuntime<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const { openRuntime } = await import('../runtime.js');
  const runtime = await openRuntime();
  try {
    return await work(runtime);
  } finally {
    await runtime.database.close();
  }
}
