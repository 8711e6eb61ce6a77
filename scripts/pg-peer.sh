#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server for benchmark comparisons: pg-peer.sh start|stop|status
#
# start   initdb into a new temporary data directory, start postgres on 127.0.0.1 on a free port
#         with durability off (fsync=off, synchronous_commit=off, full_page_writes=off: the peer
#         pays no more for durability than a RespSQL server with no AOF or snapshots), and print
#         PG_PORT=, PG_USER=, PG_DB=, PGDATA=, PG_VERSION= lines (also kept in the state file).
#         Prefixed by PG_PIN (e.g. PG_PIN="taskset -c 0"), postgres and its workers are pinned.
# stop    stop that server and delete its data directory.
# status  print the state file and whether the server answers; exit 1 when none is running.
#
# Env: PG_DURABLE=1 (fsync, synchronous_commit and full_page_writes on instead), PG_BIN (default /usr/lib/postgresql/15/bin), PG_PEER_STATE (default
# ${TMPDIR:-/tmp}/respsql-pg-peer.env), PG_PIN, PG_INSTALL=1 to apt-get install postgresql when the
# binaries are missing (only when root and not under CI). postgres refuses to run as root, so as
# root the server runs as the 'postgres' user (created if missing) through runuser.
set -euo pipefail

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
STATE="${PG_PEER_STATE:-${TMPDIR:-/tmp}/respsql-pg-peer.env}"
# shellcheck disable=SC2206  # a command prefix, split on purpose
PIN=(${PG_PIN:-})

die() { echo "pg-peer: $*" >&2; exit 1; }

as_owner() {
  if [[ $(id -u) == 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

ensure_binaries() {
  [[ -x "$PG_BIN/postgres" ]] && return 0
  if [[ "${PG_INSTALL:-0}" == 1 && $(id -u) == 0 && -z "${CI:-}" ]] && command -v apt-get >/dev/null; then
    echo "pg-peer: installing postgresql" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  [[ -x "$PG_BIN/postgres" ]] || die "no PostgreSQL binaries in $PG_BIN (set PG_BIN, or PG_INSTALL=1 as root)"
}

# A port nothing listens on, from a random start: two peers started at once (tests run side by side)
# must not both pick the first free port; start() still retries when postgres finds it taken.
free_port() {
  local p=$((10000 + RANDOM % 10000)) # below the tests' fixed ports (20000-32000) and the ephemeral range
  while ss -ltnH "sport = :$p" 2>/dev/null | grep -q .; do p=$((p + 1)); done
  echo "$p"
}

answers() { # port dir
  as_owner "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$1" >/dev/null 2>&1
}

start() {
  ensure_binaries
  if [[ -f "$STATE" ]]; then
    # shellcheck disable=SC1090
    source "$STATE"
    if answers "$PG_PORT"; then die "already running (port $PG_PORT, state $STATE); stop it first"; fi
    rm -f "$STATE"
  fi
  if [[ $(id -u) == 0 ]] && ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
  fi
  local base data port user
  base="$(mktemp -d "${TMPDIR:-/tmp}/respsql-pg-peer.XXXXXX")"
  data="$base/data"
  user="$(if [[ $(id -u) == 0 ]]; then echo postgres; else id -un; fi)"
  [[ $(id -u) == 0 ]] && chown postgres: "$base"
  chmod 700 "$base"
  as_owner "$PG_BIN/initdb" -D "$data" -U "$user" -A trust -E UTF8 --locale=C.UTF-8 >"$base/initdb.log" 2>&1 ||
    { cat "$base/initdb.log" >&2; die "initdb failed"; }
  local owner=() attempt durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  # PG_DURABLE=1: PostgreSQL's durable defaults instead (pgbench-compare.sh's durable rounds)
  [[ "${PG_DURABLE:-0}" == 1 ]] && durability="-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
  [[ $(id -u) == 0 ]] && owner=(runuser -u postgres --)
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    if "${PIN[@]}" "${owner[@]}" "$PG_BIN/pg_ctl" -D "$data" -l "$base/postgres.log" -w -t 120 start \
      -o "-p $port -k $base -c listen_addresses=127.0.0.1 $durability -c shared_buffers=512MB -c max_wal_size=4GB " >/dev/null; then
      break
    fi
    # taken between the probe and the bind (another peer, another test's server): another port
    if [[ $attempt -lt 5 ]] && grep -q "Address already in use" "$base/postgres.log" 2>/dev/null; then
      echo "pg-peer: port $port was taken, trying another" >&2
      continue
    fi
    cat "$base/postgres.log" >&2; die "postgres did not start"
  done
  as_owner "$PG_BIN/psql" -q -h 127.0.0.1 -p "$port" -U "$user" -d postgres -c "CREATE DATABASE bench" >/dev/null
  {
    echo "PG_PORT=$port"
    echo "PG_USER=$user"
    echo "PG_DB=bench"
    echo "PGDATA=$data"
    echo "PG_BASE=$base"
    echo "PG_VERSION=\"$("$PG_BIN/postgres" --version)\""
    echo "PG_SETTINGS=\"${durability//-c /} shared_buffers=512MB max_wal_size=4GB (autovacuum at its default, on)\""
    echo "PG_PINNING=\"${PG_PIN:-none}\""
  } >"$STATE"
  cat "$STATE"
}

stop() {
  [[ -f "$STATE" ]] || { echo "pg-peer: not running (no $STATE)"; return 0; }
  # shellcheck disable=SC1090
  source "$STATE"
  as_owner "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >/dev/null 2>&1 || true
  [[ -n "${PG_BASE:-}" && "$PG_BASE" == *respsql-pg-peer.* ]] && rm -rf "$PG_BASE"
  rm -f "$STATE"
  echo "pg-peer: stopped"
}

status() {
  [[ -f "$STATE" ]] || { echo "pg-peer: not running (no $STATE)"; return 1; }
  cat "$STATE"
  # shellcheck disable=SC1090
  source "$STATE"
  if answers "$PG_PORT"; then echo "pg-peer: answering on 127.0.0.1:$PG_PORT"; else echo "pg-peer: not answering"; return 1; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: pg-peer.sh start|stop|status" >&2; exit 2 ;;
esac
