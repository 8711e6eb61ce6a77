#!/usr/bin/env bash
# The psql program of the PostgreSQL client matrix (tests/clients/pg-run.sh): Debian's psql 15, as
# its users run it (a script on stdin, \copy, -c), against PGHOST/PGPORT (PGUSER, PGDATABASE set by
# pg-run.sh). Steps: tables, COPY in (COPY FROM STDIN inside a script and \copy from a file), typed
# values read back exactly, COPY out equal to the file loaded, errors with their SQLSTATE
# (psql's LAST_ERROR_SQLSTATE), \d of a table, and Ctrl-C (SIGINT: psql sends a CancelRequest)
# of a long query. PG_CLIENTS_CATALOG=1 adds the \d step (not passing yet), the transaction step (BEGIN ... COMMIT / ROLLBACK) runs unless PG_CLIENTS_TX=0.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PSQL="${PSQL:-/usr/lib/postgresql/15/bin/psql}"
[[ -x "$PSQL" ]] || PSQL=psql
TMP="$(mktemp -d -t respsql-psql.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT
failures=0
step() { # step NAME EXPECTED ACTUAL
  if [[ "$2" == "$3" ]]; then
    echo "psql: ok   $1"
  else
    echo "psql: FAIL $1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}
# psql with no psqlrc, stopping at the first error, rows unaligned with '|' between columns
q() { "$PSQL" -X -q -v ON_ERROR_STOP=1 -A -t -F '|' -P null='<null>' "$@" 2>&1; }

out="$(q <<'SQL'
CREATE TABLE pc_items (id INT PRIMARY KEY, name TEXT NOT NULL, note TEXT, born DATE, seen TIMESTAMP,
                       score FLOAT, price NUMERIC(10,2), ok BOOLEAN);
COPY pc_items FROM STDIN WITH (FORMAT csv, HEADER);
id,name,note,born,seen,score,price,ok
1,plain,,2024-02-29,2024-02-29 13:45:06.5,0.1,12345.67,t
\.
SELECT count(*) FROM pc_items;
SQL
)"
step "CREATE TABLE, COPY FROM STDIN in a script" "1" "$out"

# \copy reads the file on the client's side and sends it as COPY FROM STDIN
out="$(q -c 'DELETE FROM pc_items' -c "\\copy pc_items FROM '$HERE/items.csv' WITH (FORMAT csv, HEADER)" -c 'SELECT count(*) FROM pc_items')"
step "\\copy FROM a CSV file" "4" "$out"

out="$(q -c "SELECT id, name, note, born, seen, score, price, ok, note IS NULL, length(name) FROM pc_items ORDER BY id")"
step "typed values read back" '1|plain|<null>|2024-02-29|2024-02-29 13:45:06.5|0.1|12345.67|t|t|5
2|a, b|say "hi"
line two|1999-12-31|2000-01-01 00:00:00|-2.5|-0.05|f|f|4
3|Łódź ✓ 東京 😀||1970-01-01|1970-01-01 00:00:00.000001|3.141592653589793|0.00|t|f|11
4|nulls|<null>|<null>|<null>|<null>|<null>|<null>|t|5' "$out"

q -c "\\copy (SELECT * FROM pc_items ORDER BY id) TO '$TMP/out.csv' WITH (FORMAT csv, HEADER)" >/dev/null
step "\\copy TO a file: the file loaded, byte for byte" "$(cat "$HERE/items.csv")" "$(cat "$TMP/out.csv")"

# errors: psql goes on (no ON_ERROR_STOP) and keeps the last error's SQLSTATE
out="$("$PSQL" -X -q -A -t 2>/dev/null <<'SQL'
INSERT INTO pc_items (id, name) VALUES (1, 'again');
\echo :LAST_ERROR_SQLSTATE
SELEC 1;
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM pc_nosuch;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM pc_items;
SQL
)"
step "errors: 23505, 42601, 42P01, and the session goes on" "23505
42601
42P01
4" "$out"

# \d: psql's own catalog queries (pg_class, pg_attribute, pg_index, pg_constraint, format_type,
# pg_get_indexdef, pg_get_constraintdef, ::regclass, ...), printed as PostgreSQL 15 prints them
if [[ "${PG_CLIENTS_CATALOG:-0}" == 1 ]]; then
q -c 'CREATE TABLE pc_parent (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)' \
  -c 'CREATE TABLE pc_child (id BIGINT PRIMARY KEY, parent_id INT NOT NULL REFERENCES pc_parent (id), qty INT DEFAULT 1, at TIMESTAMP, price NUMERIC(8,2))' \
  -c 'CREATE INDEX pc_child_at ON pc_child (at DESC)' >/dev/null
out="$("$PSQL" -X -c '\d pc_child' -c '\d pc_parent' 2>&1)"
step "\\d pc_child, \\d pc_parent" '                         Table "public.pc_child"
  Column   |            Type             | Collation | Nullable | Default 
-----------+-----------------------------+-----------+----------+---------
 id        | bigint                      |           | not null | 
 parent_id | integer                     |           | not null | 
 qty       | integer                     |           |          | 1
 at        | timestamp without time zone |           |          | 
 price     | numeric(8,2)                |           |          | 
Indexes:
    "pc_child_pkey" PRIMARY KEY, btree (id)
    "pc_child_at" btree (at DESC)
Foreign-key constraints:
    "pc_child_parent_id_fkey" FOREIGN KEY (parent_id) REFERENCES pc_parent(id)

                    Table "public.pc_parent"
 Column |         Type          | Collation | Nullable | Default 
--------+-----------------------+-----------+----------+---------
 id     | integer               |           | not null | 
 name   | character varying(20) |           | not null | 
Indexes:
    "pc_parent_pkey" PRIMARY KEY, btree (id)
    "pc_parent_name_key" UNIQUE CONSTRAINT, btree (name)
Referenced by:
    TABLE "pc_child" CONSTRAINT "pc_child_parent_id_fkey" FOREIGN KEY (parent_id) REFERENCES pc_parent(id)' "$out"
else
  # psql's \d queries use ::regtype, pg_collation, pg_get_constraintdef, pg_partition_ancestors,
  # WITH ORDINALITY, = any(array) ...: not all answered yet
  echo "psql: skip \\d pc_child, \\d pc_parent (PG_CLIENTS_CATALOG=1 runs it)"
fi

# Ctrl-C: psql sends a CancelRequest for the running query. SIGINT until psql ends (the first may
# come before the query is sent), then the session's next query runs.
values="$(for i in $(seq 1 3000); do printf '(%d,%d),' "$i" $((i % 7)); done)"
q -c 'CREATE TABLE pc_big (id INT PRIMARY KEY, v INT)' -c "INSERT INTO pc_big VALUES ${values%,}" >/dev/null
"$PSQL" -X -q -A -t -c '\echo connected' \
    -c 'SELECT count(*) FROM pc_big a CROSS JOIN pc_big b CROSS JOIN pc_big c WHERE a.v + b.v + c.v = 1' \
    >"$TMP/cancel.out" 2>"$TMP/cancel.err" &
pid=$!
for _ in $(seq 1 600); do grep -q connected "$TMP/cancel.out" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; kill -INT "$pid" 2>/dev/null; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
wait "$pid"
# (psql also says "Cancel request sent" when the signal came while it waited for the answer)
step "Ctrl-C cancels a long query (57014)" "ERROR:  canceling statement due to user request" \
    "$(grep -v '^Cancel request sent$' "$TMP/cancel.err")"
step "the server goes on after the cancel" "3000" "$(q -c 'SELECT count(*) FROM pc_big')"

if [[ "${PG_CLIENTS_TX:-1}" != 0 ]]; then
  out="$(q <<'SQL'
BEGIN;
INSERT INTO pc_items (id, name) VALUES (10, 'committed');
COMMIT;
BEGIN;
INSERT INTO pc_items (id, name) VALUES (11, 'rolled back');
ROLLBACK;
SELECT string_agg(name, ',' ORDER BY id) FROM pc_items WHERE id >= 10;
SQL
)"
  step "transactions: COMMIT keeps, ROLLBACK takes back" "committed" "$out"
fi

q -c 'DROP TABLE pc_items' -c 'DROP TABLE pc_big' >/dev/null
[[ "${PG_CLIENTS_CATALOG:-0}" == 1 ]] && q -c 'DROP TABLE pc_child' -c 'DROP TABLE pc_parent' >/dev/null
[[ "$failures" == 0 ]]
