/** POST /dashboard/api/tokens/:jti/revoke: revokes one of the signed-in user's own tokens. */
import type { DashboardHandler } from "../../http/context.ts";
import type { DashboardContext } from "./context.ts";

export const revokeToken =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.authorizeChange(request, request.headers.get("x-csrf-token"));
    state.userId = session.userId;
    // The router decodes the segment; malformed escapes leave none, which names no token (404).
    const jti = state.params.jti ?? "";
    await c.d.account.revoke(session.userId, jti);
    return c.json(request, state, { jti, revoked: true });
  };
