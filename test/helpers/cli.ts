/**
 * The operator CLI as tests run it (`node …CLI_ARGS, 'clients', 'list'`): the compiled dist/ when it was built from
 * the sources as they are now (no file under src/ or packages/sandbox-bank/src/ changed since the build began: what
 * `npm ci` and `npm install` leave, and what CI tests), else the TypeScript sources through tsx, so a test never
 * runs a stale build. A compiled start costs about a third of one through tsx, and the CLI tests start hundreds.
 * `bin/openpis.mjs` runs the compiled dist/ as an operator does; test/ship runs that.
 */
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const compiledEntry = join(root, 'dist', 'cli', 'run.js');

/** Whether dist/ was built from the sources as they are (its stamp no older than any source file). */
function compiledIsCurrent(): boolean {
  let builtAt: number;
  try {
    builtAt = statSync(join(root, 'dist', '.build-stamp')).mtimeMs;
    statSync(compiledEntry);
    statSync(join(root, 'packages', 'sandbox-bank', 'dist'));
  } catch {
    return false;
  }
  for (const folder of [join(root, 'src'), join(root, 'packages', 'sandbox-bank', 'src')]) {
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && statSync(join(entry.parentPath, entry.name)).mtimeMs > builtAt) return false;
    }
  }
  return true;
}

const compiled = process.env['OPENPIS_TEST_CLI_FROM_SOURCE'] !== '1' && compiledIsCurrent();
/** Node's options for the CLI (before any of a test's own, such as another `--import`). */
export const CLI_NODE_ARGS: readonly string[] = compiled ? ['--enable-source-maps'] : ['--import', 'tsx'];
/** The CLI's entry file: dist/cli/run.js or src/cli/run.ts. */
export const CLI_ENTRY: string = compiled ? compiledEntry : join(root, 'src', 'cli', 'run.ts');
export const CLI_ARGS: readonly string[] = [...CLI_NODE_ARGS, CLI_ENTRY];

const execCli = promisify(execFile);

/**
 * Runs `openpis <args…>` as an operator does, with only PATH, a silent log and `env` in its environment; its output and
 * exit status (a failing command's too, never thrown).
 */
export async function runOpenpis(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await execCli(process.execPath, [...CLI_ARGS, ...args], {
      env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}
