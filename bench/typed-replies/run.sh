#!/usr/bin/env bash
# A/B of SELECT reply encoding in one JVM per run: A = a build before the result sink, B = after.
# usage: bench/typed-replies/run.sh A-all.jar B-all.jar [rounds]   (prints raw lines to stdout)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
a="$1"; b="$2"; rounds="${3:-3}"
out="$(mktemp -d)"
javac -d "$out/a" -cp "$a" "$here/ReplyBench.java"
javac -d "$out/b" -cp "$b" "$here/ReplyBench.java" "$here/TypedRunner.java"
opts="-Xmx2g -Xms2g"
for r in $(seq 1 "$rounds"); do
    java $opts -cp "$a:$out/a" ReplyBench 2010 A
    java $opts -cp "$b:$out/b" ReplyBench 2010 B
    java $opts -cp "$b:$out/b" ReplyBench typed B
done
rm -rf "$out"
