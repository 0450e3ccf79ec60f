#!/bin/sh
# The replica's entrypoint. On its first start it copies the primary with pg_basebackup, whose
# --write-recovery-conf leaves the standby.signal and primary_conninfo that make it a streaming replica;
# then the image's own entrypoint finds the data directory initialised and starts the server as a hot standby.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  install -d -o postgres -g postgres -m 0700 "$PGDATA"
  if ! gosu postgres pg_basebackup --host=postgres-primary --username=postgres --no-password \
    --pgdata="$PGDATA" --write-recovery-conf --wal-method=stream --slot=replica_1 --checkpoint=fast; then
    # pg_basebackup refuses a directory that is not empty: leave none behind for the next try.
    find "$PGDATA" -mindepth 1 -delete
    exit 1
  fi
fi
# A standby cancels a query whose rows the primary's vacuum has removed; with feedback the primary keeps them
# until the replica's queries are done, so a long search is not cancelled.
exec docker-entrypoint.sh postgres -c hot_standby_feedback=on
