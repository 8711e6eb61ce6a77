#!/usr/bin/env bash
# Alternated JMH forks: server classes of each jar in front of the benchmark jar's (built from litbytes).
set -u
OUT=${OUT:-/tmp/litbytes/jmh}
mkdir -p $OUT
for round in 1; do
  for j in base new; do
    [ $((round % 2)) = 0 ] && { [ $j = base ] && j=new || j=base; }
    echo "round $round $j $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    java -cp /tmp/litbytes-$j.jar:/tmp/litbytes-jmh.jar org.openjdk.jmh.Main 'RequestPathBenchmark|PlanCacheBenchmark.(lookupHit|scanOnly)' \
      -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc -rf text -rff $OUT/r$round-$j.txt > $OUT/r$round-$j.log 2>&1
  done
done
