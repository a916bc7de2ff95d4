/**
 * A clean install on the Node version we declare prints no engine warning: every package of the lockfile admits
 * the minimum of package.json's `engines.node` and the Node running the tests (npm's EBADENGINE check, read from
 * the same `engines` fields npm reads).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import semver from 'semver';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lockfile = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('engines', () => {
  const declaredMinimum = semver.minVersion(manifest.engines.node);

  it('the declared engines range is a real one, and the Node running the tests satisfies it', () => {
    assert.ok(declaredMinimum, `engines.node "${manifest.engines.node}" is not a semver range`);
    assert.ok(semver.satisfies(process.version, manifest.engines.node), `Node ${process.version} is outside ${manifest.engines.node}`);
  });

  it('every locked package admits the declared minimum Node and the running one', () => {
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lockfile.packages)) {
      if (path === '' || entry.engines === undefined || Array.isArray(entry.engines) || entry.engines.node === undefined) continue;
      for (const version of [declaredMinimum?.version ?? '0.0.0', process.version]) {
        if (!semver.satisfies(version, entry.engines.node))
          refusing.push(`${path}@${entry.version}: node ${entry.engines.node} (not ${version})`);
      }
    }
    assert.deepEqual(refusing, []);
  });
});
