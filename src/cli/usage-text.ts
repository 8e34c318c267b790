/** The help text of `graph-stats --help`; `graph-stats <command> --help` prints COMMAND_HELP. */
import { CONFIG_OPTIONS, CONFIG_SCHEMA, type Config } from "../config.ts";

/**
 * One line per setting of src/config.ts; typed by its keys, so a new setting without a line here
 * does not compile, and serve's help cannot drift from what serve accepts.
 */
const SERVE_FLAGS: Record<keyof Config, [arg: string, what: string]> = {
  port: ["N", "port to listen on (0: any free port)"],
  host: ["ADDR", "address to listen on"],
  db: ["PATH", "SQLite database file (the embedded default)"],
  databaseUrl: [
    "URL",
    "postgres://… : users, tokens, sessions, metering and settings in PostgreSQL, shared by every instance (wins over --db)",
  ],
  dbPool: ["N", "PostgreSQL connections per process, all opened at its first query"],
  dbStatementTimeout: [
    "MS|Ns",
    "longest a PostgreSQL statement, or a wait for another process's SQLite write lock, may last before the request is a 503",
  ],
  jwtSecret: ["S", "HS256 secret, ≥ 16 characters (else one is generated and kept in the database)"],
  jwtPreviousSecrets: ["S,...", "older secrets still accepted while tokens rotate, each ≥ 16 characters"],
  tokenTtl: ["DURATION", "lifetime of tokens minted by the dashboard and token create"],
  ratePerMinute: ["N", "default live requests per user per minute"],
  ratePerDay: ["N", "default live requests per user per UTC day"],
  defaultUniverse: ["NAME", "universe used when a request names none"],
  corsOrigins: ["URL,...", "origins allowed to call the API from a browser"],
  logLevel: ["LEVEL", "fatal error warn info debug trace silent"],
  sample: ["", "do not load the synthetic 'sample' universe into a new database"],
  workers: ["N", "processes sharing the port"],
  computeThreads: ["N", "threads per process for live computations (0: on the event loop)"],
  auditRetentionDays: ["N", "audit rows and counts older than this are pruned (at start and hourly)"],
  cacheMb: ["N", "memory bound of the result cache in MiB (0: no cache)"],
  seriesCacheMb: ["N", "memory bound of the series cache (loaded bars) in MiB for the whole process (0: no cache)"],
  costBudget: ["MS", "live requests estimated to cost more milliseconds of one core are refused with 400 before admission"],
  admittedCost: ["MS", "bound on the estimated cost of live computations admitted and not yet answered; beyond it 503, not counted"],
  admittedMb: ["MB", "bound on the estimated memory of those computations; beyond it 503, not counted"],
  publicUrl: ["URL", "address users reach the service at (sign-in redirects to URL/auth/callback)"],
  oidcIssuer: ["URL", "OpenID Connect provider for the dashboard's sign-in"],
  oidcClientId: ["ID", "client id registered with that provider"],
  oidcClientSecret: ["S", "client secret registered with that provider"],
  dev: ["", "development identity provider for the dashboard, loopback only; one worker"],
  devIdpPort: ["N", "its port (default: the service's port + 1)"],
  metricsAllow: ["ADDR,...", "addresses or CIDR blocks (or *) that may read /metrics"],
  trustedProxies: ["ADDR,...", "proxies (addresses or CIDR blocks) whose X-Forwarded-For names the client, for its limits"],
};

/** The serve flags, one a line, with their defaults from CONFIG_SCHEMA. */
export function serveFlags(): string {
  const defaults = CONFIG_SCHEMA.parse({}) as Record<string, unknown>;
  return CONFIG_OPTIONS.map(({ key, flag: name, switchTo }) => {
    const [arg, what] = SERVE_FLAGS[key];
    const flag = `--${name}${arg ? ` ${arg}` : ""}`;
    const d = defaults[key];
    const shown =
      key === "computeThreads"
        ? ` (default: cores, from 1 to 8; ${d} here)`
        : d === undefined || switchTo !== undefined || (Array.isArray(d) && d.length === 0)
          ? ""
          : ` (default ${Array.isArray(d) ? d.join(",") : d})`;
    return `  ${flag.padEnd(27)} ${what}${shown}`;
  }).join("\n");
}

export const USAGE = `graph-stats — correlation-network metrics for stock universes over HTTP

Usage: graph-stats [command] [flags]

Commands:
  serve                     run the HTTP service (default)
  migrate                   create or update the database schema [--status: what is pending, changing nothing]
  import FILE...            import OHLCV CSV files into a universe (--universe NAME [--interval 1d]
                            [--default-offset +05:30] [--map field=Column,...] [--price close|adj_close] [--replace])
  import-metadata FILE      each symbol's name, sector and industry (CSV symbol,name,sector,industry)
  universe list|show NAME   the stored universes, one universe's coverage per symbol [--json]
  universe remove NAME SYM… take symbols out of a universe (bars stay) [--json]
  universe delete NAME      delete a universe [--purge: also bars no other universe lists] [--json]
  token create              mint tokens: --user ID (repeatable) | --users N [--prefix load-]; [--ttl 24h] [--email E] [--json]
  token list                list minted tokens [--user ID] [--json]
  token revoke JTI...       revoke tokens by jti
  user create ID            create a user [--email E]
  user disable USER         refuse the user's tokens with 403 (USER: the user's id or e-mail, everywhere)
  user enable USER          re-enable the user
  user limits USER          show or set the user's own limits, over its plan's [--per-minute N] [--per-day N] [--reset]
  user plan USER PLAN       put the user on a plan ('free' is the default)
  user admin USER --on|--off  let the user use the console (/dashboard/admin) and the admin API, or not
  user revoke-tokens USER   revoke every live token of the user
  user show USER            the user: plan, limits and where they come from, tokens, usage [--json]
  user list [TEXT]          users whose id, e-mail or name contains TEXT [--limit 50] [--offset 0] [--json]
  plan create NAME          a named limit set: --per-minute N --per-day N
  plan set NAME             change a plan (free included) [--per-minute N] [--per-day N]
  plan list / plan delete NAME  the plans and their users / delete one no user is on [--json]
  audit                     the admin audit log, newest first [--target T] [--actor A] [--limit 50] [--json]
  usage                     admitted / refused / uncounted requests per user and UTC day [--user ID] [--days 1] [--json]
  secret show               print the signing secret serve generated and keeps in the database (for the kit's --secret)

Only serve, migrate and import create a missing database; the other commands need an existing one.
'graph-stats <command> --help' shows a command's flags with examples.

Common flags (each also as an environment variable GRAPH_STATS_<NAME>):
  --db PATH                 database file (./data/graph-stats.sqlite)
  --database-url URL        postgres://… : keep everything in PostgreSQL, shared by every instance (wins over --db)
  --jwt-secret S            HS256 secret (else one is generated and kept in the database)
  --jwt-previous-secrets L  comma list of older secrets still accepted (rotation), each ≥ 16 characters
  --no-sample               do not load the synthetic 'sample' universe into a new database

serve flags: see 'graph-stats serve --help'.
`;

/** Per-command help: what it does, its flags, and examples to copy. */
export const COMMAND_HELP: Record<string, string> = {
  serve: `graph-stats serve [flags] — run the HTTP service (the default command)

Flags (each also as an environment variable, e.g. --cache-mb as GRAPH_STATS_CACHE_MB):
${serveFlags()}
serve keeps the token lifetime, the default limits and a fingerprint of its secret in the
database; token create and user limits use them unless given on their own command line.
With --workers N a supervisor runs N processes on one port and replaces one that dies
(after 0.5 s, doubling to 30 s while it keeps dying); SIGTERM/SIGINT drain and stop them all.

Examples:
  GRAPH_STATS_JWT_SECRET=$(openssl rand -hex 32) graph-stats serve --db data/prod.sqlite
  graph-stats serve --workers 4 --rate-per-minute 10 --rate-per-day 1000
  graph-stats serve --dev   (dashboard sign-in with the development identity provider, loopback only)`,
  migrate: `graph-stats migrate [--db PATH | --database-url URL] [--no-sample] [--status] — create or update the database schema

  --status                  change nothing: list each migration as applied (with when) or pending;
                            exit 0 when none is pending, 1 when some are

Examples:
  graph-stats migrate --db data/prod.sqlite --no-sample
  graph-stats migrate --status --database-url "$GRAPH_STATS_DATABASE_URL" || graph-stats migrate`,
  import: `graph-stats import --universe NAME [flags] FILE... — import bar files into a universe

Files: CSV, gzipped CSV (.csv.gz, streamed) or Parquet, told apart by their first bytes. Columns
timestamp and close are required, open,high,low (together) and volume optional, in any order and
case (extra columns ignored), or a 'symbol' column for a long file (else the file name is the
symbol); Yahoo-style Date,Open,High,Low,Close,Adj Close,Volume as it is. Without open/high/low a
bar stores its close as all four prices; without volume, 0. Parquet timestamps: ISO text, DATE, or
TIMESTAMP (millis/micros/nanos; UTC-adjusted ones are stored at --default-offset).
  --interval 1d             the bars' interval (1m 5m 15m 30m 1h 1d 1w); bar spacing that
                            contradicts it rejects the file, naming the right --interval
  --default-offset +05:30   UTC offset for timestamps without one (plain dates: midnight there)
  --map field=Column,...    name other columns (fields: timestamp open high low close adj_close volume symbol)
  --price close|adj_close   store the close as traded (default) or the adjusted close (open, high
                            and low are scaled by the same factor)
  --replace                 a daily or weekly bar is one per symbol and local date: replace stored
                            bars on this file's dates at another UTC offset (without it, refused)
A file with a bad row (bad number, null, low > open/close > high, price ≤ 0, volume < 0, duplicate
timestamp, a date the symbol already has at another UTC offset) is rejected whole with
file:line: reason (Parquet: file:row: reason), and so is a truncated gzip or a column of the wrong
type (file: reason); nothing of a rejected file is written (exit 1). Bars belong to the symbol,
shared by every universe that lists it.

Examples:
  graph-stats import --universe nifty50 --default-offset +05:30 data/nifty/*.csv
  graph-stats import --universe intraday --interval 1m minutes.csv
  graph-stats import --universe us --price adj_close AAPL.csv MSFT.csv
  graph-stats import --universe mine --map timestamp=When,close=Last prices.csv
  graph-stats import --universe us --default-offset -05:00 daily-2025-06-30.csv.gz bars.parquet`,
  "import-metadata": `graph-stats import-metadata FILE [--json] — each symbol's name, sector and industry

CSV with the columns symbol,name,sector,industry in any order and case; extra columns ignored;
an empty cell is unknown. A row replaces what its symbol had. A file with a bad row (a field count
differing from the header's, a bad or repeated symbol, a value over 200 characters or with a
control character) is rejected whole with file:line: reason, and nothing of it is written (exit 1).
Live answers then carry each stock's name and sector, and every graph its sector_agreement.

Example:
  graph-stats import-metadata nifty50-sectors.csv`,
  universe: `graph-stats universe list|show|remove|delete — the stored universes

  universe list [--json]                   each universe's symbols, intervals, first and last bar
  universe show NAME [--json]              per symbol and interval: first, last, bars, missing
  universe remove NAME SYMBOL... [--json]  take members out (their bars stay for other universes)
  universe delete NAME [--purge] [--json]  delete the universe; --purge also deletes the bars of
                                           its members that no other universe lists
Each change moves the data version, so no cached answer outlives it. Deleting the configured
default universe (--default-universe) is refused.

Examples:
  graph-stats universe show nifty50
  graph-stats universe remove nifty50 HDFC
  graph-stats universe delete scratch --purge`,
  token: `graph-stats token create|list|revoke — mint, list and revoke tokens

  token create --user ID [--user ID2...] | --users N [--prefix load-]  [--ttl 24h] [--email E] [--json]
      signs with the server's secret (refused, naming GRAPH_STATS_JWT_SECRET, when this command's
      secret is not the one serve recorded), lasts the server's --token-ttl unless --ttl is
      given, and creates the user so 'user disable' works before the first request
  token list [--user ID] [--json]
  token revoke JTI...       exit 1 when a jti was never minted here (it is still recorded as revoked)

Examples:
  GRAPH_STATS_JWT_SECRET=... graph-stats token create --user alice@example.com --ttl 7d
  graph-stats token create --users 100 --prefix load- --json > tokens.json
  graph-stats token revoke 5f0c6a1e-...`,
  user: `graph-stats user create|disable|enable|limits|plan|admin|revoke-tokens|show|list — manage users

USER is a user's id or the e-mail it signed in with (ignoring case). Every change is written to the
admin audit log ('graph-stats audit') as cli:<your OS user>.
  user create ID [--email E]
  user disable USER / user enable USER
  user limits USER [--per-minute N] [--per-day N] [--reset]
      the user's own limits override its plan's; shows them: '(plan)' values are its plan's,
      '(default)' the server's (--rate-per-minute, --rate-per-day: the free plan until 'plan set free')
  user plan USER PLAN
  user admin USER --on|--off
  user revoke-tokens USER   every live token of the user, at once on every instance
  user show USER [--json]
  user list [TEXT] [--limit 50] [--offset 0] [--json]

Examples:
  graph-stats user plan ann@lab.example research
  graph-stats user limits alice --per-minute 10 --per-day 500
  graph-stats user admin ops@example.com --on
  graph-stats user list lab.example`,
  plan: `graph-stats plan create|set|list|delete — named limit sets

'free' is the default plan: every user without another is on it, and until 'plan set free' its
limits are the server's --rate-per-minute and --rate-per-day (1/min, 30/day unless set). A
change holds from each user's next request on every instance. A user's own limits ('user limits')
override its plan's. Each change is written to the admin audit log.
  plan create NAME --per-minute N --per-day N
  plan set NAME [--per-minute N] [--per-day N]
  plan list [--json]
  plan delete NAME          refused while users are on it

Examples:
  graph-stats plan create research --per-minute 20 --per-day 5000
  graph-stats user plan ann@lab.example research`,
  audit: `graph-stats audit [--target T] [--actor A] [--limit 50] [--json] — the admin audit log, newest first

Every operator action, from the CLI (actor cli:<OS user>) or the console (console:<user id>): the
time, the action (plan.create, user.limits, user.disable, token.revoke, …), its target (a plan, a
user's id — an e-mail is looked up — or a jti) and the record before and after.

Example:
  graph-stats audit --target ann@lab.example --json`,
  secret: `graph-stats secret show — print the signing secret serve generated and keeps in the database

serve generates a secret on its first start without --jwt-secret and keeps it in the database
(settings jwt_secret); this prints it, for the conformance kit's --secret. With
GRAPH_STATS_JWT_SECRET that setting is the secret and nothing is stored (exit 1, saying so).

Example:
  npm run conformance -- --base-url http://127.0.0.1:8080 --secret "$(graph-stats secret show)"`,
  usage: `graph-stats usage [--user ID] [--days 1] [--json] — admitted, refused (429) and uncounted requests per user and UTC day

Example:
  graph-stats usage --days 7 --user alice`,
};
