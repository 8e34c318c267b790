/** Who an operator's command acts as, for the admin audit log: `cli:` and the OS user that ran it. */
import { userInfo } from "node:os";

export function cliActor(env: Record<string, string | undefined>): string {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry for this uid (a bare container): the environment's word, else the uid.
  }
  return `cli:${name || env.USER || env.LOGNAME || String(process.getuid?.() ?? "unknown")}`;
}
