# PgBouncer for the `cluster` profile of docker/compose.yml: Debian 12's package (1.18), the version CI runs
# the suites through in transaction mode. Build context: docker/.
FROM debian:bookworm-slim
# policy-rc.d keeps the package's install from starting a PgBouncer service inside the build.
RUN printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d \
 && chmod +x /usr/sbin/policy-rc.d \
 && apt-get update \
 && apt-get install -y --no-install-recommends pgbouncer \
 && rm -rf /var/lib/apt/lists/* /usr/sbin/policy-rc.d \
 && install -d -o nobody -g nogroup -m 0700 /run/pgbouncer
COPY pgbouncer.ini /etc/pgbouncer/pet-adoption.ini
COPY pgbouncer-start.sh /usr/local/bin/pgbouncer-start.sh
USER nobody
EXPOSE 6432
CMD ["sh", "/usr/local/bin/pgbouncer-start.sh"]
