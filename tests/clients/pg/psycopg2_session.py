"""The psycopg2 program of the PostgreSQL client matrix (tests/clients/pg-run.sh): Debian's
python3-psycopg2 with its defaults (libpq, text results, client-side parameter interpolation, a
transaction opened by the first statement: autocommit off), against PGHOST/PGPORT/PGUSER/PGDATABASE.
Steps: tables, COPY in (copy_expert), typed values back as Python objects (None, str, date,
datetime, float, Decimal, bool), COPY out equal to the file loaded, errors as psycopg2's own error
classes with their SQLSTATE (pgcode), and conn.cancel() of a long query (a CancelRequest).
The transaction step (commit / rollback) runs unless PG_CLIENTS_TX=0."""
import datetime
import io
import os
import sys
import threading
import time
from decimal import Decimal

import psycopg2
import psycopg2.errors

HERE = os.path.dirname(os.path.abspath(__file__))
failures = 0


def step(name, expected, actual):
    global failures
    if expected == actual:
        print("psycopg2: ok   " + name)
    else:
        print("psycopg2: FAIL %s\n    expected %r\n    got      %r" % (name, expected, actual))
        failures += 1


def connect():
    # libpq reads PGHOST, PGPORT, PGUSER, PGDATABASE
    return psycopg2.connect("")


conn = connect()
cur = conn.cursor()
cur.execute("CREATE TABLE pc_items (id INT PRIMARY KEY, name TEXT NOT NULL, note TEXT, born DATE,"
            " seen TIMESTAMP, score FLOAT, price NUMERIC(10,2), ok BOOLEAN)")
with open(os.path.join(HERE, "items.csv"), "rb") as f:
    cur.copy_expert("COPY pc_items FROM STDIN WITH (FORMAT csv, HEADER)", f)
step("COPY FROM STDIN (copy_expert): rowcount", 4, cur.rowcount)
conn.commit()

cur.execute("SELECT id, name, note, born, seen, score, price, ok FROM pc_items ORDER BY id")
step("typed values read back", [
    (1, "plain", None, datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 13, 45, 6, 500000), 0.1,
     Decimal("12345.67"), True),
    (2, "a, b", 'say "hi"\nline two', datetime.date(1999, 12, 31), datetime.datetime(2000, 1, 1), -2.5,
     Decimal("-0.05"), False),
    (3, "Łódź ✓ 東京 😀", "", datetime.date(1970, 1, 1), datetime.datetime(1970, 1, 1, 0, 0, 0, 1),
     3.141592653589793, Decimal("0.00"), True),
    (4, "nulls", None, None, None, None, None, None),
], cur.fetchall())
step("column type codes (RowDescription OIDs)", [23, 25, 25, 1082, 1114, 701, 1700, 16],
     [d.type_code for d in cur.description])

# parameters are interpolated by psycopg2 itself: quoting of quotes, backslashes, newlines, Unicode
odd = "it's a \\ back'slash\n\"ok\" ✓"
cur.execute("SELECT %s, %s, %s, %s, %s", (odd, None, datetime.date(2001, 2, 3), Decimal("1.50"), 2.5))
step("parameters round-trip", (odd, None, datetime.date(2001, 2, 3), Decimal("1.50"), 2.5), cur.fetchone())
conn.commit()

out = io.StringIO()
cur.copy_expert("COPY (SELECT * FROM pc_items ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)", out)
with open(os.path.join(HERE, "items.csv"), encoding="utf-8") as f:
    step("COPY TO STDOUT: the file loaded, byte for byte", f.read(), out.getvalue())
conn.commit()


def error_of(sql):
    try:
        cur.execute(sql)
        return None
    except psycopg2.Error as e:
        conn.rollback()
        return type(e).__name__, e.pgcode
    finally:
        conn.rollback()


step("unique violation", ("UniqueViolation", "23505"), error_of("INSERT INTO pc_items (id, name) VALUES (1, 'again')"))
step("syntax error", ("SyntaxError", "42601"), error_of("SELEC 1"))
step("undefined table", ("UndefinedTable", "42P01"), error_of("SELECT * FROM pc_nosuch"))
cur.execute("SELECT count(*) FROM pc_items")
step("the session goes on after errors", 4, cur.fetchone()[0])
conn.commit()

# conn.cancel() from another thread sends a CancelRequest for the running query; it does nothing
# before the query starts, so it is sent again until the query ends (at most 60 s)
cur.execute("CREATE TABLE pc_big (id INT PRIMARY KEY, v INT)")
cur.execute("INSERT INTO pc_big VALUES " + ",".join("(%d,%d)" % (i, i % 7) for i in range(1, 3001)))
conn.commit()
result = {}


def long_query():
    c2 = conn.cursor()
    try:
        c2.execute("SELECT count(*) FROM pc_big a CROSS JOIN pc_big b CROSS JOIN pc_big c WHERE a.v + b.v + c.v = 1")
        result["rows"] = c2.fetchall()
    except psycopg2.Error as e:
        result["error"] = (type(e).__name__, e.pgcode)


t = threading.Thread(target=long_query)
t.start()
deadline = time.monotonic() + 60
while t.is_alive() and time.monotonic() < deadline:
    conn.cancel()
    t.join(0.1)
step("conn.cancel() of a long query", {"error": ("QueryCanceled", "57014")}, result)
conn.rollback()
cur.execute("SELECT count(*) FROM pc_big")
step("the session goes on after the cancel", 3000, cur.fetchone()[0])
conn.commit()

if os.environ.get("PG_CLIENTS_TX", "1") != "0":
    cur.execute("INSERT INTO pc_items (id, name) VALUES (10, 'committed')")
    conn.commit()
    cur.execute("INSERT INTO pc_items (id, name) VALUES (11, 'rolled back')")
    conn.rollback()
    cur.execute("SELECT name FROM pc_items WHERE id >= 10 ORDER BY id")
    step("transactions: commit keeps, rollback takes back", [("committed",)], cur.fetchall())
    conn.commit()

conn.autocommit = True
cur.execute("DROP TABLE pc_items")
cur.execute("DROP TABLE pc_big")
conn.close()
sys.exit(1 if failures else 0)
