#!/usr/bin/env bash
# The client matrix: every client below runs the same session (tests/clients/node-common/session.mjs
# says what it is) against a RespSQL server started for it alone, on a free loopback port with a
# temporary dir. Prints each client's step lines, one PASS/FAIL line per client with its version, and
# a last line "N passed, M failed"; exits 1 when any client failed.
#
#   tests/clients/run.sh [client ...]        (default: all of them)
#
# Clients: redis-cli redis-cli-resp3 redis-py node-redis-6 node-redis-4 ioredis lettuce jedis-resp2
# jedis-resp3, and over TLS: redis-py-tls node-redis-6-tls node-redis-4-tls ioredis-tls (a CA, a server
# and a client certificate made by openssl; the server is TLS-only with tls-auth-clients yes). What is missing is installed first, as CI needs it on a fresh machine: Debian's
# redis-tools and python3-redis (apt, as root), the npm packages pinned by each package-lock.json
# (npm ci), the Java clients pinned in java/pom.xml (Maven Central); the server jar is built when it
# is missing or older than the sources (scripts/respsql-server).
#
# Env: CLIENT_TIMEOUT=120 seconds one client may take; RESPSQL_HEAP=512m the server's heap.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ALL=(redis-cli redis-cli-resp3 redis-py node-redis-6 node-redis-4 ioredis lettuce jedis-resp2 jedis-resp3
     redis-py-tls node-redis-6-tls node-redis-4-tls ioredis-tls)
CLIENTS=("$@")
[[ ${#CLIENTS[@]} -eq 0 ]] && CLIENTS=("${ALL[@]}")
CLIENT_TIMEOUT="${CLIENT_TIMEOUT:-120}"
export RESPSQL_HEAP="${RESPSQL_HEAP:-512m}"
# Debian's python3 (where python3-redis lives), not whatever python3 comes first on PATH.
PY=/usr/bin/python3

die() { echo "clients: $*" >&2; exit 1; }
for c in "${CLIENTS[@]}"; do
  [[ " ${ALL[*]} " == *" $c "* ]] || die "unknown client '$c' (known: ${ALL[*]})"
done
wants() { local c; for c in "${CLIENTS[@]}"; do [[ "$c" == "$1"* ]] && return 0; done; return 1; }

# --- what the clients need ------------------------------------------------------------------------
apt_missing=()
command -v java >/dev/null || die "java is needed"
if wants redis-cli && ! command -v redis-cli >/dev/null; then apt_missing+=(redis-tools); fi
if wants redis-py && ! { [[ -x "$PY" ]] && "$PY" -c 'import redis' 2>/dev/null; }; then apt_missing+=(python3-redis); fi
if { wants node-redis || wants ioredis; } && ! command -v npm >/dev/null; then apt_missing+=(nodejs npm); fi
if [[ ${#apt_missing[@]} -gt 0 ]]; then
  echo "clients: installing ${apt_missing[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq "${apt_missing[@]}" >/dev/null; } || die "apt-get install ${apt_missing[*]} failed"
fi
# quietly DIR CMD...: runs CMD in DIR, its output shown only when it fails.
quietly() {
  local dir="$1" out status
  shift
  out="$(cd "$dir" && "$@" 2>&1)"
  status=$?
  [[ "$status" == 0 ]] || printf '%s\n' "$out" >&2
  return "$status"
}
for dir in node-redis-6 node-redis-4 ioredis; do
  if wants "$dir"; then
    quietly "$HERE/$dir" npm ci --no-audit --no-fund --loglevel=error || die "npm ci in $dir failed"
  fi
done
if wants lettuce || wants jedis; then
  quietly "$HERE/java" mvn -q -B -Dstyle.color=never compile dependency:build-classpath \
      -Dmdep.outputFile=target/classpath.txt || die "the Java clients do not build (tests/clients/java)"
  JAVA_CP="$HERE/java/target/classes:$(cat "$HERE/java/target/classpath.txt")"
fi
quietly "$ROOT" scripts/respsql-server --version || die "the server jar does not build"

# --- one server per client --------------------------------------------------------------------------
SERVER_PID=""
SERVER_DIR=""
stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "clients: the server did not stop within 10 s of SIGTERM; killed" >&2
      kill -9 "$SERVER_PID" 2>/dev/null
    fi
    wait "$SERVER_PID" 2>/dev/null
  fi
  [[ -n "$SERVER_DIR" ]] && rm -rf "$SERVER_DIR"
  SERVER_PID=""
  SERVER_DIR=""
}
trap 'stop_server; [[ -n "${TLS_DIR:-}" ]] && rm -rf "$TLS_DIR"' EXIT
trap 'exit 130' INT TERM

# Starts a server on a free port (--port 0) and sets PORT from its ready line; with TLS (a *-tls
# client: tls_setup), TLS-only on TLS_PORT, and PORT is that port.
start_server() {
  SERVER_DIR="$(mktemp -d -t respsql-clients.XXXXXX)"
  : >"$SERVER_DIR/server.log"
  local tls_args=()
  [[ -n "${TLS_PORT:-}" ]] && tls_args=(--tls-port "$TLS_PORT" --tls-cert-file "$TLS_DIR/server.crt"
      --tls-key-file "$TLS_DIR/server.key" --tls-ca-cert-file "$TLS_DIR/ca.crt" --tls-auth-clients yes)
  "$ROOT/scripts/respsql-server" --port 0 --bind 127.0.0.1 --dir "$SERVER_DIR" --save "" "${tls_args[@]}" \
      --user "reader on >reader-pw %R~people +@read +@connection +acl|whoami" \
      >"$SERVER_DIR/server.log" 2>&1 &
  SERVER_PID=$!
  PORT=""
  for _ in $(seq 1 600); do
    PORT="$(sed -n 's/.* ready on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$SERVER_DIR/server.log")"
    [[ -n "$PORT" && -n "${TLS_PORT:-}" ]] && PORT="$TLS_PORT"
    [[ -n "$PORT" ]] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$SERVER_DIR/server.log" >&2
  return 1
}

npm_version() { sed -n 's/^  "version": "\(.*\)",$/\1/p' "$HERE/$1/node_modules/$2/package.json"; }
jar_version() { tr ':' '\n' <<<"$JAVA_CP" | sed -n "s:.*/$1-\([^/]*\)\.jar$:\1:p" | head -1; }

# The command line and the version of each client.
client_command() {
  case "$1" in
    redis-cli)       CMD=(bash "$HERE/redis-cli/session.sh");           VERSION="$(redis-cli --version | awk '{print $2}') (RESP2)" ;;
    redis-cli-resp3) CMD=(bash "$HERE/redis-cli/session.sh" -3);        VERSION="$(redis-cli --version | awk '{print $2}') (-3, RESP3)" ;;
    redis-py)        CMD=("$PY" "$HERE/python/session.py");             VERSION="$("$PY" -c 'import redis; print(redis.__version__)') (python3-redis, RESP2)" ;;
    node-redis-6)    CMD=(node "$HERE/node-redis-6/session.mjs");       VERSION="$(npm_version node-redis-6 redis) (RESP3 default)" ;;
    node-redis-4)    CMD=(node "$HERE/node-redis-4/session.mjs");       VERSION="$(npm_version node-redis-4 redis) (RESP2)" ;;
    ioredis)         CMD=(node "$HERE/ioredis/session.mjs");            VERSION="$(npm_version ioredis ioredis) (RESP3 first)" ;;
    lettuce)         CMD=(java -cp "$JAVA_CP" clients.LettuceSession);  VERSION="$(jar_version lettuce-core) (RESP3 first)" ;;
    jedis-resp2)     CMD=(java -cp "$JAVA_CP" clients.JedisSession 2);  VERSION="$(jar_version jedis) (RESP2)" ;;
    jedis-resp3)     CMD=(java -cp "$JAVA_CP" clients.JedisSession 3);  VERSION="$(jar_version jedis) (RESP3)" ;;
    *-tls)           client_command "${1%-tls}"; VERSION="$VERSION over TLS (CA-signed certificates, client certificate)" ;;
  esac
}
# The TLS clients' certificates, made once: a CA, a server certificate for 127.0.0.1, a client one.
TLS_DIR=""
tls_setup() {
  [[ -n "$TLS_DIR" ]] && return 0
  TLS_DIR="$(mktemp -d -t respsql-clients-tls.XXXXXX)"
  (cd "$TLS_DIR" && openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=clients-ca &&
    for n in server client; do
      openssl req -newkey rsa:2048 -nodes -keyout $n.key -out $n.csr -subj /CN=$n &&
      openssl x509 -req -in $n.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out $n.crt -days 2 \
        -extfile <(echo subjectAltName=IP:127.0.0.1,DNS:localhost) || exit 1
    done) >"$TLS_DIR/openssl.log" 2>&1 || { cat "$TLS_DIR/openssl.log" >&2; die "openssl could not make the test certificates"; }
}
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

passed=0
failed=0
summary=()
for client in "${CLIENTS[@]}"; do
  client_command "$client"
  echo "== $client $VERSION"
  status=0
  TLS_PORT=""
  tls_env=()
  if [[ "$client" == *-tls ]]; then
    tls_setup
    TLS_PORT="$(free_port)"
    tls_env=(RESPSQL_TLS_CA="$TLS_DIR/ca.crt" RESPSQL_TLS_CERT="$TLS_DIR/client.crt" RESPSQL_TLS_KEY="$TLS_DIR/client.key")
  fi
  if ! start_server; then
    echo "$client: the server did not start"
    status=1
  else
    env "${tls_env[@]}" RESPSQL_HOST=127.0.0.1 RESPSQL_PORT="$PORT" timeout "$CLIENT_TIMEOUT" "${CMD[@]}" 2>&1
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

echo "== client matrix"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]]
