/** What the dashboard's endpoints need from the server (server.ts builds it). */
import type { AdminStore } from "../../admin/admin-store.ts";
import type { AuthStore } from "../../auth/index.ts";
import type { AppDeps } from "../../http/context.ts";
import type { Limits } from "../../metering/index.ts";
import type { UsageOverview } from "../../metering/usage-overview.ts";
import type { Account } from "../account.ts";
import type { OidcClient, PendingSignIn } from "../oidc-client.ts";
import type { Sealer } from "../sealed-cookie.ts";
import type { SessionStore } from "../session-store.ts";
import type { WebAssets } from "../web-assets.ts";

export interface DashboardDeps {
  app: AppDeps;
  auth: AuthStore;
  sessions: SessionStore;
  account: Account;
  /** The console's actions (endpoints/admin/), each written to the admin audit log. */
  admin: AdminStore;
  /** The console's usage figures. */
  usageOverview: UsageOverview;
  /** Null when no identity provider is configured (the page says how to configure one). */
  signIn(): OidcClient | null;
  dev: boolean;
  publicUrl(): string;
  /**
   * False when the public URL is the loopback default: a page opened at another host name
   * (`localhost` for `127.0.0.1`) is then sent to the canonical one, or its cookies and Origin
   * would not match the sign-in's redirect URI. With a configured URL nothing is redirected, since
   * a proxy in front may rewrite Host.
   */
  publicUrlConfigured: boolean;
  loginSealer: Sealer<PendingSignIn>;
  defaults: Limits;
  assets(): Promise<WebAssets>;
}
