/**
 * A real OpenID provider in a process of its own, for the dashboard's end-to-end tests: the same
 * oidc-provider setup as the development sign-in, with the client the test registers.
 * Usage: bun test/support/idp-process.ts <client-id> <client-secret> <redirect-uri>
 * Prints one JSON line `{ "issuer": … }` when it listens; stops on SIGTERM.
 */
import { startDevIdp } from "../../src/dashboard/dev-idp.ts";

const [clientId, clientSecret, redirectUri] = process.argv.slice(2);
if (!clientId || !clientSecret || !redirectUri) {
  console.error("usage: idp-process.ts <client-id> <client-secret> <redirect-uri>");
  process.exit(2);
}
// A fourth argument `userinfo-only`: name and email only in the userinfo response.
const claimsInIdToken = process.argv[5] !== "userinfo-only";
const idp = await startDevIdp({ host: "127.0.0.1", port: 0, clientId, clientSecret, redirectUris: [redirectUri], claimsInIdToken });
console.log(JSON.stringify({ issuer: idp.issuer }));
process.once("SIGTERM", () => idp.stop().then(() => process.exit(0)));
