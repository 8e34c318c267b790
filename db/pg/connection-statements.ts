/**
 * PostgreSQL's connection limit and the connections open against it, for the alert that fires
 * before new connections are refused: every instance's pool, psql sessions and backups all count.
 */
import type { SQL } from "bun";

/** A count that takes longer than this is left out of the scrape rather than holding it. */
const COUNT_TIMEOUT_MS = 1000;

/** The server's max_connections (a restart changes it, so once per process is enough). */
export async function readMaxConnections(sql: SQL): Promise<number> {
  const [row] = await sql`SELECT current_setting('max_connections')::int AS max`;
  return (row as { max: number }).max;
}

/** Client connections open on the server, from every database and role (null when it does not answer in time). */
export function countServerConnections(sql: SQL): () => Promise<number | null> {
  return () =>
    Promise.race([
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend'`.then(
        (rows) => (rows[0] as { n: number }).n,
        () => null,
      ),
      Bun.sleep(COUNT_TIMEOUT_MS).then(() => null),
    ]);
}
