/**
 * The Dockerfile and compose.yaml say what the image-steps test performs (test/ship/image-steps.ts): the same
 * commands, copies, ports, roles and settings. No container engine runs here, so this is what keeps them honest.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import {
  BUILD_STAGE,
  CLI_COMMAND,
  DEPENDENCIES_STAGE,
  FINAL_STAGE,
  IMAGE_ENV,
  ROLES,
  RUN_AS_USER,
  SANDBOX_BANK_HOST_NAME,
  SANDBOX_BANK_PORT,
  SECRET_SETTINGS,
  SERVICE_COMMAND,
  SERVICE_PORT,
  sandboxBankCommand,
} from './image-steps.js';

const root = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

interface Instruction {
  readonly keyword: string;
  readonly value: string;
}
interface Stage {
  readonly name: string | undefined;
  readonly instructions: Instruction[];
}

/** The Dockerfile's stages and their instructions, continuation lines joined and comments left out. */
function dockerfileStages(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(`${pending}${line}`.trim());
    pending = '';
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const value = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      stages.push({ name: /\bAS\s+(\S+)$/i.exec(value)?.[1], instructions: [] });
      continue;
    }
    stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), value });
  }
  return stages;
}

const values = (stage: Stage, keyword: string): string[] =>
  stage.instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.value);
/** COPY's sources (the last word is the destination), with the stage it copies from. */
function copies(stage: Stage): Array<{ from: string | undefined; sources: string[] }> {
  return values(stage, 'COPY').map((value) => {
    const words = value.split(/\s+/);
    const from = words[0]?.startsWith('--from=') ? words.shift()?.slice('--from='.length) : undefined;
    return { from, sources: words.slice(0, -1) };
  });
}
const npmCommands = (stage: Stage): string[] =>
  values(stage, 'RUN')
    .flatMap((command) => command.split('&&').map((part) => part.trim()))
    .filter((part) => part.startsWith('npm '));

describe('Dockerfile', () => {
  const stages = dockerfileStages(read('Dockerfile'));
  const stage = (name: string | undefined): Stage => {
    const found = stages.find((candidate) => candidate.name === name);
    assert.ok(found, `a stage ${name ?? '(final)'}`);
    return found;
  };

  it('has the build, dependencies and final stages, the final one last and unnamed', () => {
    assert.deepEqual(
      stages.map((candidate) => candidate.name),
      ['build', 'dependencies', undefined],
    );
  });

  it('the build stage copies and runs what the image-steps test does', () => {
    assert.deepEqual(
      copies(stage('build')).flatMap((copy) => copy.sources),
      [...BUILD_STAGE.copies],
    );
    assert.deepEqual(npmCommands(stage('build')), [...BUILD_STAGE.commands]);
  });

  it('the dependencies stage installs production dependencies only, as the test does', () => {
    assert.deepEqual(
      copies(stage('dependencies')).flatMap((copy) => copy.sources),
      [...DEPENDENCIES_STAGE.copies],
    );
    assert.deepEqual(npmCommands(stage('dependencies')), [...DEPENDENCIES_STAGE.commands]);
  });

  it('the final stage holds only the manifests, the production node_modules, dist/ and bin/, installs nothing, and runs as a user that is not root', () => {
    const final = stage(undefined);
    const copied = copies(final);
    assert.deepEqual(
      copied
        .filter((copy) => copy.from === undefined)
        .flatMap((copy) => copy.sources)
        .sort(),
      [...FINAL_STAGE.fromClone].sort(),
    );
    assert.deepEqual(
      copied.filter((copy) => copy.from === 'dependencies').map((copy) => copy.sources[0]),
      [...FINAL_STAGE.fromDependencies].map((path) => `/app/${path}`),
    );
    assert.deepEqual(
      copied.filter((copy) => copy.from === 'build').map((copy) => copy.sources[0]),
      [...FINAL_STAGE.fromBuild].map((path) => `/app/${path}`),
    );
    assert.deepEqual(npmCommands(final), []);
    assert.deepEqual(values(final, 'USER'), [RUN_AS_USER]);
    assert.deepEqual(values(final, 'WORKDIR'), ['/app']);
  });

  it('the final stage runs the compiled service in exec form (signals reach Node), with the settings and port the test uses', () => {
    const final = stage(undefined);
    assert.deepEqual(
      values(final, 'CMD').map((value) => JSON.parse(value) as unknown),
      [[...SERVICE_COMMAND]],
    );
    assert.deepEqual(values(final, 'ENTRYPOINT'), []);
    const environment = Object.fromEntries(
      values(final, 'ENV')
        .flatMap((value) => value.split(/\s+/))
        .map((pair) => pair.split('=') as [string, string]),
    );
    assert.deepEqual(environment, IMAGE_ENV);
    assert.deepEqual(values(final, 'EXPOSE'), [String(SERVICE_PORT)]);
  });

  it('HEALTHCHECK asks /readyz on the service port', () => {
    const [healthcheck] = values(stage(undefined), 'HEALTHCHECK');
    assert.ok(healthcheck !== undefined);
    assert.match(healthcheck, /CMD \["node", "-e", ".*'http:\/\/127\.0\.0\.1:' \+ process\.env\.PORT \+ '\/readyz'/);
  });
});

describe('compose.yaml', () => {
  interface Service {
    image?: string;
    build?: string;
    command?: string[];
    env_file?: string;
    environment?: Record<string, string>;
    ports?: string[];
    healthcheck?: { test?: string[]; disable?: boolean };
    depends_on?: Record<string, { condition: string }>;
    stop_grace_period?: string;
  }
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
  const service = (name: string): Service => {
    const found = compose.services[name];
    assert.ok(found, `a service ${name}`);
    return found;
  };
  const openpisServices = ['migrate', 'sandbox-bank', ...ROLES];
  const sandboxBankUrl = `http://${SANDBOX_BANK_HOST_NAME}:${SANDBOX_BANK_PORT}`;

  it('runs PostgreSQL, the migrate step, the sandbox bank and one process per role, all openpis ones from the one image built here', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), ['postgres', ...openpisServices].sort());
    for (const name of openpisServices) {
      assert.equal(service(name).image, 'openpis:local', name);
      assert.equal(service(name).build, '.', name);
    }
  });

  it('the API and the worker are the image as it is (its CMD and HEALTHCHECK) with PROCESS_ROLE and the sandbox bank set', () => {
    for (const role of ROLES) {
      assert.equal(service(role).command, undefined, role);
      assert.equal(service(role).healthcheck, undefined, role);
      assert.deepEqual(service(role).environment, { PROCESS_ROLE: role, SANDBOX_BANK_URL: sandboxBankUrl }, role);
    }
    assert.deepEqual(service('api').ports, [`127.0.0.1:${SERVICE_PORT}:${SERVICE_PORT}`]);
    assert.equal(service('worker').ports, undefined);
  });

  it('the migrate step and the sandbox bank run the CLI as the test does', () => {
    assert.deepEqual(service('migrate').command, [...CLI_COMMAND, 'migrate']);
    assert.deepEqual(service('sandbox-bank').command, sandboxBankCommand('0.0.0.0', SANDBOX_BANK_PORT, sandboxBankUrl));
    assert.deepEqual(service('sandbox-bank').ports, [`127.0.0.1:${SANDBOX_BANK_PORT}:${SANDBOX_BANK_PORT}`]);
  });

  it('starts in order on health: PostgreSQL healthy, then migrations done and the sandbox bank healthy, then API and worker', () => {
    assert.ok(service('postgres').healthcheck?.test?.join(' ').includes('pg_isready'));
    assert.ok(service('sandbox-bank').healthcheck?.test?.join(' ').includes(`http://127.0.0.1:${SANDBOX_BANK_PORT}/`));
    assert.deepEqual(service('migrate').depends_on, { postgres: { condition: 'service_healthy' } });
    for (const role of ROLES) {
      assert.deepEqual(
        service(role).depends_on,
        { migrate: { condition: 'service_completed_successfully' }, 'sandbox-bank': { condition: 'service_healthy' } },
        role,
      );
    }
  });

  it('takes secrets from environment files only; the example lists every setting the test gives the processes', () => {
    for (const name of openpisServices) assert.equal(service(name).env_file, 'deploy/openpis.env', name);
    assert.equal(service('postgres').env_file, 'deploy/postgres.env');
    const text = JSON.stringify(compose);
    assert.doesNotMatch(text, /SECRET_KEYS|POSTGRES_PASSWORD|SANDBOX_OPERATOR_TOKEN/, 'no secret in compose.yaml itself');
    const example = read('deploy/openpis.env.example');
    const listed = example
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.split('=')[0]);
    assert.deepEqual(listed.sort(), [...SECRET_SETTINGS].sort());
    assert.ok(existsSync(new URL('deploy/postgres.env.example', root)));
    assert.match(read('.gitignore'), /^deploy\/\*\.env$/m);
  });

  it('gives every openpis process longer than the default shutdown bound to stop', () => {
    for (const name of openpisServices) assert.equal(service(name).stop_grace_period, '15s', name);
  });
});
