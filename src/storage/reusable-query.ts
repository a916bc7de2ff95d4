/**
 * A query built and compiled once, then run with new values each time. Kysely builds a query's tree and compiles
 * it to SQL on every call; for the API's hottest read (the latest status) that was a large part of the request
 * (docs/performance.md). The query is built with a named placeholder for each value; the compiled parameters are
 * matched to the names, so binding does not depend on the order Kysely writes them in.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Placeholders are strings no caller sends: a NUL byte cannot reach a query from the API's validated input. */
const PLACEHOLDER_PREFIX = '\u0000reusable-query:';

export class ReusableQuery<Row, Name extends string> {
  private compiled: CompiledQuery<Row> | undefined;
  /** For each compiled parameter, the name whose value goes there; undefined keeps the compiled value. */
  private slots: readonly (Name | undefined)[] = [];

  /** `build` writes the query with `value(name)` wherever a value of the call goes. */
  constructor(private readonly build: (value: (name: Name) => string) => Compilable<Row>) {}

  async execute<DB>(db: Kysely<DB>, values: Readonly<Record<Name, string>>): Promise<Row[]> {
    const compiled = this.compiled ?? this.compile();
    const parameters = compiled.parameters.map((parameter, index) => {
      const name = this.slots[index];
      return name === undefined ? parameter : values[name];
    });
    const { rows } = await db.executeQuery<Row>({ ...compiled, parameters });
    return rows;
  }

  private compile(): CompiledQuery<Row> {
    const compiled = this.build((name) => `${PLACEHOLDER_PREFIX}${name}`).compile();
    this.slots = compiled.parameters.map((parameter) =>
      typeof parameter === 'string' && parameter.startsWith(PLACEHOLDER_PREFIX)
        ? (parameter.slice(PLACEHOLDER_PREFIX.length) as Name)
        : undefined,
    );
    this.compiled = compiled;
    return compiled;
  }
}
