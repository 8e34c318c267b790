/** POST /dashboard/api/tokens: mints a token for the signed-in user (at most 10 an hour). */
import type { DashboardHandler } from "../../http/context.ts";
import type { DashboardContext } from "./context.ts";

export const generateToken =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.authorizeChange(request, request.headers.get("x-csrf-token"));
    state.userId = session.userId;
    // A refusal is an AccountError, which carries its own status.
    const token = await c.d.account.generate(await c.userOf(session));
    c.d.app.metrics?.tokenGenerated();
    c.d.app.logger.info({ request_id: state.requestId, user_id: session.userId, jti: token.jti }, "token generated in the dashboard");
    return c.json(request, state, token, 201);
  };
