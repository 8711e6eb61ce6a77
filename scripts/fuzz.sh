#!/usr/bin/env bash
# Coverage-guided fuzzing (Jazzer) of the four input readers, each for a bounded time:
#   io.respsql.net.RequestParserFuzzTest#parse          RESP requests off the socket
#   io.respsql.sql.SqlFuzzTest#parseAndBind             SQL lexer, parser, binder and planner
#   io.respsql.persist.PersistFuzzTest#snapshot         snapshot files
#   io.respsql.persist.PersistFuzzTest#appendOnlyFile   append-only files (replayed into an engine)
#
#   scripts/fuzz.sh [seconds-per-target] [Class#method ...]     default 40 s, all four targets
#
# Each target runs in a JVM of its own (Jazzer fuzzes one test per process), starting from its
# committed seed corpus (server/src/test/resources/<package>/<Class>Inputs/<method>/) plus what
# earlier runs on this machine found (server/.cifuzz-corpus/, not committed). Prints per target
# the executions (libFuzzer's "Done N runs") and the findings. A finding is written by Jazzer
# next to the seeds as crash-<sha1> (commit it with the fix: `mvn test` then replays it); this
# script prints the exception, the file and its bytes, and exits 1.
#
# Env: FUZZ_HEAP (default 1g) the -Xmx of each fuzzing JVM; FUZZ_INPUT_TIMEOUT (default 10)
# seconds one input may take before it counts as a hang (a finding); FUZZ_LOG_DIR (default a
# temporary directory) where each target's full output is kept; FUZZ_MAX_LEN (default 4096) the
# longest input generated (longer seeds, the deep-nesting ones, are cut to it while fuzzing; the
# regression run of `mvn test` replays them whole).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_PER_TARGET="${1:-40}"
shift || true
TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then
  TARGETS=(
    io.respsql.net.RequestParserFuzzTest#parse
    io.respsql.sql.SqlFuzzTest#parseAndBind
    io.respsql.persist.PersistFuzzTest#snapshot
    io.respsql.persist.PersistFuzzTest#appendOnlyFile
  )
fi
HEAP="${FUZZ_HEAP:-1g}"
INPUT_TIMEOUT="${FUZZ_INPUT_TIMEOUT:-10}"
MAX_LEN="${FUZZ_MAX_LEN:-4096}"
LOG_DIR="${FUZZ_LOG_DIR:-$(mktemp -d)}"
mkdir -p "$LOG_DIR"

die() { echo "fuzz: $*" >&2; exit 2; }
[[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] && ((SECONDS_PER_TARGET > 0)) || die "seconds per target must be a positive number, got '$SECONDS_PER_TARGET'"
command -v java >/dev/null || die "java is needed"
command -v mvn >/dev/null || die "mvn is needed"

cd "$ROOT"
echo "fuzz: building the server's test classes"
mvn -B -q -pl server test-compile >"$LOG_DIR/build.log" 2>&1 || { cat "$LOG_DIR/build.log"; die "build failed"; }
CP_FILE="$LOG_DIR/classpath"
mvn -B -q -pl server dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$CP_FILE" \
  >>"$LOG_DIR/build.log" 2>&1 || { cat "$LOG_DIR/build.log"; die "cannot resolve the test classpath"; }
CP="$ROOT/server/target/test-classes:$ROOT/server/target/classes:$(cat "$CP_FILE")"

echo "fuzz: ${#TARGETS[@]} target(s), ${SECONDS_PER_TARGET} s each, -Xmx$HEAP, an input taking over ${INPUT_TIMEOUT} s is a hang; logs in $LOG_DIR"
status=0
total_runs=0
summary=()
for target in "${TARGETS[@]}"; do
  log="$LOG_DIR/${target//[#.]/_}.log"
  started=$(date +%s)
  # Findings and the growing corpus are kept under server/ (Jazzer's base directory).
  (cd "$ROOT/server" && JAZZER_FUZZ=1 java -Xmx"$HEAP" -XX:+UseSerialGC -cp "$CP" \
      -Djazzer.internal.basedir="$ROOT/server" \
      -Djazzer.internal.arg.0=fuzz \
      -Djazzer.internal.arg.1=-max_total_time="$SECONDS_PER_TARGET" \
      -Djazzer.internal.arg.2=-timeout="$INPUT_TIMEOUT" \
      -Djazzer.internal.arg.3=-max_len="$MAX_LEN" \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=off \
      io.respsql.fuzz.FuzzLauncher "$target") >"$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - started ))
  runs=$(grep -oE '^Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+')
  if [[ -z "$runs" ]]; then
    # A finding stops libFuzzer before its "Done" line: the last stats line has the count.
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  fi
  runs=${runs:-0}
  total_runs=$((total_runs + runs))
  crashes=$(grep -oE "(crash|timeout|oom|leak)-[0-9a-f]{40}" "$log" | sort -u)
  findings=$(printf '%s' "$crashes" | grep -c . || true)
  if ((rc != 0)) && ((findings == 0)); then
    findings=1 # failed without an artifact (e.g. a seed of the committed corpus fails): still a finding
  fi
  line=$(printf '%-52s %10s executions in %3s s, %s finding(s)' "$target" "$runs" "$took" "$findings")
  summary+=("$line")
  echo "fuzz: $line"
  if ((rc != 0)); then
    status=1
    echo "---- $target: finding (full output: $log)"
    grep -v -E '^INFO: Instrumented|^INFO: Loaded [0-9]+ hooks|^#[0-9]+ +(NEW|REDUCE|pulse)' "$log" \
      | grep -A40 -E '== Java Exception|== libFuzzer crashing input|ERROR: libFuzzer|Failures \(|timed out|==[0-9]+== ' | head -120
    for name in $crashes; do
      file=$(find "$ROOT/server" -name "$name" -not -path '*/target/*' 2>/dev/null | head -1)
      [[ -n "$file" ]] || file=$(find "$ROOT/server" -name "$name" 2>/dev/null | head -1)
      if [[ -n "$file" ]]; then
        echo "---- reproducer: $file ($(wc -c <"$file") bytes), replayed by: mvn -pl server test -Dtest='${target%%#*}'"
        od -A d -c "$file" | head -40
      fi
    done
  fi
done
echo "fuzz: summary (${SECONDS_PER_TARGET} s per target, $total_runs executions in all)"
for line in "${summary[@]}"; do
  echo "  $line"
done
exit $status
