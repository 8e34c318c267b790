/** oidc-provider ships no types; the development provider uses a small part of it (dev-idp.ts). */
declare module "oidc-provider" {
  const Provider: any;
  export default Provider;
}
