#!/usr/bin/env bash
# usage: strace-one.sh label port cmd... ; runs server, warms up, straces during -n 200000 for P=1 and P=16
set -u
label=$1; port=$2; shift 2
dir=$(mktemp -d /tmp/pingsys/dir.XXXX)
cd $dir
taskset -c 0 "$@" >$dir/server.log 2>&1 &
spid=$!
for i in $(seq 50); do redis-cli -p $port ping >/dev/null 2>&1 && break; sleep 0.2; done
# warm
taskset -c 1 redis-benchmark -p $port -c 50 -n 300000 -q PING >/dev/null 2>&1
taskset -c 1 redis-benchmark -p $port -c 50 -P 16 -n 2000000 -q PING >/dev/null 2>&1
for P in 1 16; do
  strace -f -c -o /tmp/pingsys/strace-$label-P$P.txt -p $spid &
  st=$!
  sleep 1.5
  taskset -c 1 redis-benchmark -p $port -c 50 -P $P -n 200000 -q PING 2>&1 | tail -1 > /tmp/pingsys/bench-$label-P$P.txt
  kill -INT $st; wait $st
done
kill $spid; wait $spid 2>/dev/null
rm -rf $dir
