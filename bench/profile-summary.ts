/**
 * Reads V8 CPU profiles (`node --cpu-prof`, as `BENCH_PROFILE_DIR=dir npm run bench` writes them for our server)
 * and prints where the busy time went (idle left out; start-up module loading shown as one line): self time by
 * package or source folder, self time by function, and inclusive time of our own functions (src/).
 * Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top] [last-seconds]
 * With last-seconds only the samples of the profile's last seconds count: the api part ends with its 10 s of
 * latest-status reads, so `… 25 10` is the read path alone.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArgument, lastSecondsArgument] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArgument ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
const spanMicros = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
const fromMicros = lastSecondsArgument === undefined ? 0 : spanMicros - Number(lastSecondsArgument) * 1e6;
let atMicros = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  atMicros += delta;
  if (atMicros >= fromMicros) selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta);
});
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const isIdle = (id: number): boolean => byId.get(id)?.callFrame.functionName === '(idle)';
const total = [...selfMicros].filter(([id]) => !isIdle(id)).reduce((sum, [, value]) => sum + value, 0);

/** node_modules/<package>, src/<folder>, node:<module>, or a V8 pseudo-frame such as (garbage collector). */
function placeOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules?.[1] !== undefined) return modules[1];
  const source = /\/(src\/[^/]+)\//.exec(url);
  if (source?.[1] !== undefined) return source[1];
  if (url.startsWith('node:internal/modules') || url.includes('/tsx/')) return '(start-up: module loading)';
  if (url.startsWith('node:')) return url;
  return url.replace(/^.*\//, '');
}

const functions = new Map<string, number>();
const places = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  const node = byId.get(id);
  if (node === undefined || isIdle(id)) continue;
  // Each of our functions on the sample's stack counts once.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (frame === undefined || !/\/src\//.test(frame.url)) continue;
    const key = `${frame.functionName || '(anonymous)'}  ${frame.url.replace(/^.*\/src\//, 'src/')}:${frame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }
  const { functionName, url, lineNumber } = node.callFrame;
  const place = placeOf(url, functionName);
  const key = `${functionName || '(anonymous)'}  ${place}${url === '' ? '' : `:${lineNumber + 1}`}`;
  functions.set(key, (functions.get(key) ?? 0) + micros);
  places.set(place, (places.get(place) ?? 0) + micros);
}
const percent = (micros: number): string => `${((100 * micros) / total).toFixed(1).padStart(5)} %`;
const print = (title: string, entries: Map<string, number>): void => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${percent(micros)}  ${key}\n`);
};
process.stdout.write(
  `${file}: ${(total / 1e6).toFixed(1)} s busy (idle left out)${lastSecondsArgument === undefined ? '' : ` in its last ${lastSecondsArgument} s`}\n`,
);
print('Self time by package or folder', places);
print('Self time by function', functions);
print('Inclusive time of our functions (src/)', inclusive);
