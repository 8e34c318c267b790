/**
 * Which identity provider signs users in: the one configured (`--oidc-issuer` with its client id
 * and secret, any provider found by discovery), or with `serve --dev` the embedded development
 * provider on loopback; none otherwise. Settings that cannot work stop `serve` with a message.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { DEV_CLIENT_ID, isLoopbackHost, startDevIdp, type DevIdp } from "./dev-idp.ts";
import { createOidcClient, type OidcClient } from "./oidc-client.ts";

export interface SignInSetup {
  client: OidcClient | null;
  dev: boolean;
  stop(): Promise<void>;
}

/** Checks the settings before anything listens; throws a plain Error naming the options. */
export function checkSignInConfig(config: Config): void {
  if (config.oidcIssuer) {
    const missing = [
      !config.oidcClientId && "--oidc-client-id (GRAPH_STATS_OIDC_CLIENT_ID)",
      !config.oidcClientSecret && "--oidc-client-secret (GRAPH_STATS_OIDC_CLIENT_SECRET)",
      !config.publicUrl && "--public-url (GRAPH_STATS_PUBLIC_URL)",
    ].filter(Boolean);
    if (missing.length) throw new Error(`--oidc-issuer needs ${missing.join(", ")}`);
    return;
  }
  if (config.dev && config.workers > 1) {
    throw new Error(
      "the development sign-in runs in one process (its provider keeps sign-ins in memory): use --workers 1 with --dev, or configure a real provider with --oidc-issuer",
    );
  }
  if (config.dev && config.publicUrl && !isLoopbackHost(new URL(config.publicUrl).hostname)) {
    throw new Error(
      `the development sign-in only runs on loopback, and --public-url is ${config.publicUrl}: use a loopback public URL, or configure a real provider with --oidc-issuer`,
    );
  }
}

/** The public URL the service is reached at when none is configured: loopback on the listening port. */
export function defaultPublicUrl(config: Config, port: number): string {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export function setUpSignIn(config: Config, publicUrl: () => string, port: number, logger: Logger): SignInSetup {
  checkSignInConfig(config);
  if (config.oidcIssuer) {
    return {
      client: createOidcClient({
        issuer: config.oidcIssuer,
        clientId: config.oidcClientId!,
        clientSecret: config.oidcClientSecret!,
        redirectUri: `${publicUrl()}/auth/callback`,
      }),
      dev: false,
      stop: async () => {},
    };
  }
  if (!config.dev) return { client: null, dev: false, stop: async () => {} };

  const clientSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const redirectUri = `${publicUrl()}/auth/callback`;
  const idpPort = config.devIdpPort ?? (port === 0 || config.port === 0 ? 0 : port + 1);
  const started: Promise<DevIdp> = startDevIdp({
    host: "127.0.0.1",
    port: idpPort,
    clientId: DEV_CLIENT_ID,
    clientSecret,
    redirectUris: [redirectUri],
  });
  started.then(
    (idp) =>
      logger.info(
        { issuer: idp.issuer },
        "development sign-in: an embedded identity provider on loopback (any name signs in; not for production)",
      ),
    (err) => logger.error({ err: String((err as Error).message ?? err) }, "the development sign-in could not start"),
  );
  const settings = started.then((idp) => ({ issuer: idp.issuer, clientId: DEV_CLIENT_ID, clientSecret, redirectUri }));
  settings.catch(() => {}); // reported above; a sign-in attempt reports it again
  return {
    client: createOidcClient(settings),
    dev: true,
    stop: async () => {
      await started.then(
        (idp) => idp.stop(),
        () => {},
      );
    },
  };
}
