import { defineConfig } from "drizzle-kit";

/** drizzle-kit generates SQL migrations from db/sqlite/schema.ts into db/sqlite/migrations (committed). */
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/sqlite/schema.ts",
  out: "./db/sqlite/migrations",
});
