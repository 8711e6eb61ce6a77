#!/usr/bin/env bash
# The PostgreSQL client matrix: each client below runs its own program (its own defaults, one
# program each) against a RespSQL server started for it alone with --pg-port, on free loopback
# ports with a temporary dir. Every program creates tables, loads rows with COPY, reads typed values
# back exactly (NULL, text with commas, quotes, newlines and Unicode, dates, timestamps, floats,
# numeric, booleans), commits and rolls back a transaction, gets errors as its own error type
# with the SQLSTATE (23505, 42601, 42P01),
# reads the catalog as the client does (psql's \d, pgjdbc's DatabaseMetaData), and cancels a long
# query with a CancelRequest. Prints each client's step lines, one PASS/FAIL line per client with
# its version, and a last line "N passed, M failed"; exits 1 when any client failed.
#
#   tests/clients/pg-run.sh [client ...]     (default: all of them)
#
# Clients: psql (pg/psql-session.sh), psycopg2 (pg/psycopg2_session.py), pgjdbc-simple,
# pgjdbc-extended, pgjdbc-prepared (pgjdbc/: the driver's three query modes), node-pg (node-pg/:
# pg and pg-copy-streams). The same programs pass against PostgreSQL 15 itself: PG_TARGET=host:port
# (with PGUSER, PGDATABASE) runs them there instead of starting RespSQL servers.
# What is missing is installed first, as CI needs it on a fresh machine: Debian's postgresql-client
# (psql 15) and python3-psycopg2 (apt, as root), pgjdbc pinned in pgjdbc/pom.xml (Maven Central),
# the npm packages pinned by node-pg/package-lock.json (npm ci).
#
# Env: CLIENT_TIMEOUT=120 seconds one client may take; RESPSQL_HEAP=512m the server's heap;
# PG_CLIENTS_TX=0 leaves out each program's transaction step (BEGIN/COMMIT/ROLLBACK across round trips);
# PG_CLIENTS_CATALOG=1 the catalog steps that do not pass yet (psql's \d, pgjdbc's getPrimaryKeys,
# getIndexInfo, getImportedKeys, getExportedKeys).
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ALL=(psql psycopg2 pgjdbc-simple pgjdbc-extended pgjdbc-prepared node-pg)
CLIENTS=("$@")
[[ ${#CLIENTS[@]} -eq 0 ]] && CLIENTS=("${ALL[@]}")
CLIENT_TIMEOUT="${CLIENT_TIMEOUT:-120}"
export RESPSQL_HEAP="${RESPSQL_HEAP:-512m}"
PY=/usr/bin/python3
export PSQL=/usr/lib/postgresql/15/bin/psql

die() { echo "pg-clients: $*" >&2; exit 1; }
for c in "${CLIENTS[@]}"; do
  [[ " ${ALL[*]} " == *" $c "* ]] || die "unknown client '$c' (known: ${ALL[*]})"
done
wants() { local c; for c in "${CLIENTS[@]}"; do [[ "$c" == "$1"* ]] && return 0; done; return 1; }

# --- what the clients need ------------------------------------------------------------------------
apt_missing=()
command -v java >/dev/null || die "java is needed"
if wants psql && [[ ! -x "$PSQL" ]]; then apt_missing+=(postgresql-client-15); fi
if wants psycopg2 && ! { [[ -x "$PY" ]] && "$PY" -c 'import psycopg2' 2>/dev/null; }; then apt_missing+=(python3-psycopg2); fi
if wants node-pg && ! command -v npm >/dev/null; then apt_missing+=(nodejs npm); fi
if [[ ${#apt_missing[@]} -gt 0 ]]; then
  echo "pg-clients: installing ${apt_missing[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq "${apt_missing[@]}" >/dev/null; } || die "apt-get install ${apt_missing[*]} failed"
fi
quietly() {
  local dir="$1" out status
  shift
  out="$(cd "$dir" && "$@" 2>&1)"
  status=$?
  [[ "$status" == 0 ]] || printf '%s\n' "$out" >&2
  return "$status"
}
if wants node-pg; then
  quietly "$HERE/node-pg" npm ci --no-audit --no-fund --loglevel=error || die "npm ci in node-pg failed"
fi
if wants pgjdbc; then
  quietly "$HERE/pgjdbc" mvn -q -B -Dstyle.color=never compile dependency:build-classpath \
      -Dmdep.outputFile=target/classpath.txt || die "the pgjdbc program does not build (tests/clients/pgjdbc)"
  JAVA_CP="$HERE/pgjdbc/target/classes:$(cat "$HERE/pgjdbc/target/classpath.txt")"
fi
if [[ -z "${PG_TARGET:-}" ]]; then
  quietly "$ROOT" scripts/respsql-server --version || die "the server jar does not build"
fi

# --- one server per client --------------------------------------------------------------------------
SERVER_PID=""
SERVER_DIR=""
stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "pg-clients: the server did not stop within 10 s of SIGTERM; killed" >&2
      kill -9 "$SERVER_PID" 2>/dev/null
    fi
    wait "$SERVER_PID" 2>/dev/null
  fi
  [[ -n "$SERVER_DIR" ]] && rm -rf "$SERVER_DIR"
  SERVER_PID=""
  SERVER_DIR=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM

# One RESP request over bash's /dev/tcp; prints the reply's last line (a bulk string's value).
resp_last_line() {
  local port="$1" reply
  shift
  local req="*$#\r\n" a
  for a in "$@"; do req+="\$${#a}\r\n$a\r\n"; done
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf "$req" >&3
  reply=""
  local line
  for _ in 1 2 3 4 5; do
    IFS= read -r -t 10 line <&3 || break
    reply="${line%$'\r'}"
  done
  exec 3<&-
  printf '%s\n' "$reply"
}

# Starts a server on free ports (--port 0 --pg-port 0); sets PG_PORT (CONFIG GET pg-port).
start_server() {
  SERVER_DIR="$(mktemp -d -t respsql-pgclients.XXXXXX)"
  : >"$SERVER_DIR/server.log"
  "$ROOT/scripts/respsql-server" --port 0 --pg-port 0 --bind 127.0.0.1 --dir "$SERVER_DIR" --save "" \
      >"$SERVER_DIR/server.log" 2>&1 &
  SERVER_PID=$!
  local port=""
  for _ in $(seq 1 600); do
    port="$(sed -n 's/.* ready on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$SERVER_DIR/server.log")"
    [[ -n "$port" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -n "$port" ]]; then
    # CONFIG GET pg-port: *2, $7, pg-port, $N, the port (the last line read)
    PG_PORT="$(resp_last_line "$port" CONFIG GET pg-port)"
    [[ "$PG_PORT" =~ ^[0-9]+$ ]] && return 0
  fi
  cat "$SERVER_DIR/server.log" >&2
  return 1
}

npm_version() { sed -n 's/^  "version": "\(.*\)",$/\1/p' "$HERE/node-pg/node_modules/$1/package.json"; }
jar_version() { tr ':' '\n' <<<"$JAVA_CP" | sed -n "s:.*/$1-\([^/]*\)\.jar$:\1:p" | head -1; }

client_command() {
  case "$1" in
    psql)            CMD=(bash "$HERE/pg/psql-session.sh");                       VERSION="$("$PSQL" --version | awk '{print $3}') (Debian)" ;;
    psycopg2)        CMD=("$PY" "$HERE/pg/psycopg2_session.py");                  VERSION="$("$PY" -c 'import psycopg2; print(psycopg2.__version__.split()[0])') (python3-psycopg2, libpq)" ;;
    pgjdbc-simple)   CMD=(java -cp "$JAVA_CP" clients.PgJdbcSession simple "$HERE/pg");   VERSION="$(jar_version postgresql) (preferQueryMode=simple)" ;;
    pgjdbc-extended) CMD=(java -cp "$JAVA_CP" clients.PgJdbcSession extended "$HERE/pg"); VERSION="$(jar_version postgresql) (extended, prepareThreshold 5)" ;;
    pgjdbc-prepared) CMD=(java -cp "$JAVA_CP" clients.PgJdbcSession prepared "$HERE/pg"); VERSION="$(jar_version postgresql) (prepareThreshold=1, binary)" ;;
    node-pg)         CMD=(node "$HERE/node-pg/session.mjs");                       VERSION="pg $(npm_version pg), pg-copy-streams $(npm_version pg-copy-streams)" ;;
  esac
}

passed=0
failed=0
summary=()
for client in "${CLIENTS[@]}"; do
  client_command "$client"
  echo "== $client $VERSION"
  status=0
  if [[ -n "${PG_TARGET:-}" ]]; then
    PGHOST="${PG_TARGET%:*}" PGPORT="${PG_TARGET##*:}" timeout "$CLIENT_TIMEOUT" "${CMD[@]}" 2>&1
    status=$?
  elif ! start_server; then
    echo "$client: the server did not start"
    status=1
  else
    PGHOST=127.0.0.1 PGPORT="$PG_PORT" PGUSER=respsql PGDATABASE=respsql PGAPPNAME="respsql-$client" \
        timeout "$CLIENT_TIMEOUT" "${CMD[@]}" 2>&1
    status=$?
    [[ "$status" == 124 ]] && echo "$client: FAIL: still running after ${CLIENT_TIMEOUT}s"
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "$client: FAIL: the server died; its last lines:"
      tail -20 "$SERVER_DIR/server.log"
      status=1
    fi
  fi
  stop_server
  if [[ "$status" == 0 ]]; then
    line="PASS $client $VERSION"
    passed=$((passed + 1))
  else
    line="FAIL $client $VERSION"
    failed=$((failed + 1))
  fi
  echo "$line"
  summary+=("$line")
done

echo "== PostgreSQL client matrix"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]]
