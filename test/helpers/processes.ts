/**
 * Real service and sandbox-bank processes for tests that need several processes or a hard kill: each is
 * `node --import tsx src/server.ts` (or the CLI) on a loopback port, with its output kept for assertions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_SECRET_KEYS } from './secret-keys.js';
import { fileURLToPath } from 'node:url';
import { freePort } from './test-app.js';
import { PROCESS_BOUND_MS } from './wait.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningProcess {
  readonly url: string;
  /** Origin of the metrics listener (the service only). */
  readonly metricsUrl: string;
  readonly port: number;
  readonly child: ChildProcess;
  output(): string;
  /** Ends the process with `signal` and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function startProcess(args: string[], env: Record<string, string>, port: number, ready: RegExp, metricsPort = 0): Promise<RunningProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running: RunningProcess = {
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    port,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`process did not become ready:\n${output.slice(-2000)}`));
    }, PROCESS_BOUND_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(running);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
}

/**
 * Runs a command (arguments of node, from the project's folder) that is expected to end, and gives its exit code
 * and output. One that serves instead is killed after PROCESS_BOUND_MS, so the caller's assertions fail.
 */
export function runToExit(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const bound = setTimeout(() => child.kill('SIGKILL'), PROCESS_BOUND_MS);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(bound);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The service as `npm start` runs it, with the given environment on top of test defaults. */
export async function startService(env: Record<string, string>): Promise<RunningProcess> {
  const port = await freePort();
  const metricsPort = await freePort();
  return startProcess(
    ['--import', 'tsx', 'src/server.ts'],
    {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      CREATE_DEMO_CLIENT: 'false',
      SECRET_KEYS: TEST_SECRET_KEYS,
      ...env,
    },
    port,
    /openpis is listening/,
    metricsPort,
  );
}

/**
 * `openpis sandbox-bank` on `port` with the options given (e.g. `--strict` and its files, `--catalogue`), as an
 * operator starts it: a bank of its own process, so its state outlives the service processes.
 */
export function startSandboxBankProcess(port: number, options: string[], env: Record<string, string> = {}): Promise<RunningProcess> {
  return startProcess(
    ['--import', 'tsx', 'src/cli/run.ts', 'sandbox-bank', '--port', String(port), ...options],
    { LOG_LEVEL: 'warn', ...env },
    port,
    /Sandbox bank listening/,
  );
}

/** A stand-alone sandbox bank with the built-in banks on a free port. */
export async function startSandboxBank(env: Record<string, string> = {}): Promise<RunningProcess> {
  const port = await freePort();
  return startSandboxBankProcess(port, ['--public-url', `http://127.0.0.1:${port}`], env);
}
