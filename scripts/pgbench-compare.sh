#!/usr/bin/env bash
# pgbench (Debian's, PostgreSQL 15) against RespSQL's pg-port and against a throwaway PostgreSQL 15
# (scripts/pg-peer.sh) on the same machine in one run, rounds alternated:
#
#   scripts/pgbench-compare.sh [out-dir]
#
# For each round, for each durability (durable: RespSQL appendonly yes + appendfsync always vs
# PostgreSQL fsync=on + synchronous_commit=on + full_page_writes=on; volatile: RespSQL without AOF
# or snapshots vs PostgreSQL fsync=off + synchronous_commit=off), for each system (the order swapped
# every round): a fresh server (RespSQL on free ports in a temp dir; PostgreSQL from
# scripts/pg-peer.sh, PG_DURABLE=1 for the durable one) and a fresh `pgbench -i -s SCALE`, then `pgbench -c C -j J -T T -M mode` for mode in
# simple, extended, prepared (per-transaction latencies with --log, turned into percentiles here),
# then the balance invariant is checked (sum(abalance) = sum(bbalance) = sum(tbalance), and the
# history rows of the last run = what that run added). Raw pgbench output and a summary.tsv land
# in out-dir (default bench/pgbench/<date>/); the per-transaction logs are deleted after use.
#
# Env: SCALE (1), CLIENTS (8), THREADS (2), DURATION (30), ROUNDS (2), MODES ("simple extended
# prepared"), DURABILITY ("durable volatile"), PG_BIN, PIN (a command prefix for both servers,
# e.g. "taskset -c 0,1"; pgbench itself runs unpinned), RESPSQL_HEAP (respsql-server's heap),
# SYSTEMS ("respsql postgresql"; add respsql-base with BASE_JAR=<an older server jar> for a
# before/after of RespSQL in the same run: the order of the systems is reversed every round),
# WARMUP (seconds of an unmeasured `pgbench -M prepared` run after the init, 0: none; a fresh
# JVM on a loaded machine runs interpreted for a while).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
PGBENCH="$PG_BIN/pgbench"
PSQL="$PG_BIN/psql"
SCALE="${SCALE:-1}"
CLIENTS="${CLIENTS:-8}"
THREADS="${THREADS:-2}"
DURATION="${DURATION:-30}"
ROUNDS="${ROUNDS:-2}"
MODES="${MODES:-simple extended prepared}"
DURABILITY="${DURABILITY:-durable volatile}"
SYSTEMS="${SYSTEMS:-respsql postgresql}"
WARMUP="${WARMUP:-0}"
BASE_JAR="${BASE_JAR:-}"
# shellcheck disable=SC2206
PIN=(${PIN:-})
out="${1:-$root/bench/pgbench/$(date +%Y-%m-%d)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
summary="$out/summary.tsv"

[[ -x "$PGBENCH" ]] || { echo "pgbench-compare: no pgbench in $PG_BIN" >&2; exit 1; }

export PG_PEER_STATE="$out/.pg-peer.env"
work="$(mktemp -d "${TMPDIR:-/tmp}/pgbench-compare.XXXXXX")"
rs_pid=""
cleanup() {
  [[ -n "$rs_pid" ]] && kill "$rs_pid" 2>/dev/null && wait "$rs_pid" 2>/dev/null || true
  PG_PIN="${PIN[*]:-}" "$root/scripts/pg-peer.sh" stop >/dev/null 2>&1 || true
  rm -rf "$work" "$PG_PEER_STATE"
}
trap cleanup EXIT

free_port() {
  local p=$((20000 + RANDOM % 30000))
  while ss -ltnH "sport = :$p" 2>/dev/null | grep -q .; do p=$((p + 1)); done
  echo "$p"
}

# ---- PostgreSQL: a peer per durability block (command-line -c settings beat ALTER SYSTEM) ----
pg_args=()
pg_start() { # durable|volatile
  local d=0
  [[ "$1" == durable ]] && d=1
  PG_DURABLE=$d PG_PIN="${PIN[*]:-}" "$root/scripts/pg-peer.sh" start >>"$out/pg-peer.txt"
  # shellcheck disable=SC1090
  source "$PG_PEER_STATE"
  pg_args=(-h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER")
}
pg_stop() {
  "$root/scripts/pg-peer.sh" stop >/dev/null
}
pg_settings() {
  "$PSQL" -X -At "${pg_args[@]}" -d "$PG_DB" -c "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings
    WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method')"
}

# ---- RespSQL: a server per (round, durability) on free ports in a temp dir ----
rs_start() { # durable|volatile [jar]
  local jar="${2:-}"
  local dir="$work/respsql-$1-$RANDOM" port pgport attempt
  mkdir -p "$dir"
  local dur=(--appendonly no --save "")
  [[ "$1" == durable ]] && dur=(--appendonly yes --appendfsync always --save "")
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"; pgport="$(free_port)"
    RESPSQL_JAR="$jar" "${PIN[@]}" "$root/scripts/respsql-server" --port "$port" --pg-port "$pgport" --dir "$dir" "${dur[@]}" \
      >"$dir/server.log" 2>&1 &
    rs_pid=$!
    local deadline=$((SECONDS + 120))
    until "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$pgport" >/dev/null 2>&1; do
      if ! kill -0 "$rs_pid" 2>/dev/null; then
        # a port taken between the probe and the bind (another helper's server): other ports
        if [[ $attempt -lt 5 ]] && grep -q "Address already in use" "$dir/server.log"; then
          rs_pid=""; continue 2
        fi
        cat "$dir/server.log" >&2; echo "pgbench-compare: respsql did not start" >&2; exit 1
      fi
      [[ $SECONDS -lt $deadline ]] || { echo "pgbench-compare: respsql did not answer" >&2; exit 1; }
      sleep 0.2
    done
    break
  done
  RS_PGPORT="$pgport"
}
rs_stop() {
  kill "$rs_pid" 2>/dev/null || true
  wait "$rs_pid" 2>/dev/null || true
  rs_pid=""
}

# Latency percentiles (ms) of pgbench --log files: column 3 is the latency in microseconds.
percentiles() { # log-prefix
  cat "$1".* 2>/dev/null | awk '{print $3}' | sort -n | awk '
    { v[NR] = $1 }
    END {
      if (NR == 0) { print "-\t-\t-\t-"; exit }
      split("50 90 99 99.9", q, " ")
      line = ""
      for (i = 1; i <= 4; i++) { k = int(NR * q[i] / 100 + 0.999999); if (k < 1) k = 1; if (k > NR) k = NR
        line = line (i > 1 ? "\t" : "") sprintf("%.2f", v[k] / 1000) }
      print line
    }'
}

invariant() { # conn args...: "ok" or what differs
  "$PSQL" -X -At "$@" -c "SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(bbalance) FROM pgbench_branches),
      (SELECT sum(tbalance) FROM pgbench_tellers), (SELECT coalesce(sum(delta), 0) FROM pgbench_history)" |
    awk -F'|' -v before="$BEFORE" '{ if ($1 == $2 && $2 == $3 && $1 - before == $4) print "ok"; else print "MISMATCH(" $0 " before " before ")" }'
}

run_system() { # system durability round
  local sys="$1" dur="$2" round="$3" conn=() setting db # pgbench takes the database as its last word (-d is --debug)
  if [[ "$sys" == respsql* ]]; then
    local jar="${RESPSQL_JAR:-}" # respsql-server's own build when empty
    if [[ "$sys" == respsql-base ]]; then
      [[ -f "$BASE_JAR" ]] || { echo "pgbench-compare: respsql-base needs BASE_JAR" >&2; exit 1; }
      jar="$BASE_JAR"
    fi
    rs_start "$dur" "$jar"
    conn=(-h 127.0.0.1 -p "$RS_PGPORT" -U respsql)
    db=respsql
    if [[ "$dur" == durable ]]; then setting="appendonly yes, appendfsync always"; else setting="no AOF, no snapshots"; fi
  else
    pg_start "$dur"
    setting="$(pg_settings)"
    conn=("${pg_args[@]}")
    db="$PG_DB"
  fi
  local tag="r${round}-${dur}-${sys}"
  echo "== $tag ($setting) $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/progress.txt"
  "$PGBENCH" "${conn[@]}" -i -s "$SCALE" -q "$db" >"$out/$tag-init.txt" 2>&1 || { cat "$out/$tag-init.txt" >&2; exit 1; }
  if [[ "$WARMUP" != 0 ]]; then
    (cd "$work" && "$PGBENCH" "${conn[@]}" -c "$CLIENTS" -j "$THREADS" -T "$WARMUP" -M prepared "$db") >"$out/$tag-warmup.txt" 2>&1 || true
  fi
  for mode in $MODES; do
    local f="$out/$tag-$mode.txt"
    BEFORE="$("$PSQL" -X -At "${conn[@]}" -d "$db" -c "SELECT sum(abalance) FROM pgbench_accounts")"
    echo "load before: $(cat /proc/loadavg)" >"$f"
    (cd "$work" && "$PGBENCH" "${conn[@]}" -c "$CLIENTS" -j "$THREADS" -T "$DURATION" -M "$mode" -P 5 \
      --log --log-prefix="$work/log-$tag-$mode" "$db") >>"$f" 2>&1 || echo "pgbench exit $?" >>"$f"
    local tps failed done inv
    tps="$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$f")"
    done="$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$f")"
    failed="$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$f")"
    inv="$(invariant "${conn[@]}" -d "$db")"
    echo "invariant: $inv" >>"$f"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$dur" "$sys" "$mode" "${tps:--}" "${done:--}" "${failed:--}" \
      "$(percentiles "$work/log-$tag-$mode")" "$inv" | tee -a "$summary"
    rm -f "$work/log-$tag-$mode".*
  done
  if [[ "$sys" == respsql* ]]; then rs_stop; else pg_stop; fi
  return 0
}

{
  echo "date: $(date -u '+%F %T UTC')  host: $(hostname)  cores: $(nproc)  load: $(cat /proc/loadavg)"
  echo "respsql: $(git -C "$root" rev-parse --short HEAD) ($(git -C "$root" rev-parse --abbrev-ref HEAD))${BASE_JAR:+  respsql-base: $BASE_JAR}"
  echo "systems: $SYSTEMS"
  echo "postgresql: $("$PG_BIN/postgres" --version)  peer: shared_buffers=512MB max_wal_size=4GB"
  echo "warmup: ${WARMUP}s of -M prepared before the measured modes"
  echo "pgbench: -i -s $SCALE; -c $CLIENTS -j $THREADS -T $DURATION; modes: $MODES; rounds: $ROUNDS; pin: ${PIN[*]:-none}"
} >"$out/run.txt"
printf 'round\tdurability\tsystem\tmode\ttps\ttransactions\tfailed\tp50_ms\tp90_ms\tp99_ms\tp99.9_ms\tinvariant\n' >"$summary"

for ((round = 1; round <= ROUNDS; round++)); do
  for dur in $DURABILITY; do
    order="$SYSTEMS"
    if ! ((round % 2)); then order="$(echo "$SYSTEMS" | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "") }')"; fi
    for sys in $order; do
      run_system "$sys" "$dur" "$round"
    done
  done
done

# mean TPS per (durability, mode, system) and the ratio
echo
awk -F'\t' 'NR > 1 && $5 != "-" { k = $2 "\t" $4; s[k "\t" $3] += $5; n[k "\t" $3]++; keys[k] = 1 }
  function mean(k, sys) { return n[k "\t" sys] ? s[k "\t" sys] / n[k "\t" sys] : 0 }
  END {
    base = (n_base = 0)
    for (x in n) if (x ~ /\trespsql-base$/) n_base = 1
    print "durability\tmode\trespsql_tps\tpostgresql_tps\tratio" (n_base ? "\trespsql_base_tps\tafter_before" : "")
    for (k in keys) { r = mean(k, "respsql"); p = mean(k, "postgresql"); b = mean(k, "respsql-base")
      printf "%s\t%.0f\t%.0f\t%.2f", k, r, p, (p > 0 ? r / p : 0)
      if (n_base) printf "\t%.0f\t%.2f", b, (b > 0 ? r / b : 0)
      printf "\n" }
  }' "$summary" | sort | tee "$out/tps.tsv"
