#!/usr/bin/env python3
"""Issue 13's three UPDATE/IN goals against one or more running servers, rounds alternated.

Usage: update_goals.py LABEL=PORT [LABEL=PORT ...]   (env: ROUNDS=3 BIG=5000000 MSG=10000000
FK_MOD=100 REPS_FULL=15 REPS_FK=200 REPS_IN=300 SEED=13 VTYPE=int)

Per server: loads big(id int primary key, v VTYPE), BIG rows, v = id % 1000 (a few NULLs), and
message_list(id int primary key, fk int, count VTYPE) with an fk index, MSG rows, fk = id % FK_MOD
(MSG / FK_MOD rows per fk value); VTYPE (int, bigint, float) is the type of the
updated columns big.v and message_list.count; by doubling INSERT ... SELECT (not timed). Then per round, per
server (order alternated by round), per workload: REPS requests, one at a time, on one
connection; prints the round trip p50/p90 in ms and the server's own usec per call (INFO
commandstats after CONFIG RESETSTAT). Every reply is checked (row counts, IN = range results).
"""
import os
import random
import socket
import statistics
import sys
import time


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        self.pos = 0

    def send(self, *args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            b = a.encode() if isinstance(a, str) else a
            out.append(b"$%d\r\n%s\r\n" % (len(b), b))
        self.s.sendall(b"".join(out))

    def _fill(self):
        chunk = self.s.recv(1 << 20)
        if not chunk:
            raise EOFError("server closed the connection")
        if self.pos:
            del self.buf[:self.pos]
            self.pos = 0
        self.buf += chunk

    def _line(self):
        while True:
            i = self.buf.find(b"\r\n", self.pos)
            if i >= 0:
                line = bytes(self.buf[self.pos:i])
                self.pos = i + 2
                return line
            self._fill()

    def read(self):
        line = self._line()
        t = line[:1]
        if t in (b"+", b":"):
            return line[1:].decode() if t == b"+" else int(line[1:])
        if t == b"-":
            return RuntimeError(line[1:].decode())
        if t == b"$":
            n = int(line[1:])
            if n < 0:
                return None
            while len(self.buf) - self.pos < n + 2:
                self._fill()
            d = bytes(self.buf[self.pos:self.pos + n])
            self.pos += n + 2
            return d.decode()
        if t == b"*":
            n = int(line[1:])
            return None if n < 0 else [self.read() for _ in range(n)]
        if t == b"_":
            return None
        raise ValueError("unexpected reply %r" % line)

    def cmd(self, *args):
        self.send(*args)
        return self.read()

    def sql(self, q):
        r = self.cmd("SQL", q)
        if isinstance(r, RuntimeError):
            raise r
        return r


def load(c, big, msg, mod, vtype):
    for t in ("big", "message_list"):
        c.cmd("SQL", "DROP TABLE " + t)
    c.sql("CREATE TABLE big (id int primary key, v %s)" % vtype)
    c.sql("INSERT INTO big VALUES " + ",".join("(%d,%d)" % (i, i % 1000) for i in range(1, 1001)))
    n = 1000
    while n < big:
        m = min(n, big - n)
        c.sql("INSERT INTO big SELECT id + %d, v FROM big WHERE id <= %d" % (n, m))
        n += m
    c.sql("UPDATE big SET v = NULL WHERE id % 100000 = 17")  # NULLs the full-table UPDATE must keep
    c.sql("CREATE TABLE message_list (id int primary key, fk int, count %s)" % vtype)
    c.sql("CREATE INDEX message_list:fk:index ON message_list (fk)")
    c.sql("INSERT INTO message_list VALUES " + ",".join("(%d,%d,4)" % (i, i % mod) for i in range(1, 1001)))
    n = 1000
    while n < msg:
        m = min(n, msg - n)
        c.sql("INSERT INTO message_list SELECT id + %d, (id + %d) %% %d, 4 FROM message_list WHERE id <= %d"
              % (n, n, mod, m))
        n += m
    assert int(c.sql("SELECT COUNT(*) FROM big")) == big
    assert int(c.sql("SELECT COUNT(*) FROM message_list")) == msg


def server_usec(c):
    info = c.cmd("INFO", "commandstats")
    for line in info.splitlines():
        if line.startswith("cmdstat_sql:"):
            return float(line.split("usec_per_call=")[1].split(",")[0])
    return float("nan")


def timed(c, queries, check):
    c.cmd("CONFIG", "RESETSTAT")
    ts = []
    for q in queries:
        t0 = time.perf_counter()
        c.send("SQL", q)
        r = c.read()
        ts.append((time.perf_counter() - t0) * 1000)
        if isinstance(r, RuntimeError):
            raise r
        check(q, r)
    us = server_usec(c)
    ts.sort()
    return ts[len(ts) // 2], ts[int(len(ts) * 0.9)], us / 1000


def main():
    servers = [(a.split("=")[0], int(a.split("=")[1])) for a in sys.argv[1:]]
    rounds = int(os.environ.get("ROUNDS", 3))
    big = int(os.environ.get("BIG", 5_000_000))
    msg = int(os.environ.get("MSG", 10_000_000))
    mod = int(os.environ.get("FK_MOD", 100))
    reps_full = int(os.environ.get("REPS_FULL", 15))
    reps_fk = int(os.environ.get("REPS_FK", 200))
    reps_in = int(os.environ.get("REPS_IN", 300))
    rnd = random.Random(int(os.environ.get("SEED", 13)))
    vtype = os.environ.get("VTYPE", "int")
    conns = {}
    for label, port in servers:
        c = Conn(port)
        t0 = time.time()
        load(c, big, msg, mod, vtype)
        print("# %s: loaded big (%d rows) and message_list (%d rows, %d per fk), updated columns %s, in %.1f s"
              % (label, big, msg, msg // mod, vtype, time.time() - t0), flush=True)
        conns[label] = c
    bases = [rnd.randrange(0, big - 1000) for _ in range(reps_in)]
    fks = [rnd.randrange(1, mod) for _ in range(reps_fk)]
    inlist = lambda b: ",".join(str(b + i) for i in range(1, 1001))
    work = [
        ("full UPDATE big SET v = v + 7 (5M rows)", ["UPDATE big SET v = v + 7"] * reps_full, lambda q, r: r == big),
        ("full UPDATE big SET v = v + 7 WHERE id > 0", ["UPDATE big SET v = v + 7 WHERE id > 0"] * reps_full,
         lambda q, r: r == big),
        ("full UPDATE big SET v = v + 7 WHERE id BETWEEN 1 AND <BIG>",
         ["UPDATE big SET v = v + 7 WHERE id BETWEEN 1 AND %d" % big] * reps_full, lambda q, r: r == big),
        ("full UPDATE big SET v = v + 7 + 0 WHERE id > 0 (general path)",
         ["UPDATE big SET v = v + 7 + 0 WHERE id > 0"] * reps_full, lambda q, r: r == big),
        ("FK-range UPDATE message_list SET count = <k> WHERE fk = <k>",
         ["UPDATE message_list SET count = %d WHERE fk = %d" % (k, k) for k in fks], lambda q, r: r == msg // mod),
        ("FK-range UPDATE message_list SET count = count + 1 WHERE fk = <k>",
         ["UPDATE message_list SET count = count + 1 WHERE fk = %d" % k for k in fks], lambda q, r: r == msg // mod),
        ("SELECT id, v FROM big WHERE id BETWEEN b+1 AND b+1000",
         ["SELECT id, v FROM big WHERE id BETWEEN %d AND %d" % (b + 1, b + 1000) for b in bases],
         lambda q, r: len(r) == 1000),
        ("SELECT id, v FROM big WHERE id IN (b+1, ..., b+1000)",
         ["SELECT id, v FROM big WHERE id IN (%s)" % inlist(b) for b in bases], lambda q, r: len(r) == 1000),
        ("UPDATE big SET v = v + 1 WHERE id BETWEEN b+1 AND b+1000",
         ["UPDATE big SET v = v + 1 WHERE id BETWEEN %d AND %d" % (b + 1, b + 1000) for b in bases],
         lambda q, r: r == 1000),
        ("UPDATE big SET v = v + 1 WHERE id IN (b+1, ..., b+1000)",
         ["UPDATE big SET v = v + 1 WHERE id IN (%s)" % inlist(b) for b in bases], lambda q, r: r == 1000),
    ]
    # Same rows either way: an IN list equals its range, on every server.
    for label, c in conns.items():
        for b in bases[:5]:
            a = c.sql("SELECT id, v FROM big WHERE id BETWEEN %d AND %d ORDER BY id" % (b + 1, b + 1000))
            ids = list(range(b + 1, b + 1001))
            rnd.shuffle(ids)
            x = c.sql("SELECT id, v FROM big WHERE id IN (%s) ORDER BY id" % ",".join(map(str, ids + ids[:50])))
            assert a == x, "IN list differs from range on " + label
    print("# IN lists equal their ranges (shuffled, with duplicates) on every server")
    print("# columns: round, server, workload, p50 ms, p90 ms, server ms per call (commandstats)")
    for r in range(1, rounds + 1):
        order = list(conns) if r % 2 else list(reversed(list(conns)))
        for label in order:
            c = conns[label]
            for name, qs, check in work:
                p50, p90, srv = timed(c, qs, check)
                print("round %d\t%s\t%s\t%.3f\t%.3f\t%.3f" % (r, label, name, p50, p90, srv), flush=True)
    for label, c in conns.items():
        nulls = c.sql("SELECT COUNT(*) FROM big WHERE v IS NULL")
        print("# %s: NULLs in big.v after all updates: %s (expected %d)" % (label, nulls, big // 100000))


if __name__ == "__main__":
    main()
