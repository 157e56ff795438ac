/**
 * A PostgreSQL database of one benchmark run's own (`djambi_bench_<random>`), created on the
 * server of `PG_TEST_URL` (default the machine's service) and dropped after the run, so that a
 * benchmark never writes into another database (tests/bench/cluster.ts, and `bench:server
 * --store postgres`).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where databases are created (and dropped): a superuser connection to the server. */
export const PG_ADMIN_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A new empty database; `url` connects to it, `drop` removes it (its connections closed by force). */
export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `djambi_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
