#!/usr/bin/env bash
# Does a long analytic query stall other clients? (issue 11 section 4)
#
# Starts a RespSQL server (free loopback port, temporary dir, no AOF, no snapshots), loads seed
# 004's e-commerce data set (gen-benchmark's EcomGen) at a scale factor, then runs
# `gen-benchmark blocking-bench`: a probe client times point UPDATEs and point SELECTs (primary key,
# one request in flight) in alternating phases, quiet (nothing else runs) and loaded (another
# connection runs Q07 and Q11 back to back), in two modes: bg (background queries, the default
# bg-query-min-rows 100000) and inline (bg-query-min-rows 0: the 2010 behaviour, for contrast).
# Raw per-request latencies and summary.txt go to bench/blocking/<UTC date-time>/ (or RESULT_DIR).
#
# VARIANTS compares server settings side by side in one run: "name|JVM options|server flags[|env]
# [|checkout]" entries separated by ';' (e.g. 'g1|-XX:+UseG1GC|;zgc|-XX:+UseZGC|--bg-query-threads 1';
# env: VAR=value words set for that server's scripts/respsql-server, e.g. RESPSQL_WORKER_NICE=0;
# checkout: another source tree whose scripts/respsql-server runs it, e.g. an older commit's
# `git archive` extracted and built, for a before/after of code). One server per
# variant is started and loaded first (all stay up, idle when not measured); then each round runs
# one loaded/quiet round per variant, the variants' order rotated from round to round, so that every
# variant sees the same machine. Raw files go to <dir>/<variant>/, the pooled figures (all rounds)
# to <dir>/summary.txt, the load average before each variant's round to <dir>/rounds.txt.
# Default: one variant "default" with RESPSQL_JAVA_OPTS as given.
#
# Env or flags: SF=0.1 (--sf)  ROUNDS=4 (--rounds)  OPS=2000 (--ops)  MODES=bg,inline (--modes)
#               RESPSQL_HEAP=3g  RESULT_DIR=  VARIANTS=  ANALYTIC_CONNS=1 (connections running
#               Q07/Q11 at once in a loaded phase)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sf) SF="$2" ;;
    --rounds) ROUNDS="$2" ;;
    --ops) OPS="$2" ;;
    --modes) MODES="$2" ;;
    --result-dir) RESULT_DIR="$2" ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "blocking-bench: unknown flag $1 (see --help)" >&2; exit 2 ;;
  esac
  shift 2
done
SF="${SF:-0.1}"
ROUNDS="${ROUNDS:-4}"
OPS="${OPS:-2000}"
MODES="${MODES:-bg,inline}"
ANALYTIC_CONNS="${ANALYTIC_CONNS:-1}"
export RESPSQL_HEAP="${RESPSQL_HEAP:-3g}"
DIR="${RESULT_DIR:-$ROOT/bench/blocking/$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$DIR"

"$ROOT/scripts/gen-benchmark" --help >/dev/null
"$ROOT/scripts/respsql-server" --help >/dev/null

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1), $(nproc) cores online"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "SF=$SF ROUNDS=$ROUNDS OPS=$OPS MODES=$MODES RESPSQL_HEAP=$RESPSQL_HEAP ANALYTIC_CONNS=$ANALYTIC_CONNS"
} > "$DIR/machine.txt"

VARIANTS="${VARIANTS:-default|${RESPSQL_JAVA_OPTS:-}|}"
IFS=';' read -r -a VARIANT_LIST <<< "$VARIANTS"
NAMES=() OPTS=() FLAGS=() ENVS=() ROOTS=() PORTS=() PIDS=() DATAS=()
for v in "${VARIANT_LIST[@]}"; do
  [[ -z "${v//[[:space:]]/}" ]] && continue
  IFS='|' read -r name opts flags envs checkout <<< "$v"
  NAMES+=("$name"); OPTS+=("$opts"); FLAGS+=("$flags"); ENVS+=("$envs"); ROOTS+=("${checkout:-$ROOT}")
done
echo "variants: ${#NAMES[@]}" >> "$DIR/machine.txt"
for i in "${!NAMES[@]}"; do
  echo "  ${NAMES[i]}: RESPSQL_JAVA_OPTS='${OPTS[i]}' server flags '${FLAGS[i]}' env '${ENVS[i]}' checkout ${ROOTS[i]}" \
    "($(git -C "${ROOTS[i]}" rev-parse --short HEAD 2>/dev/null || echo 'not a git tree'))" >> "$DIR/machine.txt"
done

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  for d in "${DATAS[@]}"; do rm -rf "$d"; done
}
trap cleanup EXIT

bench() { # variant index, then blocking-bench flags
  local i="$1"; shift
  GEN_BENCHMARK_JAVA_OPTS="-XX:+UseParallelGC -Xmx2g" "$ROOT/scripts/gen-benchmark" blocking-bench --host 127.0.0.1 \
    --port "${PORTS[i]}" --out "$DIR/${NAMES[i]}" --sf "$SF" --ops "$OPS" --modes "$MODES" --analytic-conns "$ANALYTIC_CONNS" "$@"
}

PORT=7760
for i in "${!NAMES[@]}"; do
  while ss -ltnH "sport = :$PORT" 2>/dev/null | grep -q .; do PORT=$((PORT + 1)); done
  PORTS[i]=$PORT
  mkdir -p "$DIR/${NAMES[i]}"
  DATAS[i]="$(mktemp -d "${TMPDIR:-/tmp}/blocking-bench-data.XXXXXX")"
  # shellcheck disable=SC2086  # the flags are several words on purpose
  env ${ENVS[i]} RESPSQL_JAVA_OPTS="${OPTS[i]}" "${ROOTS[i]}/scripts/respsql-server" --port "$PORT" --bind 127.0.0.1 --appendonly no \
    --save "" --dir "${DATAS[i]}" ${FLAGS[i]} > "$DIR/${NAMES[i]}/server-output.txt" 2>&1 &
  PIDS[i]=$!
  for _ in $(seq 1 600); do
    grep -q ' ready on ' "$DIR/${NAMES[i]}/server-output.txt" 2>/dev/null && break
    kill -0 "${PIDS[i]}" 2>/dev/null || { echo "server ${NAMES[i]} exited; see $DIR/${NAMES[i]}/server-output.txt" >&2; exit 1; }
    sleep 0.1
  done
  bench "$i" --rounds 0 2>&1 | tee -a "$DIR/output.txt"
  PORT=$((PORT + 1))
done

set +e
rc=0
n=${#NAMES[@]}
for ((r = 0; r < ROUNDS; r++)); do
  for ((k = 0; k < n; k++)); do
    i=$(( (r + k) % n ))
    echo "round $r ${NAMES[i]}: load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$DIR/rounds.txt"
    bench "$i" --load no --rounds 1 --first-round "$r" > "$DIR/${NAMES[i]}/output-round$r.txt" 2>&1 || rc=1
    tail -n +2 "$DIR/${NAMES[i]}/output-round$r.txt" | sed "s/^/  [${NAMES[i]} round $r] /" >> "$DIR/output.txt"
    rm -f "$DIR/${NAMES[i]}/summary.txt" # that round's alone (output-round$r.txt has it); the pooled one is $DIR/summary.txt
  done
done
set -e

pct() { # p, then sorted numbers on stdin: the value at rank ceil(p/100*n) (as BlockingBench)
  awk -v p="$1" '{v[NR]=$1} END{if(NR==0){print 0; exit} i=int((p*NR+99)/100); if(i<1)i=1; print v[i]}'
}
{
  echo "SF $SF, $ROUNDS rounds per variant (one loaded + one quiet phase each, alternated between variants), $OPS probe requests at least per loaded phase"
  echo "pooled over all rounds; client round trip in us; p99 ratio = loaded p99 / quiet p99"
  for i in "${!NAMES[@]}"; do
    for mode in ${MODES//,/ }; do
      for op in UPDATE SELECT; do
        line=$(printf '%-12s %-6s %-6s' "${NAMES[i]}" "$mode" "$op")
        for ph in quiet loaded; do
          vals=$(cat "$DIR/${NAMES[i]}/$mode-$ph-round"*.txt 2>/dev/null | awk -v o="$op" '$1==o{print $2}' | sort -n)
          cnt=$(printf '%s\n' "$vals" | grep -c . || true)
          p50=$(printf '%s\n' "$vals" | pct 50); p99=$(printf '%s\n' "$vals" | pct 99); p999=$(printf '%s\n' "$vals" | pct 99.9)
          line+=$(printf '  %s n %6d p50 %6d p99 %7d p99.9 %8d' "$ph" "$cnt" "$p50" "$p99" "$p999")
          eval "P99_$ph=$p99"
        done
        line+=$(awk -v l="$P99_loaded" -v q="$P99_quiet" 'BEGIN{printf "  p99 ratio %.2f", l / (q > 0 ? q : 1)}')
        echo "$line"
      done
    done
    grep -h "analytic queries completed\|largest capture" "$DIR/${NAMES[i]}"/output-round*.txt 2>/dev/null \
      | sed "s/^ */    ${NAMES[i]}: /" || true
  done
} > "$DIR/summary.txt"
cat "$DIR/summary.txt" | tee -a "$DIR/output.txt"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$DIR/machine.txt"
echo "blocking-bench: exit $rc; results in $DIR"
exit "$rc"
