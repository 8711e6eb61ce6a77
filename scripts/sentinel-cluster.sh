#!/usr/bin/env bash
# A local RespSQL master, two replicas and three Redis Sentinels (quorum 2) on loopback ports,
# for trying replication and failover by hand.
#
#   scripts/sentinel-cluster.sh start        # fresh directory, free ports, everything started
#   scripts/sentinel-cluster.sh status       # each process: alive?, role, Sentinel's view of "m"
#   scripts/sentinel-cluster.sh kill-master  # SIGKILL whichever server Sentinel calls the master
#   scripts/sentinel-cluster.sh restart NAME # start a stopped node again (master, replica1, s2, ...)
#   scripts/sentinel-cluster.sh stop         # stop everything (the directory and logs stay)
#
# The servers are RespSQL (scripts/respsql-server, built when needed), each with its own
# respsql.conf (so CONFIG REWRITE has a file, as Sentinel's failover expects); the Sentinels are
# Debian's redis-server --sentinel. The master group is called "m": clients connect with
# redis-sentinel://127.0.0.1:<s1>,127.0.0.1:<s2>,127.0.0.1:<s3>#m (lettuce) or
# JedisSentinelPool("m", ...), and `redis-cli -p <s1> SENTINEL GET-MASTER-ADDR-BY-NAME m`.
#
# Replicas are configured with Redis's interface (`replicaof 127.0.0.1 <master port>` in their
# respsql.conf): a server without replication refuses that line and the replica does not start;
# the master and the Sentinels still do (monitoring, Pub/Sub and client discovery work alone).
#
# Env (all optional):
#   CLUSTER_DIR       where configs, data and logs go (default /tmp/respsql-sentinel-cluster-$USER)
#   RESPSQL_HEAP      heap of each server (default 256m)
#   DOWN_AFTER_MS     Sentinel's down-after-milliseconds (default 3000)
#   FAILOVER_TIMEOUT  Sentinel's failover-timeout in ms (default 10000)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST=127.0.0.1
DIR="${CLUSTER_DIR:-/tmp/respsql-sentinel-cluster-${USER:-$(id -un)}}"
export RESPSQL_HEAP="${RESPSQL_HEAP:-256m}"
DOWN_AFTER_MS="${DOWN_AFTER_MS:-3000}"
FAILOVER_TIMEOUT="${FAILOVER_TIMEOUT:-10000}"
SERVERS=(master replica1 replica2)
SENTINELS=(s1 s2 s3)

die() { echo "sentinel-cluster: $*" >&2; exit 1; }
say() { echo "sentinel-cluster: $*"; }

need() {
  command -v redis-server >/dev/null || die "redis-server is needed (Debian: apt-get install redis-server)"
  command -v redis-cli >/dev/null || die "redis-cli is needed (Debian: apt-get install redis-tools)"
  command -v java >/dev/null || die "java is needed"
}

# Any socket on the port counts, and ports are picked below the kernel's ephemeral range.
port_in_use() { ss -tanH "sport = :$1" 2>/dev/null | grep -q .; }
TAKEN=" "
free_port() {
  local p=$((20000 + RANDOM % 12000))
  while port_in_use "$p" || [[ "$TAKEN" == *" $p "* ]]; do p=$((p + 1)); done
  TAKEN+="$p "
  echo "$p"
}

port_of() { cat "$DIR/$1/port"; }
pid_of() { [[ -f "$DIR/$1/pid" ]] && cat "$DIR/$1/pid" || true; }
alive() { local pid; pid="$(pid_of "$1")"; [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; }

await_ping() { # name seconds
  local name="$1" port i
  port="$(port_of "$name")"
  for ((i = 0; i < $2 * 10; i++)); do
    if [[ "$(redis-cli -h "$HOST" -p "$port" PING 2>/dev/null)" == PONG ]]; then return 0; fi
    alive "$name" || return 1
    sleep 0.1
  done
  return 1
}

launch() { # name: start the node whose config is in $DIR/name
  local name="$1" d="$DIR/$1"
  if alive "$name"; then say "$name is already running (pid $(pid_of "$name"))"; return 0; fi
  if [[ -f "$d/sentinel.conf" ]]; then
    redis-server "$d/sentinel.conf" --sentinel >>"$d/out.log" 2>&1 &
  else
    # exec: the pid recorded is the JVM's, so stop and kill-master reach the server itself
    bash -c 'exec "$0" "$1"' "$ROOT/scripts/respsql-server" "$d/respsql.conf" >>"$d/out.log" 2>&1 &
  fi
  echo $! >"$d/pid"
  if await_ping "$name" 120; then
    say "$name up on $HOST:$(port_of "$name") (pid $(pid_of "$name"))"
  else
    say "$name did not start; last lines of $d/out.log:"
    tail -n 5 "$d/out.log" | sed 's/^/    /'
    return 1
  fi
}

cmd_start() {
  need
  if [[ -d "$DIR" ]]; then
    for n in "${SERVERS[@]}" "${SENTINELS[@]}"; do
      if [[ -d "$DIR/$n" ]] && alive "$n"; then die "already running in $DIR (stop it first)"; fi
    done
    rm -rf "$DIR"
  fi
  mkdir -p "$DIR"
  "$ROOT/scripts/respsql-server" --version >/dev/null # build once, before anything starts
  local mp
  for n in "${SERVERS[@]}"; do
    mkdir -p "$DIR/$n"
    free_port >"$DIR/$n/port"
  done
  mp="$(port_of master)"
  for n in "${SERVERS[@]}"; do
    {
      echo "port $(port_of "$n")"
      echo "bind $HOST"
      echo "dir $DIR/$n"
      echo "appendonly yes"
      echo "save \"\""
      if [[ "$n" != master ]]; then echo "replicaof $HOST $mp"; fi
    } >"$DIR/$n/respsql.conf"
  done
  for n in "${SENTINELS[@]}"; do
    mkdir -p "$DIR/$n"
    free_port >"$DIR/$n/port"
    cat >"$DIR/$n/sentinel.conf" <<EOF
port $(port_of "$n")
bind $HOST
dir $DIR/$n
logfile ""
sentinel resolve-hostnames no
sentinel monitor m $HOST $mp 2
sentinel down-after-milliseconds m $DOWN_AFTER_MS
sentinel failover-timeout m $FAILOVER_TIMEOUT
sentinel parallel-syncs m 1
EOF
  done
  local failed=0
  for n in "${SERVERS[@]}"; do launch "$n" || failed=1; done
  if [[ "$failed" == 1 ]]; then
    say "a replica did not start: does this server have replication (REPLICAOF, config key replicaof)?"
  fi
  for n in "${SENTINELS[@]}"; do launch "$n"; done
  local uri="redis-sentinel://"
  for n in "${SENTINELS[@]}"; do uri+="$HOST:$(port_of "$n"),"; done
  say "directory $DIR"
  say "clients: ${uri%,}#m"
  say "try: redis-cli -p $(port_of s1) SENTINEL GET-MASTER-ADDR-BY-NAME m; $0 status; $0 kill-master"
}

cmd_status() {
  [[ -d "$DIR" ]] || die "nothing started in $DIR"
  local n port
  for n in "${SERVERS[@]}"; do
    [[ -d "$DIR/$n" ]] || continue
    port="$(port_of "$n")"
    if alive "$n"; then
      local info role link
      info="$(redis-cli -h "$HOST" -p "$port" INFO replication 2>/dev/null | tr -d '\r')"
      role="$(sed -n 's/^role://p' <<<"$info")"
      link="$(sed -n 's/^master_link_status://p' <<<"$info")"
      printf '%-9s %s:%-5s pid %-7s role %s%s\n' "$n" "$HOST" "$port" "$(pid_of "$n")" "${role:-?}" \
        "${link:+ (link $link)}"
    else
      printf '%-9s %s:%-5s stopped\n' "$n" "$HOST" "$port"
    fi
  done
  for n in "${SENTINELS[@]}"; do
    [[ -d "$DIR/$n" ]] || continue
    port="$(port_of "$n")"
    if alive "$n"; then
      local view addr
      view="$(redis-cli -h "$HOST" -p "$port" SENTINEL MASTER m 2>/dev/null | paste - - | tr '\t' '=' |
        grep -E '^(flags|num-slaves|num-other-sentinels|quorum)=' | tr '\n' ' ')"
      addr="$(redis-cli -h "$HOST" -p "$port" SENTINEL GET-MASTER-ADDR-BY-NAME m 2>/dev/null | paste -sd:)"
      printf '%-9s %s:%-5s pid %-7s master %s  %s\n' "$n" "$HOST" "$port" "$(pid_of "$n")" "$addr" "$view"
    else
      printf '%-9s %s:%-5s stopped\n' "$n" "$HOST" "$port"
    fi
  done
}

cmd_kill_master() {
  [[ -d "$DIR" ]] || die "nothing started in $DIR"
  local addr port n
  addr="$(redis-cli -h "$HOST" -p "$(port_of s1)" SENTINEL GET-MASTER-ADDR-BY-NAME m | paste -sd:)"
  port="${addr##*:}"
  for n in "${SERVERS[@]}"; do
    if [[ "$(port_of "$n")" == "$port" ]]; then
      alive "$n" || die "$n ($addr) is not running"
      kill -KILL "$(pid_of "$n")"
      say "SIGKILL sent to $n ($addr, pid $(pid_of "$n")); watch: $0 status"
      return 0
    fi
  done
  die "Sentinel's master $addr is none of this cluster's servers"
}

cmd_restart() {
  [[ -n "${1:-}" && -d "$DIR/${1:-}" ]] || die "restart needs a node name: ${SERVERS[*]} ${SENTINELS[*]}"
  need
  launch "$1"
}

cmd_stop() {
  [[ -d "$DIR" ]] || { say "nothing started in $DIR"; return 0; }
  local n pid i
  for n in "${SENTINELS[@]}" "${SERVERS[@]}"; do
    [[ -d "$DIR/$n" ]] || continue
    if alive "$n"; then
      pid="$(pid_of "$n")"
      kill -TERM "$pid"
      for ((i = 0; i < 100 && $(kill -0 "$pid" 2>/dev/null && echo 1 || echo 0); i++)); do sleep 0.1; done
      if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
      say "$n stopped"
    fi
    rm -f "$DIR/$n/pid"
  done
  say "logs and data kept in $DIR"
}

case "${1:-}" in
  start) cmd_start ;;
  status) cmd_status ;;
  kill-master) cmd_kill_master ;;
  restart) shift; cmd_restart "$@" ;;
  stop) cmd_stop ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
