#!/usr/bin/env bash
# A/B of SELECT reply encoding, A = a server jar before the result sink, B = after (see README.md).
# usage: bench/typed-replies/run.sh A-all.jar B-all.jar [rounds]   (raw lines to stdout)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
a="$1"; b="$2"; rounds="${3:-7}"
out="$(mktemp -d)"
javac -d "$out" -cp "$a" "$here/Workload.java"
javac -d "$out" -cp "$b" "$here/TypedRunner.java"
javac -d "$out" -cp "$out" "$here/AB.java"
java -Xmx4g -Xms4g -cp "$out" AB "$a" "$b" "$out" "$rounds"
rm -rf "$out"
