/** The help text of `graph-stats --help`. */
export const USAGE = `graph-stats — correlation-network metrics for stock universes over HTTP

Usage: graph-stats [command] [flags]

Commands:
  serve                     run the HTTP service (default)
  migrate                   create or update the database schema
  import FILE...            import OHLCV CSV files into a universe (--universe NAME [--interval 1d]
                            [--default-offset +05:30] for timestamps without an offset)
  token create              mint tokens: --user ID (repeatable) | --users N [--prefix load-]; [--ttl 24h] [--email E] [--json]
  token list                list minted tokens [--user ID] [--json]
  token revoke JTI...       revoke tokens by jti
  user create ID            create a user [--email E]
  user disable ID           refuse the user's tokens with 403
  user enable ID            re-enable the user
  user limits ID            show or set per-user limits [--per-minute N] [--per-day N] [--reset]
  usage                     admitted / refused / uncounted requests per user and UTC day [--user ID] [--days 1] [--json]

Only serve, migrate and import create a missing database; the other commands need an existing one.

Common flags (each also as an environment variable GRAPH_STATS_<NAME>):
  --db PATH                 database file (./data/graph-stats.sqlite)
  --jwt-secret S            HS256 secret (else one is generated and kept in the database)
  --jwt-previous-secrets L  comma list of older secrets still accepted (rotation)
  --no-sample               do not load the synthetic 'sample' universe into a new database

serve flags:
  --port 8080 --host 0.0.0.0 --workers 1 --token-ttl 24h --rate-per-minute 1 --rate-per-day 30
  --default-universe sample --cors-origins URL,... --log-level info
  --compute-threads 1       threads per process for live computations (0: on the event loop)
`;
