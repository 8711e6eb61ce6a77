#!/usr/bin/env bash
# Read and write system calls per request of a server under redis-benchmark -P 16 (from /proc/PID/io:
# syscr/syscw count every read/write-family call of the process, all threads).
# usage: epoll-syscalls.sh NAME PORT CMD...   (CMD starts the server in the background on PORT)
set -euo pipefail
name=$1; port=$2; shift 2
"$@" > /tmp/epoll-sys-$name.log 2>&1 &
pid=$!
for i in $(seq 100); do redis-cli -p $port ping >/dev/null 2>&1 && break; sleep 0.2; done
# a JVM parent may be a wrapper: take the process listening on the port
lp=$(ss -ltnp "sport = :$port" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
[[ $name == redis* ]] || redis-cli -p $port SQL "CREATE TABLE kv (id INT PRIMARY KEY, v BIGINT)" >/dev/null
[[ $name == redis* ]] || redis-cli -p $port SQL "INSERT INTO kv SELECT g, 0 FROM generate_series(0, 99999) g" >/dev/null 2>&1 || true
redis-benchmark -p $port -q -n 160000 -c 50 -P 16 PING >/dev/null   # warm-up
for wl in ping update; do
  if [[ $wl == ping ]]; then args=(PING); elif [[ $name == redis* ]]; then args=(INCR key:__rand_int__); else args=(SQL "UPDATE kv SET v = v + 1 WHERE id = __rand_int__"); fi
  read -r r0 < <(awk '/^syscr/{print $2}' /proc/$lp/io); read -r w0 < <(awk '/^syscw/{print $2}' /proc/$lp/io)
  n=320000
  redis-benchmark -p $port -q -n $n -c 50 -P 16 -r 100000 "${args[@]}" >/dev/null
  read -r r1 < <(awk '/^syscr/{print $2}' /proc/$lp/io); read -r w1 < <(awk '/^syscw/{print $2}' /proc/$lp/io)
  awk -v nm=$name -v wl=$wl -v n=$n -v r=$((r1-r0)) -v w=$((w1-w0)) 'BEGIN{printf "%s\t%s-p16\trequests %d\tread calls %d (%.4f/request)\twrite calls %d (%.4f/request, %.2f requests/write)\n", nm, wl, n, r, r/n, w, w/n, n/w}'
done
redis-cli -p $port shutdown nosave >/dev/null 2>&1 || kill $pid
wait $pid 2>/dev/null || true
