#!/usr/bin/env python3
"""Slow reader of a large SELECT against a running RespSQL server (scripts/slow-reader-check.sh).

load:    slow_reader.py load PORT ROWS           creates big(id int primary key, v int) with ROWS rows
measure: slow_reader.py measure PORT PID ROWS PAUSE_S RATE_BPS
         sends SELECT * FROM big on a socket with a 64 KB receive buffer, reads nothing for PAUSE_S
         seconds, then reads at RATE_BPS; samples the server's VmRSS (/proc/PID/status), the client's
         unsent output (CLIENT LIST omem) and INFO fields every 0.25 s; checks every row (count,
         sum of ids, sum of squares, v = id * 7919 % 1000) and prints one line per sample and a summary.
"""
import os
import socket
import subprocess
import sys
import time


def enc(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


def v_of(i):
    return i * 7919 % 1000


class Conn:
    def __init__(self, port, rcvbuf=0):
        self.s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.s.connect(("127.0.0.1", port))
        self.buf = b""

    def line(self):
        while b"\r\n" not in self.buf:
            d = self.s.recv(1 << 16)
            if not d:
                raise EOFError("closed")
            self.buf += d
        ln, self.buf = self.buf.split(b"\r\n", 1)
        return ln

    def reply(self):
        """One reply as text (simple, bulk, integer, or array of bulks joined by newlines)."""
        ln = self.line()
        if ln[:1] == b"$":
            n = int(ln[1:])
            if n < 0:
                return None
            while len(self.buf) < n + 2:
                self.buf += self.s.recv(1 << 16)
            data, self.buf = self.buf[:n], self.buf[n + 2:]
            return data.decode()
        if ln[:1] == b"*":
            return [self.reply() for _ in range(int(ln[1:]))]
        return ln.decode()

    def call(self, *args):
        self.s.sendall(enc(*args))
        return self.reply()


def load(port, rows):
    c = Conn(port)
    assert c.call("CREATE", "TABLE", "big", "(id int primary key, v int)") == "+OK"
    batch, window = 20000, 8
    start, pending = 1, 0
    t0 = time.time()
    while start <= rows:
        parts = []
        for _ in range(window):
            if start > rows:
                break
            end = min(rows, start + batch - 1)
            vals = ",".join("(%d,%d)" % (i, v_of(i)) for i in range(start, end + 1))
            parts.append(enc("SQL", "INSERT INTO big VALUES " + vals))
            start = end + 1
        c.s.sendall(b"".join(parts))
        for _ in parts:
            r = c.reply()
            assert r == "+OK", r
    n = c.call("SELECT", "COUNT(*)", "FROM", "big")
    print("loaded %s rows in %.1f s" % (n, time.time() - t0), flush=True)


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for ln in f:
            if ln.startswith("VmRSS:"):
                return int(ln.split()[1])
    return -1


def info_fields(admin, names):
    text = admin.call("INFO")
    out = {}
    for ln in text.split("\r\n"):
        k, _, v = ln.partition(":")
        if k in names:
            out[k] = v
    return out


def omem(admin, name):
    listing = admin.call("CLIENT", "LIST")
    for ln in listing.split("\n"):
        if " name=%s " % name in ln:
            return int(ln.split(" omem=")[1].split()[0])
    return -1


def warm_up(port, rows):
    """Reads the whole SELECT once at full speed, so the JIT compilers (whose arenas take tens of MB
    of RSS), the code cache and the heap's young generation are warm before the baseline is taken:
    what is measured is then the slow reader's cost, not the JVM's start."""
    c = Conn(port)
    # Rows are digits and commas: the PING's reply marks the end of the SELECT's.
    c.s.sendall(enc("SELECT", "*", "FROM", "big") + enc("PING"))
    tail = b""
    total = 0
    while not tail.endswith(b"+PONG\r\n"):
        d = c.s.recv(1 << 20)
        if not d:
            raise SystemExit("closed during the warm-up")
        total += len(d)
        tail = (tail + d)[-16:]
    c.s.close()
    return total


def measure(port, pid, rows, pause_s, rate):
    t = time.time()
    warm_up(port, rows)
    print("warm-up: one full-speed read of SELECT * FROM big in %.1f s" % (time.time() - t))
    time.sleep(1)
    admin = Conn(port)
    slow = Conn(port, rcvbuf=64 * 1024)
    assert slow.call("CLIENT", "SETNAME", "slowreader") == "+OK"
    base = rss_kb(pid)
    nmt = os.environ.get("NMT") == "1"  # server started with -XX:NativeMemoryTracking=summary
    if nmt:
        subprocess.run(["jcmd", str(pid), "VM.native_memory", "baseline"], capture_output=True)
    print("server pid %d VmRSS before the SELECT: %d kB" % (pid, base))
    print("t_s phase rss_kb rss_growth_kb omem_bytes client_bytes_read bg_waiting_for_reader bg_running")
    fields = ("bg_queries_waiting_for_reader", "bg_queries_running")
    t0 = time.time()
    max_growth, max_omem = 0, 0
    last_sample = [0.0]

    def sample(phase, read_bytes, force=False):
        nonlocal max_growth, max_omem
        now = time.time()
        if not force and now - last_sample[0] < 0.25:
            return
        last_sample[0] = now
        r = rss_kb(pid)
        o = omem(admin, "slowreader")
        f = info_fields(admin, fields)
        max_growth = max(max_growth, r - base)
        max_omem = max(max_omem, o)
        print("%.2f %s %d %d %d %d %s %s" % (now - t0, phase, r, r - base, o, read_bytes,
                                            f.get(fields[0], "?"), f.get(fields[1], "?")), flush=True)

    slow.s.sendall(enc("SELECT", "*", "FROM", "big"))
    while time.time() - t0 < pause_s:
        sample("paused", 0)
        time.sleep(0.05)
    # Read at `rate` bytes/s, parsing rows as they come.
    s = slow.s
    buf = b""
    header = None
    count = ids = squares = bad = 0
    read = 0
    t_read = time.time()
    expect_rows = None
    while True:
        d = s.recv(1 << 16)
        if not d:
            raise SystemExit("server closed the connection after %d rows" % count)
        read += len(d)
        buf += d
        lines = buf.split(b"\r\n")
        buf = lines.pop()
        for ln in lines:
            if expect_rows is None:
                expect_rows = int(ln[1:])
                continue
            if ln[:1] == b"$":
                continue
            a, _, b = ln.partition(b",")
            i = int(a)
            count += 1
            ids += i
            squares = (squares + i * i) & 0xFFFFFFFFFFFFFFFF
            if int(b) != v_of(i):
                bad += 1
        if count == expect_rows:
            break
        sample("reading", read)
        # pace the reader
        ahead = read / rate - (time.time() - t_read)
        if ahead > 0:
            time.sleep(ahead)
    elapsed = time.time() - t_read
    sample("done", read, force=True)
    if nmt:
        diff = subprocess.run(["jcmd", str(pid), "VM.native_memory", "summary.diff"],
                              capture_output=True, text=True).stdout
        print("\n".join(ln for ln in diff.splitlines() if "committed=" in ln and ln.lstrip().startswith("-")
                        or ln.startswith("Total")))
    want_sq = sum(i * i for i in range(1, rows + 1)) & 0xFFFFFFFFFFFFFFFF if rows <= 20_000_000 else None
    ok = (expect_rows == rows and count == rows and ids == rows * (rows + 1) // 2 and bad == 0
          and (want_sq is None or squares == want_sq))
    pong = slow.call("PING")
    ok = ok and pong == "+PONG"
    print("rows %d of %d, sum(id) %d, sum(id^2) mod 2^64 %d, wrong v %d: %s"
          % (count, rows, ids, squares, bad, "CORRECT" if ok else "WRONG"))
    print("reply %d bytes read in %.1f s (%.1f MB/s) after %.0f s of not reading"
          % (read, elapsed, read / elapsed / 1e6, pause_s))
    print("max VmRSS growth %d kB (%.1f MB), max unsent output (omem) %d bytes (%.1f MB)"
          % (max_growth, max_growth / 1024, max_omem, max_omem / 1048576))
    return 0 if ok else 1


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "load":
        load(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(measure(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]),
                         float(sys.argv[6])))
