#!/bin/sh
# Writes PgBouncer's user list from POSTGRES_PASSWORD (it checks clients' passwords against it and logs in to
# the primary with it), then runs PgBouncer in the foreground, logging to stderr.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD to the password of the postgres role on the primary}"
umask 077
printf '"postgres" "%s"\n' "$POSTGRES_PASSWORD" >/run/pgbouncer/userlist.txt
exec pgbouncer /etc/pgbouncer/pet-adoption.ini
