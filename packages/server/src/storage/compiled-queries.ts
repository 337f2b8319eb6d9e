/**
 * Hot statements compiled once: Kysely builds and compiles a query on every call, which for the
 * hottest statements (a submission's insert, an upload's insert and count) costs more than
 * running it (issue #17). The SQL text is kept per dialect adapter, which a database shares with
 * its transactions (each transaction is a new object), and run again with the new parameters;
 * on PostgreSQL as a prepared statement (prepared-statements.ts).
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import { registerPrepared } from './prepared-statements.js';

/** A database or a transaction of any schema. */
type Runner = Pick<Kysely<unknown>, 'getExecutor' | 'executeQuery'>;

const compiled = new WeakMap<object, Map<string, { readonly sql: string; readonly arity: number }>>();

/**
 * Runs the statement `name` with `parameters`, given in the order the query `build` makes binds
 * them (insert: column order; select: the order of its where calls). `build` runs once per
 * dialect; a parameter count that differs from its query's is a programming error and throws.
 */
export async function runCompiled<R>(db: Runner, name: string, build: () => Compilable<R>, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  const adapter = db.getExecutor().adapter;
  let byName = compiled.get(adapter);
  if (!byName) {
    byName = new Map();
    compiled.set(adapter, byName);
  }
  let statement = byName.get(name);
  if (!statement) {
    const query = build().compile();
    statement = { sql: query.sql, arity: query.parameters.length };
    byName.set(name, statement);
    registerPrepared(query.sql);
  }
  if (parameters.length !== statement.arity) throw new Error(`${name}: ${parameters.length} parameters for a statement that binds ${statement.arity}`);
  return db.executeQuery<R>(CompiledQuery.raw(statement.sql, [...parameters]));
}
