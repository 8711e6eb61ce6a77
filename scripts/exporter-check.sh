#!/usr/bin/env bash
# Scrapes a RespSQL server once with prometheus-redis-exporter (Debian's package) and checks that
# the scrape is clean: redis_up 1, no scrape error, the tables counted as db0 keys, no error line
# (such as "unknown command") in the exporter's log and no error reply to anything it sent.
# Starts its own server on a free loopback port with a temporary dir; installs the exporter (and
# curl, redis-tools) with apt when missing, as root. Exit status 0 when clean, 1 otherwise.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST=127.0.0.1
EXPORTER=prometheus-redis-exporter

die() { echo "exporter-check: FAILED: $*" >&2; exit 1; }

missing=()
command -v "$EXPORTER" >/dev/null 2>&1 || missing+=(prometheus-redis-exporter)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
if [[ ${#missing[@]} -gt 0 ]]; then
  [[ "$(id -u)" == 0 ]] || die "missing ${missing[*]} (install them, or run as root to have them installed)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "exporter-check: $("$EXPORTER" --version 2>&1 | sed -n 's/.*msg="\([^"]*\)".*/\1/p' | head -1)"

WORK="$(mktemp -d -t respsql-exporter.XXXXXX)"
SERVER_PID=""
EXPORTER_PID=""
cleanup() {
  [[ -n "$EXPORTER_PID" ]] && kill "$EXPORTER_PID" 2>/dev/null || true
  [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
  [[ -n "$SERVER_PID" ]] && wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# The server picks its own port (0) and names it on its ready line; the launcher execs the JVM.
"$ROOT/scripts/respsql-server" --port 0 --bind "$HOST" --dir "$WORK" --save "" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 600); do
  PORT="$(sed -n "s/.* ready on $HOST:\([0-9]*\) .*/\1/p" "$WORK/server.log" | head -1)"
  [[ -n "$PORT" ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; die "the server exited before it was ready"; }
  sleep 0.1
done
[[ -n "$PORT" ]] || die "the server was not ready within 60 s"
cli() { redis-cli -h "$HOST" -p "$PORT" "$@"; }

# Something to count: two tables (db0 keys), one with rows and an index.
cli CREATE TABLE scrape_a "(id int primary key, v int)" >/dev/null
cli CREATE INDEX scrape_a:v:index ON scrape_a "(v)" >/dev/null
cli INSERT INTO scrape_a VALUES "(1,10),(2,20),(3,30)" >/dev/null
cli CREATE TABLE scrape_b "(id int primary key, name text)" >/dev/null
cli CONFIG RESETSTAT >/dev/null

# A web port below the ephemeral range that no socket uses; retried if the exporter cannot bind it.
port_in_use() { ss -tanH "sport = :$1" 2>/dev/null | grep -q .; }
metrics=""
for attempt in 1 2 3 4 5; do
  WEB=$((20000 + RANDOM % 12000))
  while port_in_use "$WEB"; do WEB=$((WEB + 1)); done
  "$EXPORTER" --redis.addr="redis://$HOST:$PORT" --web.listen-address="$HOST:$WEB" >"$WORK/exporter.log" 2>&1 &
  EXPORTER_PID=$!
  for _ in $(seq 1 100); do
    metrics="$(curl -fsS "http://$HOST:$WEB/metrics" 2>/dev/null)" && break
    kill -0 "$EXPORTER_PID" 2>/dev/null || break
    sleep 0.1
  done
  [[ -n "$metrics" ]] && break
  kill "$EXPORTER_PID" 2>/dev/null || true
  wait "$EXPORTER_PID" 2>/dev/null || true
  EXPORTER_PID=""
  grep -q "address already in use" "$WORK/exporter.log" || { cat "$WORK/exporter.log" >&2; die "the exporter did not serve /metrics"; }
done
[[ -n "$metrics" ]] || die "no free web port for the exporter after $attempt attempts"
kill "$EXPORTER_PID" 2>/dev/null || true
wait "$EXPORTER_PID" 2>/dev/null || true
EXPORTER_PID=""

echo "exporter-check: commands the exporter sent (INFO commandstats after its scrape):"
cli INFO commandstats | sed -n 's/^cmdstat_\([^:]*\):calls=\([0-9]*\).*/  \1 (\2)/p'

fail=0
check() { echo "exporter-check: $1"; [[ "$2" == ok ]] || fail=1; }
grep -qx 'redis_up 1' <<<"$metrics" && check "redis_up 1" ok || check "redis_up is not 1: $(grep '^redis_up' <<<"$metrics")" bad
if grep -q '^redis_exporter_last_scrape_error{err=""} 0$' <<<"$metrics" \
    && ! grep '^redis_exporter_last_scrape_error' <<<"$metrics" | grep -qv 'err=""'; then
  check "no scrape error" ok
else
  check "scrape error: $(grep '^redis_exporter_last_scrape_error' <<<"$metrics")" bad
fi
grep -qx 'redis_db_keys{db="db0"} 2' <<<"$metrics" && check 'redis_db_keys{db="db0"} 2 (the two tables)' ok \
  || check "db0 keys are not the two tables: $(grep '^redis_db_keys' <<<"$metrics" || echo none)" bad
grep -q '^redis_cpu_user_seconds_total ' <<<"$metrics" && check "CPU metrics present" ok || check "no redis_cpu_user_seconds_total" bad
if grep -Eiq 'unknown command|level=error|level=fatal' "$WORK/exporter.log"; then
  check "the exporter logged errors:" bad
  grep -Ei 'unknown command|level=error|level=fatal' "$WORK/exporter.log" >&2
else
  check "no error line in the exporter's log" ok
fi
errors="$(cli INFO errorstats | grep '^errorstat_' || true)"
[[ -z "$errors" ]] && check "no error reply to the exporter's commands" ok || check "error replies: $errors" bad

if [[ "$fail" != 0 ]]; then
  echo "exporter-check: exporter log:" >&2
  cat "$WORK/exporter.log" >&2
  exit 1
fi
echo "exporter-check: clean scrape"
