#!/bin/sh
# Run once by the postgres image, as it initialises the primary's data directory (sourced or run, so no
# `exit`): lets the replica stream from the primary as `postgres`, with its password, and creates the
# replica's slot, so the primary keeps the WAL the replica has not received yet (while it is down, too).
set -e
echo 'host replication postgres all scram-sha-256' >>"$PGDATA/pg_hba.conf"
psql -v ON_ERROR_STOP=1 --no-password --username "$POSTGRES_USER" --dbname postgres \
  -c "SELECT pg_create_physical_replication_slot('replica_1')"
