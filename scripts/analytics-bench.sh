#!/usr/bin/env bash
# Seed 004's 31-query analytical suite on RespSQL, PostgreSQL 15 and DuckDB, in one run, over the
# generated e-commerce data set at a scale factor (SF 1: 500,000 customers, 100,000 products,
# 3,000,000 orders, ~7.5M order items).
#
# Starts its own RespSQL server (free loopback port, temporary dir, no AOF, no snapshots) and a
# throwaway PostgreSQL 15 (scripts/pg-peer.sh: temporary data directory, loopback, durability off),
# runs `gen-benchmark analytics-bench` (which generates the data, loads RespSQL with pipelined
# multi-row INSERTs, PostgreSQL with COPY and DuckDB in process with its appender, runs every
# query 5 times - run 0 cold, the median of runs 1-4 reported - and compares every answer with
# PostgreSQL's), then stops both servers. A result that differs from PostgreSQL's fails the run
# (exit 1); RespSQL's errors are reported, and fail the run only with --strict.
# Raw output and summary.md go to bench/results/<date>-analytics/ (or RESULT_DIR).
#
# Env, or the same as flags (--sf 0.1 --cap-ms 10000 --strict ...):
#   SF=0.01                scale factor
#   SEED=4                 generator seed
#   RUNS=5                 runs per query and system
#   CAP_MS=10000           per-run cap (the seed's 10 s)
#   REF_CAP_MS=120000      when PostgreSQL's timed run hits CAP_MS, one more un-timed run with this cap
#                          gives the reference answer, so the others' answers are still checked
#                          (summary: "PostgreSQL over the cap: answer from an un-timed run"); 0: none
#   DUCKDB_THREADS=1,$(nproc) DuckDB's thread settings: each measured as a system of its own
#                          (DuckDB-1t, DuckDB-2t: columns, ratios and geometric means of its own)
#                          over one loaded database; 0 leaves DuckDB out
#   BATCH=1000 WINDOW=32   rows per INSERT into RespSQL, INSERTs in flight
#   STRICT=0               1: errors and capped queries fail the run too
#   ONLY=                  e.g. q01,q13: only these queries
#   RESULT_DIR=            where results go (default bench/results/<UTC date-time>-analytics)
#   RESPSQL_HEAP=6g        server heap;  BENCH_HEAP=4g  driver heap (holds DuckDB's JVM side and the data set)
#   PROFILE_SERVER=0       1: record the RespSQL server with Java Flight Recorder and write
#                          server-profile.txt (CPU samples by component: where the load's time goes)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

while [[ $# -gt 0 ]]; do
  case "$1" in
    --sf) SF="$2" ;;
    --seed) SEED="$2" ;;
    --runs) RUNS="$2" ;;
    --cap-ms) CAP_MS="$2" ;;
    --ref-cap-ms) REF_CAP_MS="$2" ;;
    --duckdb-threads) DUCKDB_THREADS="$2" ;;
    --batch) BATCH="$2" ;;
    --window) WINDOW="$2" ;;
    --only) ONLY="$2" ;;
    --result-dir) RESULT_DIR="$2" ;;
    --strict) STRICT=1; shift; continue ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "analytics-bench: unknown flag $1 (see --help)" >&2; exit 2 ;;
  esac
  [[ $# -ge 2 ]] || { echo "analytics-bench: $1 needs a value" >&2; exit 2; }
  shift 2
done

SF="${SF:-0.01}"
SEED="${SEED:-4}"
RUNS="${RUNS:-5}"
CAP_MS="${CAP_MS:-10000}"
REF_CAP_MS="${REF_CAP_MS:-120000}"
DUCKDB_THREADS="${DUCKDB_THREADS:-1,$(nproc)}"
BATCH="${BATCH:-1000}"
WINDOW="${WINDOW:-32}"
STRICT="${STRICT:-0}"
PROFILE_SERVER="${PROFILE_SERVER:-0}"
ONLY="${ONLY:-}"
export RESPSQL_HEAP="${RESPSQL_HEAP:-6g}"
BENCH_HEAP="${BENCH_HEAP:-4g}"
DIR="${RESULT_DIR:-$ROOT/bench/results/$(date -u +%Y%m%d-%H%M%S)-analytics}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

die() { echo "analytics-bench: $*" >&2; exit 1; }

[[ "$SF" =~ ^[0-9]*\.?[0-9]+$ ]] || die "SF must be a positive number, got '$SF'"
for v in SEED RUNS CAP_MS REF_CAP_MS BATCH WINDOW; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a number, got '${!v}'"
done
[[ "$DUCKDB_THREADS" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "DUCKDB_THREADS must be numbers separated by commas (1,2), got '$DUCKDB_THREADS'"
[[ "$REF_CAP_MS" == 0 || "$REF_CAP_MS" -gt "$CAP_MS" ]] || die "REF_CAP_MS ($REF_CAP_MS) must be above CAP_MS ($CAP_MS), or 0"
[[ -x "$PG_BIN/postgres" ]] || die "no PostgreSQL 15 in $PG_BIN (apt-get install postgresql, or set PG_BIN)"

mkdir -p "$DIR" || die "cannot create $DIR"
echo "analytics-bench: results in $DIR"

# Build both jars before anything is timed.
"$ROOT/scripts/gen-benchmark" --help >/dev/null || die "gen-benchmark does not build"
"$ROOT/scripts/respsql-server" --help >/dev/null || die "the server does not build"

SERVER_PID="" PG_STARTED=0 SERVER_DATA=""
export PG_PEER_STATE="$DIR/.pg-peer.env"
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ "$PG_STARTED" == 1 ]]; then "$ROOT/scripts/pg-peer.sh" stop >/dev/null 2>&1 || true; fi
  if [[ -n "$SERVER_DATA" ]]; then rm -rf "$SERVER_DATA"; fi
  rm -f "$PG_PEER_STATE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1), $(nproc) cores online"
  echo "memory: $(free -g | awk '/^Mem:/ {print $2 " GiB total, " $7 " GiB available at start"}')"
  echo "kernel: $(uname -sr)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "pinning: none (RespSQL, PostgreSQL and the driver with DuckDB share the machine's cores)"
} > "$DIR/machine.txt"

PORT=7740
while ss -ltnH "sport = :$PORT" 2>/dev/null | grep -q .; do PORT=$((PORT + 1)); done
SERVER_DATA="$(mktemp -d "${TMPDIR:-/tmp}/analytics-bench-data.XXXXXX")"
SERVER_FLAGS=(--port "$PORT" --bind 127.0.0.1 --appendonly no --save "" --dir "$SERVER_DATA")
if [[ "$PROFILE_SERVER" == 1 ]]; then
  export RESPSQL_JAVA_OPTS="${RESPSQL_JAVA_OPTS:-} -XX:StartFlightRecording=filename=$SERVER_DATA/server.jfr,settings=profile,dumponexit=true"
fi
"$ROOT/scripts/respsql-server" "${SERVER_FLAGS[@]}" > "$DIR/server-output.txt" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 600); do
  grep -q ' ready on ' "$DIR/server-output.txt" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || die "server exited; see $DIR/server-output.txt"
  sleep 0.1
done
grep -q ' ready on ' "$DIR/server-output.txt" || die "server not ready within 60 s"
echo "respsql: ${SERVER_FLAGS[*]}, RESPSQL_HEAP=$RESPSQL_HEAP" >> "$DIR/machine.txt"

"$ROOT/scripts/pg-peer.sh" start > "$DIR/pg-peer.txt" 2>&1 || { cat "$DIR/pg-peer.txt" >&2; die "PostgreSQL did not start"; }
PG_STARTED=1
# shellcheck disable=SC1090
source "$PG_PEER_STATE"

ARGS=(--out "$DIR" --sf "$SF" --seed "$SEED" --runs "$RUNS" --cap-ms "$CAP_MS" --ref-cap-ms "$REF_CAP_MS" --duckdb-threads "$DUCKDB_THREADS"
  --batch "$BATCH" --window "$WINDOW" --host 127.0.0.1 --port "$PORT"
  --pg-url "jdbc:postgresql://127.0.0.1:$PG_PORT/$PG_DB" --pg-user "$PG_USER"
  --pg-note "scripts/pg-peer.sh: initdb --locale=C.UTF-8 into a temporary directory, loopback; $PG_SETTINGS"
  --machine "$DIR/machine.txt")
[[ "$STRICT" == 1 ]] && ARGS+=(--strict)
[[ -n "$ONLY" ]] && ARGS+=(--only "$ONLY")

set +e
GEN_BENCHMARK_JAVA_OPTS="-XX:+UseParallelGC -Xmx$BENCH_HEAP" "$ROOT/scripts/gen-benchmark" analytics-bench "${ARGS[@]}" 2>&1 | tee "$DIR/output.txt"
rc=${PIPESTATUS[0]}
set -e
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$DIR/machine.txt"
if [[ "$PROFILE_SERVER" == 1 ]]; then
  # stop the server first: the recording is written when its JVM exits
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
  if [[ -f "$SERVER_DATA/server.jfr" ]]; then
    jfr print --events jdk.ExecutionSample --stack-depth ${PROFILE_DEPTH:-12} "$SERVER_DATA/server.jfr" > "$SERVER_DATA/samples.txt"
    # PROFILE_SAMPLES=<file>: keep the decoded samples (large; not for the results directory)
    if [[ -n "${PROFILE_SAMPLES:-}" ]]; then cp "$SERVER_DATA/samples.txt" "$PROFILE_SAMPLES"; fi
    python3 - "$SERVER_DATA/samples.txt" > "$DIR/server-profile.txt" <<'PY'
import collections, re, sys
# Each CPU sample of the server's threads, put in the first component found walking up its stack.
parts = [("SQL lexer", "io.respsql.sql.Lexer"), ("SQL parser", "io.respsql.sql.Parser"),
         ("index build (CREATE INDEX)", "io.respsql.storage.Table.bulkLoad"), ("B+tree insert", "io.respsql.index."),
         ("INSERT executor and column storage", ("io.respsql.exec.", "io.respsql.storage.")),
         ("RESP decoding, Netty", ("io.netty.", "io.respsql.protocol.", "io.respsql.net.")),
         ("command dispatch", "io.respsql.command.")]
comp, top, n = collections.Counter(), collections.Counter(), 0
for ev in open(sys.argv[1]).read().split("jdk.ExecutionSample")[1:]:
    frames = re.findall(r"^\s+([\w.$]+\.[\w$<>]+)\(", ev, re.M)
    if not frames:
        continue
    n += 1
    own = [f for f in frames if f.startswith("io.respsql")]
    top[own[0] if own else frames[0]] += 1
    for name, prefix in parts:
        if any(f.startswith(prefix) for f in frames):
            comp[name] += 1
            break
    else:
        comp["other (JDK, GC-free JIT code outside the server's packages)"] += 1
print(f"RespSQL server CPU samples (Java Flight Recorder, profile settings): {n}, whole server lifetime (load, index builds, queries)")
print("\nby component (first match walking up the stack):")
for k, v in comp.most_common():
    print(f"{v:7d} {100 * v / n:5.1f}%  {k}")
print("\nby innermost server method:")
for k, v in top.most_common(25):
    print(f"{v:7d} {100 * v / n:5.1f}%  {k}")
PY
    echo "analytics-bench: server profile in $DIR/server-profile.txt"
  fi
fi
echo "analytics-bench: exit $rc; results in $DIR"
exit "$rc"
