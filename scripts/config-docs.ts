/**
 * What the configuration schema (src/config/schema.ts) writes: its plain JSON Schema copy for the loader
 * (src/config/schema.generated.ts), `.env.example` and the README's configuration table. `npm run config:docs`
 * (scripts/write-config-docs.ts) writes them; test/config/schema.test.ts compares them with these.
 */
import { CONFIG_SECTIONS, ConfigEnvironment, type SettingSchema } from '../src/config/schema.js';

const WIDTH = 118;

/** src/config/schema.generated.ts: the schema as plain data, so the loader need not load TypeBox. */
export function renderGeneratedSchema(): string {
  const json = JSON.stringify(ConfigEnvironment, null, 2);
  return [
    '// Written by `npm run config:docs` from src/config/schema.ts: the configuration schema as plain JSON Schema, which',
    '// the loader (src/config/config.ts) reads without loading TypeBox. Do not edit; test/config/schema.test.ts fails',
    '// when it is out of step.',
    "import type { EnvironmentJsonSchema } from './settings.js';",
    '',
    `export const ENVIRONMENT_SCHEMA = ${json} as const satisfies EnvironmentJsonSchema;`,
    '',
  ].join('\n');
}

/** Markdown or plain text the way a comment in .env.example shows it: links as their targets, no backticks. */
function plain(text: string): string {
  return text.replace(/`/g, '');
}

function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

const settingsOf = (section: (typeof CONFIG_SECTIONS)[number]): [string, SettingSchema][] =>
  Object.entries(section.settings.properties as Record<string, SettingSchema>);

/** A default as an environment variable writes it. */
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- a setting's default is a string, number or boolean
const defaultText = (schema: SettingSchema): string | undefined => (schema.default === undefined ? undefined : String(schema.default));

/** .env.example: every setting with its description, in sections, set to its default (unset when it has none). */
export function renderEnvExample(): string {
  const lines = [
    '# openpis configuration, written by `npm run config:docs` from src/config/schema.ts (do not edit here).',
    '# Every variable is optional; the values shown are the defaults, and an empty value means unset.',
    '# The service reads only the process environment (this file is a reference, not loaded automatically).',
  ];
  for (const section of CONFIG_SECTIONS) {
    lines.push('', `# --- ${section.title} ---`);
    for (const [name, schema] of settingsOf(section)) {
      const unsetText = schema['x-unset'] === undefined ? '' : ` Unset: ${schema['x-unset']}.`;
      lines.push(...commentLines(plain(`${schema.description ?? ''}.${unsetText}`)), `${name}=${defaultText(schema) ?? ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export const README_TABLE_START = '<!-- configuration table: written by `npm run config:docs` from src/config/schema.ts -->';
export const README_TABLE_END = '<!-- end of the configuration table -->';

/** The README's configuration table, between its two markers. */
export function renderReadmeTable(): string {
  const rows = CONFIG_SECTIONS.flatMap((section) =>
    settingsOf(section).map(([name, schema]) => {
      const fallback = defaultText(schema);
      const cell = fallback === undefined ? `unset: ${schema['x-unset'] ?? 'none'}` : `\`${fallback}\``;
      return `| \`${name}\` | ${cell} | ${(schema.description ?? '').replace(/\|/g, '\\|')} |`;
    }),
  );
  return [README_TABLE_START, '| Variable | Default | Meaning |', '|---|---|---|', ...rows, README_TABLE_END].join('\n');
}

/** The README with its configuration table replaced by the schema's. */
export function readmeWithTable(readme: string): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`README.md has no configuration table between "${README_TABLE_START}" and "${README_TABLE_END}"`);
  return readme.slice(0, start) + renderReadmeTable() + readme.slice(end + README_TABLE_END.length);
}
