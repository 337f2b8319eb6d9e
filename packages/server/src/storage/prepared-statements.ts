/**
 * Server-side prepared statements for svc's hot statements on PostgreSQL (issue #17). Kysely
 * sends every query unnamed, so PostgreSQL parsed and planned a submit's insert on every call:
 * about a quarter of the database server's work per submit. The statements svc compiles once
 * (compiled-queries.ts, the submission batch statement among them) register their text here, and the pool
 * adapter sends a registered text as a named statement, which PostgreSQL parses and plans once
 * per connection. Behind a transaction-pooling PgBouncer older than 1.21 a named statement can
 * reach a server connection that never prepared it; `database.preparedStatements: false` is for
 * that setup.
 */
import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * Registered texts and their names. Never cleared: a connection keeps a name bound to the text it
 * prepared, so a name must never stand for another text. Texts past the cap simply run unnamed.
 * Each connection holds a plan per name it ran; the cap bounds that memory on the server (a
 * batch's shapes, rows by jobs, come first and are the ones that recur).
 */
const names = new Map<string, string>();
const MAX_NAMED = 256;

/** Marks `text` as a hot statement: on a naming pool it runs as a prepared statement. */
export function registerPrepared(text: string): void {
  if (names.has(text) || names.size >= MAX_NAMED) return;
  names.set(text, `svc_${names.size + 1}`);
}

/** `pool` for Kysely, sending registered texts as named statements. */
export function namingPool(pool: pg.Pool): PostgresPool {
  // Kysely keeps its connection object per client object: hand out one adapter per client.
  const adapters = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const adapt = (client: pg.PoolClient): PostgresPoolClient => ({
    // Kysely calls query(text, values) only: svc configures no cursor.
    query: ((text: string, values: unknown[]) => {
      const name = names.get(text);
      return name ? client.query({ name, text, values }) : client.query(text, values);
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    async connect() {
      const client = await pool.connect();
      let adapter = adapters.get(client);
      if (!adapter) {
        adapter = adapt(client);
        adapters.set(client, adapter);
      }
      return adapter;
    },
    end: () => pool.end(),
  };
}
