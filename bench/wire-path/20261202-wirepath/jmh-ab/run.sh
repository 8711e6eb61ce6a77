#!/usr/bin/env bash
# Alternated JMH forks: server classes of each jar in front of the benchmark jar's.
set -u
OUT=/tmp/wirepath-jmh/ab
mkdir -p $OUT
for round in 1 2; do
  for j in base v2; do
    [ $((round % 2)) = 0 ] && { [ $j = base ] && j=v2 || j=base; }
    echo "round $round $j $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    java -cp /tmp/wirepath-$j.jar:/tmp/wirepath-jmh-v1.jar org.openjdk.jmh.Main 'RequestPathBenchmark|RequestParserBenchmark' \
      -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc -rf text -rff $OUT/r$round-$j.txt > $OUT/r$round-$j.log 2>&1
  done
done
