/**
 * Sign-in over OpenID Connect with panva's openid-client: discovery once, then per sign-in an
 * authorization URL with PKCE, state and nonce, and on the callback the code exchange with
 * ID-token verification. No OAuth is written by hand here.
 */
import * as oidc from "openid-client";
import { isLoopbackHost } from "./dev-idp.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `{PUBLIC_URL}/auth/callback`, exactly as registered with the provider. */
  redirectUri: string;
}

/** What the browser keeps (encrypted) between the redirect to the provider and the callback. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
}

export interface SignedInIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
}

export interface OidcClient {
  begin(): Promise<{ url: string; pending: PendingSignIn }>;
  /** `callbackUrl` is the redirect URI with the provider's query string. Throws on any mismatch. */
  finish(callbackUrl: URL, pending: PendingSignIn): Promise<SignedInIdentity>;
}

/** `settings` may still be on its way (the development provider picks its port at start). */
export function createOidcClient(settings: OidcSettings | Promise<OidcSettings>): OidcClient {
  let discovered: Promise<oidc.Configuration> | null = null;
  // Discovery is retried on the next sign-in when the provider was unreachable.
  const configuration = () => {
    discovered ??= Promise.resolve(settings)
      .then(discover)
      .catch((err) => {
        discovered = null;
        throw err;
      });
    return discovered;
  };
  return {
    async begin() {
      const config = await configuration();
      const s = await settings;
      const pending = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: s.redirectUri,
        scope: "openid email profile",
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: "S256",
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },
    async finish(callbackUrl, pending) {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error("the identity provider returned no ID token");
      const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v.slice(0, 256) : null);
      let email = str(claims.email);
      let name = str(claims.name) ?? str(claims.preferred_username);
      // Many providers (oidc-provider's default among them) put these only in the userinfo response.
      if ((email === null || name === null) && tokens.access_token) {
        try {
          const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
          email ??= str(info.email);
          name ??= str(info.name) ?? str(info.preferred_username);
        } catch {
          // Without userinfo the sign-in still stands; the page shows the user's id instead of a name.
        }
      }
      return { issuer: claims.iss, subject: claims.sub, email, name };
    },
  };
}

/** Plain http is allowed only for a provider on loopback (the development sign-in, tests). */
function discover(s: OidcSettings): Promise<oidc.Configuration> {
  const issuer = new URL(s.issuer);
  const insecure = issuer.protocol === "http:" && isLoopbackHost(issuer.hostname);
  return oidc.discovery(issuer, s.clientId, s.clientSecret, undefined, {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
    timeout: 10,
  });
}
