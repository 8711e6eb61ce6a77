# The builds of an A/B run, given as NAME=server.jar arguments (before=A.jar after=B.jar), and
# the order they run in; sourced by scripts/vs-redis.sh, scripts/large-update-test.sh and
# scripts/write-bench.sh, not run.

# ab_parse_jars RESERVED -- SPEC...: sets AB_NAMES (in the order given; the first is the
# reference of every ratio) and AB_JAR[NAME] (absolute path). A name may not be RESERVED (e.g.
# redis, the other server of vs-redis.sh; "" for none), nor repeat, nor hold anything but
# letters, digits, '.', '_' and '-' (it names files). Prints the problem and returns 1 when a
# spec is bad.
ab_parse_jars() {
  local reserved="$1" spec name jar
  shift 2
  AB_NAMES=()
  declare -gA AB_JAR=()
  for spec in "$@"; do
    name="${spec%%=*}"; jar="${spec#*=}"
    if [[ "$spec" != *=* || ! "$name" =~ ^[A-Za-z0-9._-]+$ || "$name" == "$reserved" ]]; then
      echo "expected NAME=server.jar (NAME of letters, digits, . _ -${reserved:+, not $reserved}), got $spec" >&2; return 1
    fi
    [[ -z "${AB_JAR[$name]:-}" ]] || { echo "build name $name given twice" >&2; return 1; }
    [[ -f "$jar" ]] || { echo "$jar not found" >&2; return 1; }
    AB_NAMES+=("$name"); AB_JAR[$name]="$(realpath "$jar")"
  done
}

# One line per build for the run's environment file: name, jar path and the start of its sha256.
ab_jar_lines() {
  local n
  for n in "${AB_NAMES[@]}"; do echo "jar $n: ${AB_JAR[$n]} ($(sha256sum "${AB_JAR[$n]}" | cut -c1-12))"; done
}

# bench_rotate ROUND NAME...: the names in the order of round ROUND (1-based), rotated so that
# drift in the machine's load hits every build alike. Sets ORDER.
bench_rotate() {
  local round="$1" k; shift
  local names=("$@")
  ORDER=()
  for ((k = 0; k < ${#names[@]}; k++)); do ORDER+=("${names[$(((k + round - 1) % ${#names[@]}))]}"); done
}
