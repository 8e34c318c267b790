/** SQL migration files are imported as text (`with { type: "text" }`) so the binary embeds them. */
declare module "*.sql" {
  const text: string;
  export default text;
}
