import { defineConfig } from "drizzle-kit";

/** drizzle-kit generates PostgreSQL migrations from db/pg/schema.ts into db/pg/migrations (committed); paths are from the repo root, where `npm run db:generate:pg` runs. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/pg/schema.ts",
  out: "./db/pg/migrations",
});
