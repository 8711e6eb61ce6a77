"""redis-py (Debian's python3-redis) with its defaults: the session of tests/clients/node-common/session.mjs.

redis-py treats any reply to a command named SELECT as the answer to SELECT <db> and turns it into
True/False, so execute_command('SELECT', ...) cannot read rows: every statement goes through
SQL "<statement>", which it passes through untouched.
"""
import os
import sys

import redis

NAME = "redis-py"
ROWS = 1000
COLUMNS = "(id INT PRIMARY KEY, grp INT, score FLOAT, name TEXT)"
FAILING_BLOCK = [
    "INSERT INTO people VALUES (1002, 2, 1002.25, 'rolled back')",
    "UPDATE people SET score = 0 WHERE grp = 1",
    "INSERT INTO people VALUES (1, 1, 1.25, 'duplicate key')",
]
# The typed-reply step (QUERY): a table of its own, dropped at the end of the step.
TYPED_CREATE = "CREATE TABLE typed_c (id INT PRIMARY KEY, f FLOAT, s TEXT)"
TYPED_INSERT = "INSERT INTO typed_c VALUES (1, 2.5, 'a, b'), (2, -0.125, 'plain')"
TYPED_SELECT = "SELECT id, f, s FROM typed_c WHERE id = 1"
TYPED_NONE = "SELECT MAX(f) FROM typed_c WHERE id = 99"
TYPED_2010 = "SELECT id,s FROM typed_c WHERE id = 1"


def insert(i):
    return f"INSERT INTO people VALUES ({i}, {i % 10}, {i}.25, 'Smith, John {i}')"


def row(i, score=None, name=None):
    return f"{i},{i % 10},{score or f'{i}.25'},{name or f'Smith, John {i}'}"


class StepError(Exception):
    pass


def check(condition, what):
    if not condition:
        raise StepError(what)


def eq(actual, expected, what):
    if actual != expected:
        raise StepError(f"{what}: expected {expected!r}, got {actual!r}")


def eq_rows(actual, expected, what):
    check(isinstance(actual, list), f"{what}: expected a list of rows, got {actual!r}")
    for k in range(max(len(actual), len(expected))):
        a = actual[k] if k < len(actual) else None
        e = expected[k] if k < len(expected) else None
        if a != e:
            raise StepError(f"{what}: row {k + 1} of {len(expected)} expected {e!r}, got {a!r} ({len(actual)} rows in all)")


# TLS (run.sh's redis-py-tls): ssl=True with the test CA (host name checked) and a client certificate.
TLS = {"ssl": True, "ssl_ca_certs": os.environ["RESPSQL_TLS_CA"], "ssl_certfile": os.environ["RESPSQL_TLS_CERT"],
       "ssl_keyfile": os.environ["RESPSQL_TLS_KEY"], "ssl_cert_reqs": "required", "ssl_check_hostname": True} \
    if os.environ.get("RESPSQL_TLS_CA") else {}
r = redis.Redis(host=os.environ.get("RESPSQL_HOST", "127.0.0.1"), port=int(os.environ.get("RESPSQL_PORT", "6379")), **TLS)


def sql(statement):
    """A whole statement as one argument; replies come back as bytes (the default), rows decoded here."""
    reply = r.execute_command("SQL", statement)
    return [v.decode() for v in reply] if isinstance(reply, list) else reply


def decoded(reply):
    """Bulk strings (bytes) as text, nested lists as lists; integers and None as they come."""
    if isinstance(reply, bytes):
        return reply.decode()
    if isinstance(reply, list):
        return [decoded(v) for v in reply]
    return reply


def query(statement):
    """QUERY: the typed form, in RESP2 (redis-py's default) with FLOATs as bulk strings."""
    return decoded(r.execute_command("QUERY", statement))


def count():
    return sql("SELECT COUNT(*) FROM people")


def step_connect():
    eq(r.ping(), True, "PING")


def step_protocol():
    # redis-py's own CLIENT INFO parser, which needs every field of Redis 7's line.
    fields = r.client_info()
    eq(str(fields.get("resp")), "2", "protocol (client_info() resp)")


def step_create():
    eq(r.execute_command("CREATE", "TABLE", "people", COLUMNS), b"OK", "CREATE TABLE")


def step_insert():
    pipe = r.pipeline(transaction=False)  # a plain pipeline: pipeline() alone wraps it in MULTI/EXEC
    for i in range(1, ROWS + 1):
        pipe.execute_command("SQL", insert(i))
    replies = pipe.execute()
    eq(len(replies), ROWS, "number of replies")
    for k, reply in enumerate(replies):
        eq(reply, b"OK", f"reply to INSERT of row {k + 1}")
    eq(count(), ROWS, "SELECT COUNT(*)")


def step_select_pitfall():
    # The pitfall: redis-py's SELECT callback swallows the rows (it expects OK from SELECT <db>).
    reply = r.execute_command("SELECT", "*", "FROM", "people", "WHERE", "id = 1")
    eq(reply, False, "execute_command('SELECT', ...): the rows are lost")
    eq(sql("SELECT * FROM people WHERE id = 1"), [row(1)], 'SQL "SELECT ..." gets the row')


def step_read_back():
    eq_rows(sql("SELECT * FROM people ORDER BY id"), [row(i) for i in range(1, ROWS + 1)], "SELECT * ORDER BY id")


def step_update():
    eq(sql("UPDATE people SET score = score + 1 WHERE grp = 3"), 100, "UPDATE ... WHERE grp = 3")
    eq_rows(sql("SELECT * FROM people WHERE id = 13"), [row(13, "14.25")], "row 13 after the UPDATE")


def step_delete():
    eq(sql("DELETE FROM people WHERE grp = 7"), 100, "DELETE ... WHERE grp = 7")
    eq(count(), 900, "SELECT COUNT(*) after the DELETE")


def step_error():
    try:
        sql("SELECT * FROM nosuch")
        raise StepError("expected a ResponseError, got a reply")
    except redis.exceptions.ResponseError as e:
        check("'nosuch'" in str(e), f"the error names the table: {e}")
    eq(r.ping(), True, "PING after the error")


def step_info():
    server = r.info("server")  # redis-py's own INFO parser: a dict, numbers converted
    check(str(server.get("redis_version", "")).count(".") >= 1, f"INFO server redis_version: {server.get('redis_version')}")
    check("respsql_version" in server, "INFO server has respsql_version")
    keyspace = r.info("keyspace")
    eq(keyspace.get("db0", {}).get("keys"), 1, f"INFO keyspace db0 keys (the one table) in {keyspace}")
    tables = r.info("tables")
    eq(tables.get("table_people", {}).get("rows"), 900, f"INFO tables table_people rows in {tables}")


def step_typed():
    eq(sql(TYPED_CREATE), b"OK", "CREATE TABLE typed_c")
    eq(sql(TYPED_INSERT), b"OK", "INSERT INTO typed_c")
    reply = query(TYPED_SELECT)
    eq(reply, [["id", "f", "s"], ["INT", "FLOAT", "TEXT"], [1, "2.5", "a, b"]], f'QUERY "{TYPED_SELECT}"')
    check(type(reply[2][0]) is int, f"id decodes as an int, got {type(reply[2][0]).__name__}")
    eq(float(reply[2][1]), 2.5, "f parses back to 2.5")
    eq(query(TYPED_NONE), [["MAX(f)"], ["FLOAT"], [None]], f'QUERY "{TYPED_NONE}"')
    eq(sql(TYPED_2010), ["1,a, b"], f'SQL "{TYPED_2010}" (the 2010 form)')
    eq(sql("DROP TABLE typed_c"), 2, "DROP TABLE typed_c (the table and its primary key)")


def step_tx_commit():
    tx = r.pipeline()  # transactional by default: MULTI ... EXEC
    tx.execute_command("SQL", "INSERT INTO people VALUES (1001, 1, 1001.25, 'in a transaction')")
    tx.execute_command("SQL", "UPDATE people SET name = 'committed' WHERE id = 1001")
    eq(tx.execute(), [b"OK", 1], "EXEC replies")
    eq_rows(sql("SELECT * FROM people WHERE id = 1001"), [row(1001, "1001.25", "committed")], "row 1001")


def step_tx_rollback():
    before = sql("SELECT * FROM people ORDER BY id")
    tx = r.pipeline()
    for statement in FAILING_BLOCK:
        tx.execute_command("SQL", statement)
    try:
        replies = tx.execute()
        raise StepError(f"EXEC of a failing block was expected to raise a ResponseError, got {replies!r}")
    except redis.exceptions.ResponseError:
        pass
    eq_rows(sql("SELECT * FROM people ORDER BY id"), before, "the table after the failed block")


def step_named_user():
    # run.sh's ACL user: logs in by name (AUTH reader reader-pw), reads, and is refused a DELETE
    reader = redis.Redis(host=os.environ.get("RESPSQL_HOST", "127.0.0.1"), port=int(os.environ.get("RESPSQL_PORT", "6379")),
                         username="reader", password="reader-pw", **TLS)
    try:
        eq(decoded(reader.execute_command("ACL", "WHOAMI")), "reader", "ACL WHOAMI")
        reader.execute_command("SQL", "SELECT COUNT(*) FROM people WHERE id < 0")
        try:
            reader.execute_command("SQL", "DELETE FROM people")
            check(False, "DELETE as reader was not refused")
        except redis.exceptions.ResponseError as e:  # redis-py drops the NOPERM prefix (NoPermissionError)
            eq(str(e).removeprefix("NOPERM "), "User reader has no permissions to run the 'delete' command", "DELETE as reader")
    finally:
        reader.close()


STEPS = [
    ("connect", step_connect),
    ("protocol", step_protocol),
    ("create table", step_create),
    ("insert 1000 rows in one pipeline", step_insert),
    ("SELECT pitfall, and SQL \"...\" instead", step_select_pitfall),
    ("read back every row", step_read_back),
    ("update count", step_update),
    ("delete count", step_delete),
    ("error reply", step_error),
    ("info", step_info),
    ("typed reply (QUERY)", step_typed),
    ("multi/exec commits", step_tx_commit),
    ("multi/exec with a failing statement leaves nothing behind", step_tx_rollback),
    ("named ACL user (run.sh's reader)", step_named_user),
]


def main():
    failed = 0
    for name, fn in STEPS:
        try:
            fn()
            print(f"{NAME}: ok   {name}", flush=True)
        except Exception as e:  # every failure is reported with its step; the session goes on
            failed += 1
            why = str(e) if isinstance(e, StepError) else f"{type(e).__name__}: {e}"
            print(f"{NAME}: FAIL {name}: {why}", flush=True)
            if name == "connect":
                break
    r.close()
    print(f"{NAME}: {'all steps passed' if failed == 0 else f'{failed} step(s) failed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
