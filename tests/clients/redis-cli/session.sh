#!/usr/bin/env bash
# redis-cli 7, RESP2 or with -3 (RESP3): the session of ../node-common/session.mjs as a user types it.
# Statements go as arguments (the server joins them with spaces) or whole, as SQL "<statement>";
# --pipe is the pipeline; lines on standard input go through the same argument splitter as the
# interactive prompt, which is where quoting text values matters.
#
#   session.sh [-3]        (RESPSQL_HOST, RESPSQL_PORT: the server; run.sh sets them)
set -uo pipefail
export LC_ALL=C # ${#s} below counts bytes

MODE=("$@")
NAME=redis-cli
RESP=2
if [[ "${1:-}" == -3 ]]; then NAME=redis-cli-resp3; RESP=3; fi
ERRORS="$(mktemp)" # what redis-cli writes to stderr (a refused HELLO 3, for one), shown where it counts
trap 'rm -f "$ERRORS"' EXIT

cli() { redis-cli -h "${RESPSQL_HOST:-127.0.0.1}" -p "${RESPSQL_PORT:-6379}" "${MODE[@]}" "$@" 2>>"$ERRORS"; }

insert() { echo "INSERT INTO people VALUES ($1, $(($1 % 10)), $1.25, 'Smith, John $1')"; }
row() { echo "$1,$(($1 % 10)),${2:-$1.25},${3:-Smith, John $1}"; }
FAILING_BLOCK=(
  "INSERT INTO people VALUES (1002, 2, 1002.25, 'rolled back')"
  "UPDATE people SET score = 0 WHERE grp = 1"
  "INSERT INTO people VALUES (1, 1, 1.25, 'duplicate key')"
)

eq() { # actual expected what (newlines shown as \n)
  [[ "$1" == "$2" ]] || { echo "$3: expected \"${2//$'\n'/\\n}\", got \"${1//$'\n'/\\n}\""; return 1; }
}
# Row lists compared line by line: the first difference, not 1,000 rows.
eq_rows() { # actual expected what
  [[ "$1" == "$2" ]] || { echo "$3: differs, first lines: $(diff <(echo "$2") <(echo "$1") | sed -n '1,3p' | tr '\n' ' ')"; return 1; }
}

step_connect() { eq "$(cli PING)" PONG "PING"; }

step_protocol() {
  : >"$ERRORS"
  eq "$(cli CLIENT INFO | tr ' ' '\n' | sed -n 's/^resp=//p')" "$RESP" "protocol (CLIENT INFO resp=)" || return 1
  [[ ! -s "$ERRORS" ]] || { echo "redis-cli said: $(tr '\n' ' ' <"$ERRORS")"; return 1; }
}

step_create() {
  eq "$(cli CREATE TABLE people "(id INT PRIMARY KEY, grp INT, score FLOAT, name TEXT)")" OK "CREATE TABLE"
}

step_quoting() {
  eq "$(cli CREATE TABLE quoting "(id INT PRIMARY KEY, name TEXT)")" OK "CREATE TABLE quoting" || return 1
  # At the prompt, a quote opens in the middle of a word but must close at its end: refused.
  eq "$(cli <<<"INSERT INTO quoting VALUES (1,'Smith, John')")" "Invalid argument(s)" \
    "redis-cli's splitter on (1,'Smith, John')" || return 1
  # The ways that work: the values in double quotes, or the whole statement as one argument of SQL.
  eq "$(cli <<<"INSERT INTO quoting VALUES \"(1,'Smith, John')\"")" OK 'VALUES "(...)"' || return 1
  eq "$(cli <<<"SQL \"INSERT INTO quoting VALUES (2, 'Smith, John')\"")" OK 'SQL "INSERT ..."' || return 1
  eq "$(cli SQL "SELECT * FROM quoting ORDER BY id")" $'1,Smith, John\n2,Smith, John' "the rows of quoting" || return 1
  # The session's one table is people. DROP counts the table and its primary key index.
  eq "$(cli DROP TABLE quoting)" 2 "DROP TABLE quoting"
}

step_insert() {
  local out i s
  out="$(for i in $(seq 1 1000); do
    s="$(insert "$i")"
    printf '*2\r\n$3\r\nSQL\r\n$%d\r\n%s\r\n' "${#s}" "$s"
  done | cli --pipe)"
  eq "$(tail -n 1 <<<"$out")" "errors: 0, replies: 1000" "redis-cli --pipe" || return 1
  eq "$(cli SQL "SELECT COUNT(*) FROM people")" 1000 "SELECT COUNT(*)"
}

step_read_back() {
  eq_rows "$(cli SQL "SELECT * FROM people ORDER BY id")" "$(for i in $(seq 1 1000); do row "$i"; done)" "SELECT * ORDER BY id"
}

step_update() {
  eq "$(cli UPDATE people SET "score = score + 1" WHERE "grp = 3")" 100 "UPDATE ... WHERE grp = 3" || return 1
  eq "$(cli SQL "SELECT * FROM people WHERE id = 13")" "$(row 13 14.25)" "row 13 after the UPDATE"
}

step_delete() {
  eq "$(cli DELETE FROM people WHERE "grp = 7")" 100 "DELETE ... WHERE grp = 7" || return 1
  eq "$(cli SQL "SELECT COUNT(*) FROM people")" 900 "SELECT COUNT(*) after the DELETE"
}

step_error() {
  local status
  : >"$ERRORS"
  cli -e SQL "SELECT * FROM nosuch" >/dev/null
  status=$?
  eq "$status" 1 "exit status of redis-cli -e on an error reply" || return 1
  eq "$(cat "$ERRORS")" "ERR table 'nosuch' does not exist" "the error reply (on stderr)" || return 1
  eq "$(cli PING)" PONG "PING after the error"
}

step_info() {
  local server keyspace tables
  server="$(cli INFO server | tr -d '\r')"
  grep -qE '^redis_version:[0-9]+\.[0-9]+' <<<"$server" || { echo "INFO server has no redis_version"; return 1; }
  grep -q '^respsql_version:' <<<"$server" || { echo "INFO server has no respsql_version"; return 1; }
  keyspace="$(cli INFO keyspace | tr -d '\r' | sed -n 's/^db0://p')"
  [[ "$keyspace" == keys=1,* ]] || { echo "INFO keyspace db0 counts the one table: \"$keyspace\""; return 1; }
  tables="$(cli INFO tables | tr -d '\r' | sed -n 's/^table_people://p')"
  [[ "$tables" == rows=900,* ]] || { echo "INFO tables table_people: \"$tables\""; return 1; }
}

# QUERY's typed form, shown nested (--no-raw): RESP integers, the FLOAT a bulk string under RESP2
# and a double under -3, the text whole; no value is (nil). Its own table, dropped at the end.
step_typed() {
  local f='"2.5"'
  [[ "$RESP" == 3 ]] && f='(double) 2.5'
  eq "$(cli SQL "CREATE TABLE typed_c (id INT PRIMARY KEY, f FLOAT, s TEXT)")" OK "CREATE TABLE typed_c" || return 1
  eq "$(cli SQL "INSERT INTO typed_c VALUES (1, 2.5, 'a, b'), (2, -0.125, 'plain')")" OK "INSERT INTO typed_c" || return 1
  eq "$(cli --no-raw QUERY "SELECT id, f, s FROM typed_c WHERE id = 1")" \
    "1) 1) \"id\"
   2) \"f\"
   3) \"s\"
2) 1) \"INT\"
   2) \"FLOAT\"
   3) \"TEXT\"
3) 1) (integer) 1
   2) $f
   3) \"a, b\"" 'QUERY "SELECT id, f, s FROM typed_c WHERE id = 1"' || return 1
  eq "$(cli --no-raw QUERY "SELECT MAX(f) FROM typed_c WHERE id = 99")" $'1) 1) "MAX(f)"\n2) 1) "FLOAT"\n3) 1) (nil)' \
    'QUERY "SELECT MAX(f) FROM typed_c WHERE id = 99"' || return 1
  # The 2010 form of a SELECT is unchanged: one comma-joined bulk string per row.
  eq "$(cli --no-raw SELECT id,s FROM typed_c WHERE "id = 1")" '1) "1,a, b"' "SELECT id,s ... WHERE id = 1 (the 2010 form)" || return 1
  eq "$(cli DROP TABLE typed_c)" 2 "DROP TABLE typed_c"
}

step_tx_commit() {
  eq "$(cli <<'EOF'
MULTI
SQL "INSERT INTO people VALUES (1001, 1, 1001.25, 'in a transaction')"
SQL "UPDATE people SET name = 'committed' WHERE id = 1001"
EXEC
EOF
)" $'OK\nQUEUED\nQUEUED\nOK\n1' "MULTI, two statements, EXEC" || return 1
  eq "$(cli SQL "SELECT * FROM people WHERE id = 1001")" "$(row 1001 1001.25 committed)" "row 1001"
}

step_tx_rollback() {
  local before out s
  before="$(cli SQL "SELECT * FROM people ORDER BY id")"
  out="$({ echo MULTI; for s in "${FAILING_BLOCK[@]}"; do echo "SQL \"$s\""; done; echo EXEC; } | cli)"
  # EXEC either fails as a whole or answers with the failed statement's error in place.
  grep -qE '^(ERR|EXECABORT)' <<<"$(sed -n '5,$p' <<<"$out")" \
    || { echo "EXEC of a failing block reports the error, got: $(tr '\n' '|' <<<"$out")"; return 1; }
  eq_rows "$(cli SQL "SELECT * FROM people ORDER BY id")" "$before" "the table after the failed block"
}

# An ACL user (run.sh's --user reader): it logs in by name, reads, and is refused a DELETE.
step_named_user() {
  local as=(--user reader --pass reader-pw --no-auth-warning)
  eq "$(cli "${as[@]}" ACL WHOAMI)" reader "ACL WHOAMI as reader" || return 1
  eq "$(cli "${as[@]}" SQL "SELECT COUNT(*) FROM people WHERE id < 0")" 0 "SELECT as reader" || return 1
  : >"$ERRORS"
  cli "${as[@]}" -e SQL "DELETE FROM people" >/dev/null
  eq "$(cat "$ERRORS")" "NOPERM User reader has no permissions to run the 'delete' command" "DELETE as reader (on stderr)"
}

failed=0
run() { # name function
  local why
  if why="$("$2")"; then
    echo "$NAME: ok   $1"
  else
    failed=$((failed + 1))
    echo "$NAME: FAIL $1: ${why:-failed}"
    # Without a connection nothing can run; without RESP3, -3 would test RESP2 (and --pipe fails).
    [[ "$1" == connect || ( "$1" == protocol && "$RESP" == 3 ) ]] && return 1
  fi
  return 0
}
run connect step_connect &&
run protocol step_protocol &&
run "create table" step_create &&
run "quoting text values at the prompt" step_quoting &&
run "insert 1000 rows in one pipeline (--pipe)" step_insert &&
run "read back every row" step_read_back &&
run "update count" step_update &&
run "delete count" step_delete &&
run "error reply (-e)" step_error &&
run info step_info &&
run "typed reply (QUERY)" step_typed &&
run "multi/exec commits" step_tx_commit &&
run "multi/exec with a failing statement leaves nothing behind" step_tx_rollback &&
run "named ACL user (--user reader)" step_named_user
echo "$NAME: $([[ $failed == 0 ]] && echo "all steps passed" || echo "$failed step(s) failed")"
[[ $failed == 0 ]]
