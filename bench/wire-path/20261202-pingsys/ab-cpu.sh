#!/usr/bin/env bash
# usage: ab-cpu.sh ROUNDS P N base.jar new.jar : both servers up at once (core 0), warmed, then
# alternated runs of redis-benchmark -c 50 -P P -n N PING (core 1); prints per run the serving thread's
# (respsql-loop) and the process's CPU µs/request from /proc, and the rate.
set -u
rounds=$1; P=$2; n=$3; shift 3
tck=$(getconf CLK_TCK)
declare -A pid port tid
labels=(base new)
i=0
for jar in "$@"; do
  l=${labels[i]}; p=$((8490 + i)); port[$l]=$p
  d=$(mktemp -d /tmp/pingsys2/dir.XXXX)
  (cd $d && exec taskset -c 0 java -Xmx2g -jar "$jar" --port $p --bind 127.0.0.1 --dir . --save "" --appendonly no >server.log 2>&1) &
  pid[$l]=$!
  i=$((i + 1))
done
for l in base new; do
  for k in $(seq 100); do redis-cli -p ${port[$l]} ping >/dev/null 2>&1 && break; sleep 0.2; done
  taskset -c 1 redis-benchmark -p ${port[$l]} -c 50 -n 300000 -q PING >/dev/null 2>&1
  taskset -c 1 redis-benchmark -p ${port[$l]} -c 50 -P 16 -n 2000000 -q PING >/dev/null 2>&1
  tid[$l]=$(for t in /proc/${pid[$l]}/task/*; do echo "$(awk '{print $14+$15}' $t/stat) ${t##*/}"; done | sort -n | tail -1 | awk '{print $2}')
  echo "# $l pid ${pid[$l]} port ${port[$l]} busiest thread ${tid[$l]} $(cat /proc/${pid[$l]}/task/${tid[$l]}/comm)"
done
echo "# $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg); P=$P n=$n"
for r in $(seq $rounds); do
  order="base new"; [ $((r % 2)) = 0 ] && order="new base"
  for l in $order; do
    a=($(awk '{print $14, $15}' /proc/${pid[$l]}/stat)); ta=($(awk '{print $14, $15}' /proc/${pid[$l]}/task/${tid[$l]}/stat))
    rate=$(taskset -c 1 redis-benchmark -p ${port[$l]} -c 50 -P $P -n $n -q PING 2>&1 | tr '\r' '\n' | grep 'requests per second' | tail -1 | awk '{print $2}')
    b=($(awk '{print $14, $15}' /proc/${pid[$l]}/stat)); tb=($(awk '{print $14, $15}' /proc/${pid[$l]}/task/${tid[$l]}/stat))
    python3 -c "
n=$n; t=$tck
p=((${b[0]}-${a[0]})+(${b[1]}-${a[1]}))/t*1e6/n
th=((${tb[0]}-${ta[0]})+(${tb[1]}-${ta[1]}))/t*1e6/n
thu=(${tb[0]}-${ta[0]})/t*1e6/n
print('%d\t%s\tP%d\t%s\tproc_us %.3f\tthread_us %.3f\tthread_user_us %.3f\tload %s' % ($r,'$l',$P,'$rate',p,th,thu,open('/proc/loadavg').read().split()[0]))"
  done
done
for l in base new; do kill ${pid[$l]}; done
wait 2>/dev/null
rm -rf /tmp/pingsys2/dir.*
