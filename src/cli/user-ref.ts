/** A `--user USER` filter given as a user id or e-mail (admin-store.ts resolveUser). */
import { StatusError } from "../status-error.ts";
import type { CommandStores } from "./command-stores.ts";

/** The user's id; the text as given when no user has it as id or e-mail (a filter then matches nothing, as before). */
export async function userIdOf(stores: Pick<CommandStores, "admin">, ref: string): Promise<string> {
  try {
    return (await stores.admin.resolveUser(ref)).id;
  } catch (err) {
    if (err instanceof StatusError && err.status === 404) return ref;
    throw err;
  }
}
