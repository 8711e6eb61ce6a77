#!/bin/sh
# builds and runs HashJoinAB against the worktree's server jar
set -e
cd /work/wt-hashjoin
rm -rf /tmp/hj-ab-classes && mkdir -p /tmp/hj-ab-classes
javac -d /tmp/hj-ab-classes -cp server/target/respsql-server-0.1.0-SNAPSHOT-all.jar $(find jmh/src/main/java/io/respsql/exec -name '*.java')
java -Xms2g -Xmx2g -cp /tmp/hj-ab-classes:server/target/respsql-server-0.1.0-SNAPSHOT-all.jar io.respsql.exec.op.join.HashJoinAB "$@"
