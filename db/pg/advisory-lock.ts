/**
 * PostgreSQL's transaction-level advisory locks in the two-int form: the class 'gs' in ASCII keeps
 * them apart from the one-bigint keys taken per user, and the object names what is locked, so both
 * are recognisable in pg_locks.
 */
import type { SQL } from "bun";

const LOCK_CLASS = 0x6773;

/** Takes the lock until the transaction `tx` ends. */
export async function advisoryXactLock(tx: SQL, object: number): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, ${object}::int)`;
}
