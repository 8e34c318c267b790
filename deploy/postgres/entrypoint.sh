#!/bin/sh
# First start: a cluster in $PGDATA with password authentication, a graphstats role with
# $POSTGRES_PASSWORD, and its database. Then PostgreSQL itself as PID 1, so stop signals reach it.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set (see .env.example)}"
  initdb --pgdata="$PGDATA" --username=postgres --auth-local=peer --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  # Only the Unix socket is open while the role and database are made.
  pg_ctl --pgdata="$PGDATA" --options="-c listen_addresses=''" --wait start >/dev/null
  psql --quiet --no-psqlrc --set ON_ERROR_STOP=1 --set pw="$POSTGRES_PASSWORD" --dbname=postgres <<'SQL'
CREATE ROLE graphstats LOGIN PASSWORD :'pw';
CREATE DATABASE graphstats OWNER graphstats;
SQL
  pg_ctl --pgdata="$PGDATA" --mode=fast --wait stop >/dev/null
  echo "host all all 0.0.0.0/0 scram-sha-256" >>"$PGDATA/pg_hba.conf"
fi
exec postgres -c listen_addresses="$POSTGRES_LISTEN" -c port="$POSTGRES_PORT"
