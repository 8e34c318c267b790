/** Dispatches `graph-stats <command>`; returns the exit code (0 ok, 1 failure, 2 usage). */
import { PG_MIGRATIONS } from "../../db/pg/migrations.ts";
import { MIGRATIONS } from "../../db/sqlite/migrations.ts";
import { commit, VERSION } from "../version.ts";
import { parseCli, UsageError, type ParsedArgs } from "./args.ts";
import { COMMAND_HELP, USAGE } from "./usage-text.ts";

type Command = (args: ParsedArgs) => Promise<number> | number;

/**
 * Each command's module is loaded when it runs, so a command loads only what it uses: `--help`,
 * `--version` and a usage error cost 0.1 s of CPU instead of 0.5, a store command (token, user,
 * usage, …) 0.25 s; only `serve` loads the server (docs/tests.md § What a process costs).
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import("./serve-command.ts")).serveCommand,
  migrate: async () => (await import("./migrate-command.ts")).migrateCommand,
  import: async () => (await import("./import-command.ts")).importCommand,
  token: async () => (await import("./token-command.ts")).tokenCommand,
  secret: async () => (await import("./secret-command.ts")).secretCommand,
  user: async () => (await import("./user-command.ts")).userCommand,
  plan: async () => (await import("./plan-command.ts")).planCommand,
  audit: async () => (await import("./audit-command.ts")).auditCommand,
  usage: async () => (await import("./usage-command.ts")).usageCommand,
  universe: async () => (await import("./universe-command.ts")).universeCommand,
  "import-metadata": async () => (await import("./metadata-command.ts")).importMetadataCommand,
};

export async function runCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  try {
    const args = parseCli(argv, env);
    if (args.flags.version) {
      // The schema each database is brought to: what a binary's `migrate` would apply.
      console.log(
        `graph-stats ${VERSION} (commit ${commit()}; schema: SQLite ${MIGRATIONS.at(-1)!.tag}, PostgreSQL ${PG_MIGRATIONS.at(-1)!.tag})`,
      );
      return 0;
    }
    const name = args.positionals[0] ?? "serve";
    if (name === "help" || args.flags.help) {
      const topic = name === "help" ? args.positionals[1] : args.positionals[0];
      console.log((topic && COMMAND_HELP[topic]) || USAGE);
      return 0;
    }
    const load = COMMANDS[name];
    if (!load) throw new UsageError(`unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(", ")}`);
    const command = await load();
    return await command({ ...args, positionals: args.positionals.slice(1) });
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`graph-stats: ${err.message}\nRun 'graph-stats --help' for usage.`);
      return 2;
    }
    console.error(`graph-stats: ${(err as Error).message ?? String(err)}`);
    return 1;
  }
}
