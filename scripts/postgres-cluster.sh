#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the PostgreSQL tests.
#
#   scripts/postgres-cluster.sh start   initdb into a new directory, start the server on 127.0.0.1 on a
#                                       free port, print its URL (idempotent: a running cluster is kept)
#   scripts/postgres-cluster.sh url     print the URL of the running cluster
#   scripts/postgres-cluster.sh stop    stop the server and delete its directory
#
# The URL connects as the superuser `postgres`, trusted on 127.0.0.1, to the database `postgres`:
# export it as PERSISTANCE_POSTGRES_URL for the tests. One other role, `persistance_auth`, must
# authenticate with a password (scram-sha-256): the tests set its password and check that a wrong one
# is refused. The server binaries come from Debian's postgresql package (scripts/install-deps.sh).
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user.
# PERSISTANCE_POSTGRES_CLUSTER names the cluster's directory (default: one per checkout under /tmp).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${PERSISTANCE_POSTGRES_CLUSTER:-/tmp/persistance-postgres-$(printf '%s' "$repo" | cksum | cut -d' ' -f1)}
# Debian keeps the server programs off PATH, in /usr/lib/postgresql/VERSION/bin; elsewhere, pg_ctl's folder.
bin=${PERSISTANCE_POSTGRES_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
if [ -z "$bin" ] && command -v pg_ctl >/dev/null 2>&1; then bin=$(dirname "$(command -v pg_ctl)"); fi

if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "error: no PostgreSQL server binaries (install Debian's postgresql: scripts/install-deps.sh)" >&2
    exit 1
fi

# as_owner COMMAND...: runs a server command as the user that owns the cluster.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() {
    [ -f "$dir/url" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    if running; then
        cat "$dir/url"
        return
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    chmod 700 "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    cat >"$dir/pg_hba.conf" <<'HBA'
local all all trust
host all persistance_auth 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
HBA
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir/pg_hba.conf"; fi
    as_owner mv "$dir/pg_hba.conf" "$dir/data/pg_hba.conf"
    local port
    port=$(free_port)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -p $port -h 127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE persistance_auth LOGIN" >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres" >"$dir/url"
    cat "$dir/url"
}

stop() {
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
url)
    running || { echo "error: no cluster running (scripts/postgres-cluster.sh start)" >&2; exit 1; }
    cat "$dir/url"
    ;;
*)
    echo "usage: $0 start|stop|url" >&2
    exit 2
    ;;
esac
