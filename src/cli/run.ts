/** Dispatches `graph-stats <command>`; returns the exit code (0 ok, 1 failure, 2 usage). */
import { VERSION } from "../version.ts";
import { parseCli, UsageError, type ParsedArgs } from "./args.ts";
import { importCommand } from "./import-command.ts";
import { migrateCommand } from "./migrate-command.ts";
import { secretCommand } from "./secret-command.ts";
import { serveCommand } from "./serve-command.ts";
import { tokenCommand } from "./token-command.ts";
import { usageCommand } from "./usage-command.ts";
import { userCommand } from "./user-command.ts";
import { COMMAND_HELP, USAGE } from "./usage-text.ts";

type Command = (args: ParsedArgs) => Promise<number> | number;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  import: importCommand,
  token: tokenCommand,
  secret: secretCommand,
  user: userCommand,
  usage: usageCommand,
};

export async function runCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  try {
    const args = parseCli(argv, env);
    if (args.flags.version) {
      console.log(VERSION);
      return 0;
    }
    const name = args.positionals[0] ?? "serve";
    if (name === "help" || args.flags.help) {
      const topic = name === "help" ? args.positionals[1] : args.positionals[0];
      console.log((topic && COMMAND_HELP[topic]) || USAGE);
      return 0;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(", ")}`);
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
