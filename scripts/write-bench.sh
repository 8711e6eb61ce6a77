#!/usr/bin/env bash
# The write-side benchmark: UPDATE cost by table size, mutation shapes, reads under writes and the
# staleness check, against RespSQL and (when installed) a PostgreSQL 15 peer, in one run.
#
# Starts a RespSQL server (no AOF, no snapshots) pinned to core 0, a throwaway PostgreSQL
# (scripts/pg-peer.sh, durability off) pinned to core 0 too, and the driver
# (`gen-benchmark write-bench`) pinned to core 1. Every invariant is checked; any mismatch fails
# the run (exit 1). Raw files and summary.md go to bench/results/<date>-<RUN_NAME>-write/.
#
# Env, or the same as flags (--sizes "..." --rounds 2 --slice 1s --peer off ...):
#   SIZES="100000 500000 1000000 5000000"  section 1 table sizes
#   U1_REPS=1000                           U1 repetitions for its distribution, at every size
#   SHAPE_ROWS=1000000                     section 2 table size
#   ONE_ROW_REPS=1000 SHAPE_REPS=100 AGG_REPS=20   section 2 repetitions
#   RUW_ROWS=1000000                       section 3 table size
#   ROUNDS=12 SLICE=5s                     section 3 rounds and slice length (5s, 500ms or 5)
#   WRITE_INTERVAL_MS=250                  writer pause in the paced setting
#   STALENESS=3                            staleness checkpoints (0 skips)
#   SECTIONS=1,2,3                         which sections run
#   PEER=auto                              auto: PostgreSQL when installed; on: required
#                                          (installed with apt-get when missing, as root, not in
#                                          CI); off: RespSQL only
#   SEED=1                                 random choices
#   WARMUP_ROWS=50000                      untimed warm-up table before section 1 (0: none)
#   RUN_NAME=$(hostname)  RESULT_DIR=      where results go
#   RESPSQL_HEAP=3g                        server heap
#
# Several RespSQL builds side by side: write-bench.sh [flags] NAME=server.jar ... (e.g.
# before=A.jar after=B.jar). For each of AB_ROUNDS rounds (1) and each section of SECTIONS, each
# build in turn (the order rotated by section and round, so load drift hits every build alike)
# runs this script's one-build form with SECTIONS=<that section> on a fresh server of its own
# (scripts/respsql-server with RESPSQL_JAR=the jar; the staleness check's second server is the
# same jar), into DIR/<NAME>/r<round>-s<section>/ (the layout of a one-build run). The PostgreSQL
# peer (PEER) runs only with the first build, so its figures appear once. Then in DIR:
#   ab-env.txt       the builds (path, sha256), parameters, load before and after
#   ab-long.tsv      round, item, metric, build, value: RespSQL's figures of every build
#                    (scripts/lib/ab_write_extract.py: U1/U2/U3, repeated-U1 p50/p99, shape p50/p99,
#                    section 3 median-of-rounds p50s; microseconds)
#   ab-ratios.tsv    per item and metric, each later build over the first (after/before), per round
#   ab-summary.txt   the figures of each build and the ratios (times: below 1 = the later build is faster)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

AB_SPECS=()
while [[ $# -gt 0 ]]; do
  if [[ "$1" != -* && "$1" == *=* ]]; then AB_SPECS+=("$1"); shift; continue; fi
  case "$1" in
    --sizes) SIZES="$2" ;;
    --u1-reps) U1_REPS="$2" ;;
    --shape-rows) SHAPE_ROWS="$2" ;;
    --one-row-reps) ONE_ROW_REPS="$2" ;;
    --shape-reps) SHAPE_REPS="$2" ;;
    --agg-reps) AGG_REPS="$2" ;;
    --ruw-rows) RUW_ROWS="$2" ;;
    --rounds) ROUNDS="$2" ;;
    --slice) SLICE="$2" ;;
    --write-interval-ms) WRITE_INTERVAL_MS="$2" ;;
    --staleness) STALENESS="$2" ;;
    --sections) SECTIONS="$2" ;;
    --peer) PEER="$2" ;;
    --seed) SEED="$2" ;;
    --warmup-rows) WARMUP_ROWS="$2" ;;
    --run-name) RUN_NAME="$2" ;;
    --result-dir) RESULT_DIR="$2" ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "write-bench: unknown flag $1 (see --help)" >&2; exit 2 ;;
  esac
  [[ $# -ge 2 ]] || { echo "write-bench: $1 needs a value" >&2; exit 2; }
  shift 2
done

SIZES="${SIZES:-100000 500000 1000000 5000000}"
U1_REPS="${U1_REPS:-1000}"
SHAPE_ROWS="${SHAPE_ROWS:-1000000}"
ONE_ROW_REPS="${ONE_ROW_REPS:-1000}"
SHAPE_REPS="${SHAPE_REPS:-100}"
AGG_REPS="${AGG_REPS:-20}"
RUW_ROWS="${RUW_ROWS:-1000000}"
ROUNDS="${ROUNDS:-12}"
SLICE="${SLICE:-5s}"
WRITE_INTERVAL_MS="${WRITE_INTERVAL_MS:-250}"
STALENESS="${STALENESS:-3}"
SECTIONS="${SECTIONS:-1,2,3}"
PEER="${PEER:-auto}"
SEED="${SEED:-1}"
WARMUP_ROWS="${WARMUP_ROWS:-50000}"
RUN_NAME="${RUN_NAME:-$(hostname)}"
export RESPSQL_HEAP="${RESPSQL_HEAP:-3g}"
DIR="${RESULT_DIR:-$ROOT/bench/results/$(date -u +%Y%m%d-%H%M%S)-$RUN_NAME-write}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

die() { echo "write-bench: $*" >&2; exit 1; }

case "$SLICE" in
  *ms) SLICE_MS="${SLICE%ms}" ;;
  *s) SLICE_MS=$(( ${SLICE%s} * 1000 )) ;;
  *) SLICE_MS=$(( SLICE * 1000 )) ;;
esac
for v in U1_REPS SHAPE_ROWS ONE_ROW_REPS SHAPE_REPS AGG_REPS RUW_ROWS ROUNDS SLICE_MS WRITE_INTERVAL_MS STALENESS SEED WARMUP_ROWS; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a number, got '${!v}'"
done
for n in $SIZES; do [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "SIZES must be positive numbers, got '$n'"; done
[[ "$PEER" =~ ^(auto|on|off)$ ]] || die "PEER must be auto, on or off"

if [[ "$(nproc)" -ge 2 ]] && command -v taskset >/dev/null; then
  SERVER_PIN=(taskset -c 0) CLIENT_PIN=(taskset -c 1)
  PINNING="RespSQL server and PostgreSQL on core 0 (taskset -c 0), driver on core 1 (taskset -c 1)"
else
  SERVER_PIN=() CLIENT_PIN=()
  PINNING="none (fewer than 2 cores or no taskset)"
fi

mkdir -p "$DIR" || die "cannot create $DIR"
echo "write-bench: results in $DIR"

if [[ ${#AB_SPECS[@]} -gt 0 ]]; then
  source "$ROOT/scripts/lib/ab-jars.sh"
  ab_parse_jars "" -- "${AB_SPECS[@]}" || exit 2
  AB_ROUNDS="${AB_ROUNDS:-1}"
  [[ "$AB_ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "AB_ROUNDS must be a positive number"
  "$ROOT/scripts/gen-benchmark" --help >/dev/null || die "gen-benchmark does not build"
  {
    echo "date: $(date -u +%FT%TZ); host: $(uname -srm), $(nproc) cores; commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "AB_ROUNDS=$AB_ROUNDS SECTIONS=$SECTIONS SIZES=\"$SIZES\" U1_REPS=$U1_REPS SHAPE_ROWS=$SHAPE_ROWS ONE_ROW_REPS=$ONE_ROW_REPS SHAPE_REPS=$SHAPE_REPS AGG_REPS=$AGG_REPS RUW_ROWS=$RUW_ROWS ROUNDS=$ROUNDS SLICE=${SLICE_MS}ms WRITE_INTERVAL_MS=$WRITE_INTERVAL_MS STALENESS=$STALENESS PEER=$PEER (first build only) SEED=$SEED WARMUP_ROWS=$WARMUP_ROWS"
    ab_jar_lines
  } | tee "$DIR/ab-env.txt"
  LONG="$DIR/ab-long.tsv"
  printf 'round\titem\tmetric\tname\tvalue\n' >"$LONG"
  IFS=, read -r -a secs <<<"$SECTIONS"
  failed=0 k=0
  for ((r = 1; r <= AB_ROUNDS; r++)); do
    for sec in "${secs[@]}"; do
      k=$((k + 1))
      bench_rotate "$k" "${AB_NAMES[@]}"
      for name in "${ORDER[@]}"; do
        echo "=== A/B round $r section $sec: build $name ($(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg))" | tee -a "$DIR/ab-env.txt"
        out="$DIR/$name/r$r-s$sec"
        peer=off
        [[ "$name" == "${AB_NAMES[0]}" ]] && peer="$PEER"
        RESPSQL_JAR="${AB_JAR[$name]}" RESULT_DIR="$out" SECTIONS="$sec" PEER="$peer" SIZES="$SIZES" U1_REPS="$U1_REPS" \
          SHAPE_ROWS="$SHAPE_ROWS" ONE_ROW_REPS="$ONE_ROW_REPS" SHAPE_REPS="$SHAPE_REPS" AGG_REPS="$AGG_REPS" \
          RUW_ROWS="$RUW_ROWS" ROUNDS="$ROUNDS" SLICE="${SLICE_MS}ms" WRITE_INTERVAL_MS="$WRITE_INTERVAL_MS" \
          STALENESS="$STALENESS" SEED="$SEED" WARMUP_ROWS="$WARMUP_ROWS" "$0" || failed=1
        python3 "$ROOT/scripts/lib/ab_write_extract.py" "$out" "$r" "$name" >>"$LONG" || failed=1
      done
    done
  done
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$DIR/ab-env.txt"
  echo
  python3 "$ROOT/scripts/lib/ab_ratios.py" "$LONG" "${AB_NAMES[@]}" --tsv "$DIR/ab-ratios.tsv" \
    --title "Write benchmark, RespSQL builds side by side, one fresh server per build and section ($(basename "$DIR"))" \
    --note "Ratios: each build over ${AB_NAMES[0]}, one per round; all figures are client round trips in microseconds (below 1 = faster)." \
    --note "Per-build files: $DIR/<build>/r<round>-s<section>/ (summary.md and the raw files of a one-build run)." \
    | tee "$DIR/ab-summary.txt"
  [[ "$failed" == 0 ]] || die "FAILED: a build's run failed (see $DIR/<build>/)"
  echo "write-bench: done; A/B summary in $DIR/ab-summary.txt"
  exit 0
fi

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

PORT=7720
while ss -ltnH "sport = :$PORT" 2>/dev/null | grep -q .; do PORT=$((PORT + 1)); done
SERVER_FLAGS=(--port "$PORT" --bind 127.0.0.1 --appendonly no --save "")
# A server with snapshots gets a scratch dir: BGSAVE (the staleness check) writes there, never
# into the repository, and nothing is loaded at startup.
if "$ROOT/scripts/respsql-server" --help 2>/dev/null | grep -q -- '--dir '; then
  SERVER_DATA="$(mktemp -d "${TMPDIR:-/tmp}/write-bench-data.XXXXXX")"
  SERVER_FLAGS+=(--dir "$SERVER_DATA")
fi
# taskset and the launcher exec: the pid we hold becomes the JVM's, so stopping it stops the server.
"${SERVER_PIN[@]}" "$ROOT/scripts/respsql-server" "${SERVER_FLAGS[@]}" > "$DIR/server-output.txt" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 600); do
  grep -q ' ready on ' "$DIR/server-output.txt" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || die "server exited; see $DIR/server-output.txt"
  sleep 0.1
done
grep -q ' ready on ' "$DIR/server-output.txt" || die "server not ready within 60 s"

PG_ARGS=(--pg-url none)
PG_NOTE=""
if [[ "$PEER" != off ]]; then
  if [[ ! -x "$PG_BIN/postgres" && "$PEER" == on ]]; then
    export PG_INSTALL=1
  fi
  if [[ -x "$PG_BIN/postgres" || "$PEER" == on ]]; then
    if PG_PIN="${SERVER_PIN[*]}" "$ROOT/scripts/pg-peer.sh" start > "$DIR/pg-peer.txt" 2>&1; then
      PG_STARTED=1
      # shellcheck disable=SC1090
      source "$PG_PEER_STATE"
      PG_ARGS=(--pg-url "jdbc:postgresql://127.0.0.1:$PG_PORT/$PG_DB" --pg-user "$PG_USER")
    elif [[ "$PEER" == on ]]; then
      cat "$DIR/pg-peer.txt" >&2
      die "PostgreSQL peer did not start"
    else
      # auto: a peer that cannot start is reported, not fatal (CI machines differ).
      PG_NOTE="PostgreSQL is installed but did not start (see pg-peer.txt)"
    fi
  else
    PG_NOTE="PostgreSQL is not installed ($PG_BIN/postgres missing; PEER=auto)"
  fi
else
  PG_NOTE="PEER=off"
fi
[[ -n "$PG_NOTE" ]] && echo "write-bench: no PostgreSQL peer: $PG_NOTE"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "nproc: $(nproc)"
  echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
  echo "memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "kernel: $(uname -sr)"
  echo "load average at start (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "pinning: $PINNING"
  echo "respsql: scripts/respsql-server $(printf "%q " "${SERVER_FLAGS[@]}")(heap $RESPSQL_HEAP; no AOF, no snapshots)"
  [[ -z "${RESPSQL_JAR:-}" ]] || echo "respsql jar: $RESPSQL_JAR ($(sha256sum "$RESPSQL_JAR" | cut -c1-12))"
  if [[ "$PG_STARTED" == 1 ]]; then
    echo "postgresql: $PG_VERSION on 127.0.0.1:$PG_PORT, $PG_SETTINGS"
  else
    echo "postgresql: none ($PG_NOTE)"
  fi
  echo "parameters: SIZES=\"$SIZES\" U1_REPS=$U1_REPS SHAPE_ROWS=$SHAPE_ROWS ONE_ROW_REPS=$ONE_ROW_REPS SHAPE_REPS=$SHAPE_REPS AGG_REPS=$AGG_REPS RUW_ROWS=$RUW_ROWS ROUNDS=$ROUNDS SLICE=${SLICE_MS}ms WRITE_INTERVAL_MS=$WRITE_INTERVAL_MS STALENESS=$STALENESS SECTIONS=$SECTIONS SEED=$SEED WARMUP_ROWS=$WARMUP_ROWS"
} > "$DIR/machine.txt"
cat "$DIR/machine.txt"

STATUS=0
DRIVER_JAVA_OPTS="${GEN_BENCHMARK_JAVA_OPTS:--XX:+UseSerialGC -Xmx2g}"
echo "driver: gen-benchmark write-bench, JVM options $DRIVER_JAVA_OPTS" >> "$DIR/machine.txt"
# The driver keeps the JVM's full JIT (unlike gen-benchmark's load runs, which stop at C1): it
# sends one statement at a time, and JDBC is far more client code than the RESP reader.
GEN_BENCHMARK_JAVA_OPTS="$DRIVER_JAVA_OPTS" \
GEN_BENCHMARK_NO_BUILD=1 "${CLIENT_PIN[@]}" "$ROOT/scripts/gen-benchmark" write-bench \
  --out "$DIR" --host 127.0.0.1 --port "$PORT" "${PG_ARGS[@]}" --pg-note "$PG_NOTE" \
  --sizes "${SIZES// /,}" --u1-reps "$U1_REPS" --shape-rows "$SHAPE_ROWS" \
  --one-row-reps "$ONE_ROW_REPS" --shape-reps "$SHAPE_REPS" --agg-reps "$AGG_REPS" \
  --ruw-rows "$RUW_ROWS" --rounds "$ROUNDS" --slice-ms "$SLICE_MS" \
  --write-interval-ms "$WRITE_INTERVAL_MS" --staleness "$STALENESS" --sections "$SECTIONS" \
  --seed "$SEED" --warmup-rows "$WARMUP_ROWS" --machine "$DIR/machine.txt" \
  --server-cmd "${SERVER_PIN[*]} $ROOT/scripts/respsql-server" 2>&1 | tee "$DIR/driver-output.txt" || STATUS=1

if [[ "$STATUS" != 0 ]]; then
  echo "write-bench: FAILED (see $DIR/driver-output.txt and the check files)" >&2
  exit 1
fi
echo "write-bench: done; summary in $DIR/summary.md"
