import { defineConfig } from "drizzle-kit";

/** drizzle-kit generates SQL migrations from db/schema.ts into db/migrations (committed). */
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
