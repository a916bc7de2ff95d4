/**
 * Output and argument checks shared by the CLI's commands: people get aligned tables with headers, scripts get
 * `--json` (structured values as JSON, never JSON inside a string), and ids are checked before anything is opened.
 */
import { InvalidArgumentError } from 'commander';

/** Prints `value` as JSON with `--json`, otherwise the text made by `text`. */
export function print(value: unknown, json: boolean, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);
}

/** An aligned text table: a header row, then one row per entry; the last column is not padded. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A commander argument/option parser accepting a UUID (client, payment and event ids are UUIDs). */
export function uuidArgument(what: string): (value: string) => string {
  return (value) => {
    if (!UUID.test(value)) throw new InvalidArgumentError(`${what} must be a UUID`);
    return value.toLowerCase();
  };
}

/** A commander parser for a whole number within bounds. */
export function wholeNumber(what: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${what} must be a whole number from ${min} to ${max}`);
    return Number(value);
  };
}
