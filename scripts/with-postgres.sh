#!/usr/bin/env bash
# Run CMD [ARGS...] beside a throwaway PostgreSQL 15 (issue 14): a new cluster in a temporary
# directory, listening on a Unix socket there and on no TCP port, owned by an unprivileged user
# (initdb refuses root: as root the cluster runs as `postgres` through runuser). CMD gets the
# server's URI in ASHARE_TEST_POSTGRES (superuser, database `postgres`), PG_SOCKET_DIR,
# PG_BINDIR (where psql is) and ASHARE_TEST_POSTGRES_CTL, a script that stops and starts the
# server (`$ASHARE_TEST_POSTGRES_CTL stop|start`: an outage, D15). The server is stopped and its
# directory removed however CMD ends. Exits with CMD's status.
#
# Usage: scripts/with-postgres.sh CMD [ARGS...]
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: scripts/with-postgres.sh CMD [ARGS...]" >&2
  exit 2
fi

bindir=""
for candidate in /usr/lib/postgresql/15/bin "$(pg_config --bindir 2>/dev/null || true)"; do
  if [ -n "$candidate" ] && [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
    bindir="$candidate"
    break
  fi
done
if [ -z "$bindir" ]; then
  echo "with-postgres.sh: no PostgreSQL 15 server (apt-get install postgresql-15)" >&2
  exit 1
fi

as_owner=()
owner="$(id -un)"
if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  as_owner=(runuser -u postgres --)
fi

dir="$(mktemp -d /tmp/ashare-pg.XXXXXX)"
chmod 0755 "$dir"
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$dir"
fi
data="$dir/data"
started=0
stop() {
  if [ "$started" -eq 1 ]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

# --no-sync and fsync=off: a test cluster need not survive a power cut, and syncing would make
# every commit of the tests wait on the disk. Trust on the socket only: the directory is the
# boundary, and no TCP port is opened.
"${as_owner[@]}" "$bindir/initdb" --no-sync --auth=trust --username="$owner" --encoding=UTF8 \
  --locale=C -D "$data" >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2
  exit 1
}
"${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \
  -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off \
      -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
  start >/dev/null || {
  cat "$dir/server.log" >&2
  exit 1
}
started=1

# stop: fast shutdown (sessions are terminated, as when a database server goes down); start:
# as above, waiting until it accepts connections.
cat >"$dir/ctl" <<CTL
#!/usr/bin/env bash
set -euo pipefail
case "\${1:-}" in
  stop) ${as_owner[*]} "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null ;;
  start) ${as_owner[*]} "$bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \
           -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off \
               -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
           start >/dev/null ;;
  *) echo "usage: \$0 stop|start" >&2; exit 2 ;;
esac
CTL
chmod 0755 "$dir/ctl"

export PG_SOCKET_DIR="$dir"
export PG_BINDIR="$bindir"
export ASHARE_TEST_POSTGRES_CTL="$dir/ctl"
export ASHARE_TEST_POSTGRES="postgresql:///postgres?host=$dir&user=$owner"
status=0
"$@" || status=$?
exit "$status"
