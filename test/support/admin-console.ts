/**
 * The admin console under test through app.handle: a sign-in server (sign-in-server.ts) with one
 * admin and one plain user signed in, and calls carrying a session's cookie, Origin and CSRF token.
 */
import { startSignInServer, type SignInServer } from "./sign-in-server.ts";

export interface Someone {
  id: string;
  cookie: string;
  csrf: string;
}

export interface ConsoleRig {
  s: SignInServer;
  admin: Someone;
  plain: Someone;
  /** A call as `who` (null: signed out), with our Origin and `who`'s CSRF token unless `headers` say otherwise. */
  call(
    method: string,
    path: string,
    who: Someone | null,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; res: Response; code?: string; message?: string }>;
  /** The admin audit log's rows, newest first (read from the database, not through the console). */
  auditRows(): { actor: string; action: string; target: string; before: string | null; after: string | null }[];
  stop(): Promise<void>;
}

export async function startConsole(): Promise<ConsoleRig> {
  const s = await startSignInServer();
  const someone = async (name: string, admin: boolean): Promise<Someone> => {
    const { cookie, csrf } = await s.signIn(name);
    const state = (await (await s.handle("/dashboard/api/state", { headers: { Cookie: cookie } })).json()) as {
      data: { user: { id: string } };
    };
    const id = state.data.user.id;
    if (admin) s.server.opened.sqlite.query("UPDATE users SET admin = 1 WHERE id = ?").run(id);
    return { id, cookie, csrf };
  };
  const admin = await someone("root", true);
  const plain = await someone("pat", false);
  return {
    s,
    admin,
    plain,
    async call(method, path, who, body, headers = {}) {
      const h: Record<string, string> = { Origin: s.base };
      if (who) {
        h.Cookie = who.cookie;
        h["X-CSRF-Token"] = who.csrf;
      }
      if (body !== undefined) h["Content-Type"] = "application/json";
      const res = await s.handle(path, {
        method,
        headers: { ...h, ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.clone().text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      const errors = (parsed as { errors?: { code: string; message: string }[] })?.errors;
      return { status: res.status, body: parsed, res, code: errors?.[0]?.code, message: errors?.map((e) => e.message).join("; ") };
    },
    auditRows: () =>
      s.server.opened.sqlite
        .query<{ actor: string; action: string; target: string; before: string | null; after: string | null }, []>(
          "SELECT actor, action, target, before, after FROM admin_audit ORDER BY id DESC",
        )
        .all(),
    stop: () => s.stop(),
  };
}
