/**
 * The documents name the code where it is. Files move (the statuses went from src/flow/ to src/domain/, the
 * connector contract from connector.ts to contract.ts) and folders are added (src/sandbox-scenarios/, a second
 * banking standard); a document that still points at the old place, or leaves the new one out, misleads the next
 * reader. So:
 *
 * - every `src/…` path named in docs/ and in any README exists (from the project's root, or from the README's own
 *   folder for a package's README);
 * - a README inside src/ names every file and folder of its folder, and every name it gives there exists;
 * - the README's "Where things are" table names every folder of src/, and the file or folder names in a row exist
 *   in that row's folder.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'data']);

function markdownFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const exists = (path: string): boolean => existsSync(join(ROOT, path));

/** `src/…` paths in a text; patterns (`*`, `{…}`, `<…>`, `…`) are not paths. */
function sourcePaths(text: string): string[] {
  return [...text.matchAll(/(?<![\w/.-])src\/[\w./[\]-]*/g)]
    .map((match) => match[0].replace(/[.,:;]+$/, ''))
    .filter((path) => !/[*{}<>…]/.test(path) && !/\[|\]/.test(path));
}

/** Names in backticks that look like a file (`x.ts`, `x.json`) or a folder (`x/`), not a URL path or a command. */
function namedEntries(text: string): string[] {
  return [...text.matchAll(/`([\w.-]+(?:\/[\w.-]+)*(?:\.(?:ts|json|md)|\/))`/g)].map((match) => match[1]!);
}

describe('paths named in the documents', () => {
  const documents = [
    ...markdownFiles('docs'),
    ...markdownFiles('.').filter((path) => path.endsWith('README.md') && !path.startsWith('docs')),
  ];

  it('every src/… path named in docs/ and the READMEs exists', () => {
    const missing = documents.flatMap((document) =>
      sourcePaths(read(document))
        .filter((path) => !exists(path) && !exists(join(dirname(document), path)))
        .map((path) => `${document}: ${path}`),
    );
    assert.deepEqual([...new Set(missing)], []);
  });

  it('a README inside src/ names every file and folder beside it, and only those that exist', () => {
    const problems: string[] = [];
    for (const document of documents.filter((path) => path.startsWith('src/'))) {
      const folder = dirname(document);
      const text = read(document);
      const named = namedEntries(text);
      for (const name of named) {
        if (!exists(join(folder, name))) problems.push(`${document} names ${name}, which is not in ${folder}/`);
      }
      for (const entry of readdirSync(join(ROOT, folder))) {
        if (entry === 'README.md' || entry.endsWith('.test.ts')) continue;
        const shown = statSync(join(ROOT, folder, entry)).isDirectory() ? `${entry}/` : entry;
        if (!named.includes(shown)) problems.push(`${document} does not name ${shown}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('"Where things are" names every folder of src/, and what each row names is in its folder', () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Where things are'));
    const table = section.slice(0, section.indexOf('\n## ') === -1 ? undefined : section.indexOf('\n## '));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const problems: string[] = [];
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`);
    for (const folder of folders) {
      if (!rows.some((row) => row.split('|')[1]!.includes(`\`${folder}\``))) problems.push(`no row names ${folder}`);
    }
    for (const row of rows) {
      const [, first = '', what = ''] = row.split('|');
      const folder = /`([\w./-]+\/)`/.exec(first)?.[1];
      if (folder === undefined) continue;
      for (const name of namedEntries(what)) {
        // A name from the project's root (`openapi.json`, `docs/…`) is fine too.
        if (!exists(join(folder, name)) && !exists(name))
          problems.push(`the row of ${folder} names ${name}, which is not in it (${relative(ROOT, join(ROOT, folder, name))})`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
