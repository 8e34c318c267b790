/** Authentication: token verification and minting, the signing secret, and the token and user stores. */
export { createVerifier, AUTH_MESSAGES, type TokenClaims, type VerifyResult, type VerifierOptions } from "./verify-token.ts";
export { mintToken, DEFAULT_ISSUER, type MintOptions, type MintedToken } from "./mint-token.ts";
export { parseDuration } from "./duration.ts";
export { resolveSecret, secretForMinting, SecretMismatchError } from "./secret.ts";
export type { AuthStore, IssuedToken, RevokeOutcome, TokenRecord, UserRecord } from "./auth-store.ts";
export { createSqliteAuthStore, sqliteAuthStoreOf, setDisabled } from "./auth-stores.ts";
export { createPgAuthStore } from "./auth-stores.ts";
export { assertEnabled, effectiveLimits, type UserAccess } from "./user-access.ts";
