#!/usr/bin/env bash
# The calls of one statement inside the engine, recorded under jdb (JDK's debugger, method entry
# and exit events of io.respsql.* only), and counted by layer: calls that climb up a layer, calls
# into a package the statement had already left. Prints the counts and the package sequence.
#
#   scripts/call-trace.sh [JAR] [OUT]   (JAR: the server's all-jar, built when missing; OUT: the raw jdb output)
#
# The statement: STATEMENT (default: the 2010 FK-range UPDATE, first of its shape, so planned),
# after SETUP (';'-separated) on a fresh engine in this JVM, no server and no sockets.
# START_SECONDS (default 5): how long the setup may take before tracing starts (more on a loaded
# machine: a trace that starts before the setup is done records nothing of the statement);
# TRACE_SECONDS (default 40): how long the trace may take.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${1:-$ROOT/server/target/respsql-server-0.1.0-SNAPSHOT-all.jar}"
OUT="${2:-$(mktemp)}"
[[ -f "$JAR" ]] || (cd "$ROOT" && mvn -B -q -pl server -am package -DskipTests)
STATEMENT="${STATEMENT:-UPDATE message_list SET count = 7 WHERE fk = 1}"
SETUP="${SETUP:-CREATE TABLE message_list (id INT PRIMARY KEY, fk INT, count INT);CREATE INDEX message_list:fk:index ON message_list (fk);INSERT INTO message_list VALUES (1,1,4),(2,2,4),(3,1,4),(4,0,4)}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/Trace.java" <<'JAVA'
public class Trace {
    static void mark() {}
    static void done() {}
    public static void main(String[] a) {
        io.respsql.engine.SqlEngine e = new io.respsql.engine.SqlEngine(new io.respsql.storage.Catalog());
        for (String s : a[0].split(";")) {
            System.out.println(e.execute(s));
        }
        mark();
        Object o = e.execute(a[1]);
        done();
        System.out.println(o);
    }
}
JAVA
javac -cp "$JAR" -d "$WORK" "$WORK/Trace.java"
# jdb reads its commands from stdin; the pauses let each take effect (jdb has no "wait for event" command)
{
  echo "stop in Trace.mark"
  echo "run Trace \"$SETUP\" \"$STATEMENT\""
  sleep "${START_SECONDS:-5}"
  echo "exclude java.*,javax.*,sun.*,jdk.*,it.unimi.*,io.netty.*,org.slf4j.*,ch.qos.*,com.sun.*"
  echo "trace go methods"
  echo "cont"
  sleep "${TRACE_SECONDS:-40}"
  echo "quit"
} | jdb -classpath "$JAR:$WORK" > "$OUT" 2>&1 || true
python3 "$ROOT/scripts/lib/call_trace.py" "$OUT"
