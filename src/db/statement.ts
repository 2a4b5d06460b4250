// Statements built and compiled once, then run with new values: on a hot path (the pipeline's
// worker, the SQLite job queue) building and compiling the same query for every submission cost
// more than executing it. The query is built with placeholders standing for the values, compiled on
// its first run, and afterwards only its parameters change. On PostgreSQL the compiled text is also
// prepared once per connection (see preparedSql), so the server does not plan it again either.
import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import type { Db } from './database.ts';
import type { Transaction } from 'kysely';
import type { Tables } from './tables.ts';

export type Executor = Db | Transaction<Tables>;

/** Stands for the value named `name` in a statement's parameters. */
class Placeholder {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** SQL texts that statements compiled once produce: the PostgreSQL connection prepares these by name. */
const hotSql = new Map<string, string>();

/** The name a hot statement is prepared under on PostgreSQL; undefined for any other SQL. */
export function preparedName(sqlText: string): string | undefined {
  return hotSql.get(sqlText);
}

interface Compiled {
  query: CompiledQuery;
  /** For each parameter, its placeholder's name, or the constant written into the query. */
  slots: Array<{ name: string } | { value: unknown }>;
}

/** A query builder, or raw SQL (`sql` templates compile against the executor they will run on). */
type Buildable<O> = Compilable<O> | RawBuilder<O>;

const isRawBuilder = (built: Buildable<unknown>): built is RawBuilder<unknown> => (built as { isRawBuilder?: boolean }).isRawBuilder === true;

function compile<P>(executor: Executor, build: (db: Executor, values: P) => Buildable<unknown>): Compiled {
  const placeholders = new Proxy({}, { get: (_, name) => new Placeholder(String(name)) }) as P;
  const built = build(executor, placeholders);
  const query = isRawBuilder(built) ? built.compile(executor) : built.compile();
  if (!hotSql.has(query.sql)) hotSql.set(query.sql, `intake_${hotSql.size + 1}`);
  const slots = query.parameters.map((value) => (value instanceof Placeholder ? { name: value.name } : { value }));
  return { query, slots };
}

/**
 * A statement compiled on its first run. `build` receives placeholders for `values`: use them only
 * where a value goes (a placeholder cannot become a list or change the query's shape). A statement
 * belongs to one database (its dialect): create it beside the store that runs it.
 */
export function statement<P extends object, O>(build: (db: Executor, values: P) => Buildable<O>) {
  let compiled: Compiled | null = null;
  return async (executor: Executor, values: P): Promise<QueryResult<O>> => {
    compiled ??= compile(executor, build);
    const parameters = compiled.slots.map((slot) => ('name' in slot ? (values as Record<string, unknown>)[slot.name] : slot.value));
    return executor.executeQuery<O>({ ...compiled.query, parameters } as CompiledQuery<O>);
  };
}

/** Statements whose shape varies with a key (the columns a final status sets): one compiled per key. */
export function statements<K, P extends object, O>(build: (key: K) => (db: Executor, values: P) => Compilable<O>, keyOf: (key: K) => string) {
  const byKey = new Map<string, ReturnType<typeof statement<P, O>>>();
  return (executor: Executor, key: K, values: P): Promise<QueryResult<O>> => {
    const id = keyOf(key);
    let run = byKey.get(id);
    if (!run) byKey.set(id, (run = statement(build(key))));
    return run(executor, values);
  };
}
