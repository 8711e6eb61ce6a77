#!/bin/sh
# builds and runs HashJoinAB (old and new HashJoin alternated in one JVM) against this checkout's
# server jar. The harness and its copy of the old operator (OldHashJoin, OldChains) left the jmh
# module once this A/B was done; they are taken from commit 15c292e, the last that held them.
# jmh/.../exec/op/join/HashJoinBenchmark is the JMH benchmark of the current operator.
set -e
cd "$(dirname "$0")/../../.."
SRC=/tmp/hj-ab-src
rm -rf /tmp/hj-ab-classes "$SRC" && mkdir -p /tmp/hj-ab-classes "$SRC"
for f in HashJoinAB.java baseline/OldHashJoin.java baseline/OldChains.java; do
  mkdir -p "$SRC/$(dirname "$f")"
  git show "15c292e:jmh/src/main/java/io/respsql/exec/op/join/$f" > "$SRC/$f"
done
javac -d /tmp/hj-ab-classes -cp server/target/respsql-server-0.1.0-SNAPSHOT-all.jar $(find "$SRC" -name '*.java')
java -Xms2g -Xmx2g -cp /tmp/hj-ab-classes:server/target/respsql-server-0.1.0-SNAPSHOT-all.jar io.respsql.exec.op.join.HashJoinAB "$@"
