#!/usr/bin/env bash
# FK declared vs CREATE INDEX, 3 rounds alternated, same jar
cd /work/main
for r in 1 2 3; do
  if (( r % 2 )); then order="0 1"; else order="1 0"; fi
  for fk in $order; do
    echo "round $r fk_declared=$fk start $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    REQ=1000000 MODS="100 1000 10000" FK_DECLARED=$fk RESPSQL_JAR=/work/jars/s34.jar \
      RESULT_DIR=/work/ab/fk/r$r-fk$fk RENDER_PNG=0 scripts/large-update-test.sh > /work/ab/fk/r$r-fk$fk.log 2>&1
    echo "round $r fk_declared=$fk rc=$? end $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
