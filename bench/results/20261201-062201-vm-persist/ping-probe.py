import signal, socket, sys, time
host, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
s = socket.create_connection((host, port))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
ping = b"*1\r\n$4\r\nPING\r\n"
lat = []
slow = []
t_start = time.perf_counter_ns()
open(out + ".ready", "w").close()
while not stop:
    t0 = time.perf_counter_ns()
    s.sendall(ping)
    buf = b""
    while not buf.endswith(b"\r\n"):
        chunk = s.recv(64)
        if not chunk:
            sys.exit("connection closed")
        buf += chunk
    dt = (time.perf_counter_ns() - t0) // 1000
    if buf != b"+PONG\r\n":
        sys.exit("unexpected reply %r" % buf)
    lat.append(dt)
    if dt > 1000:
        slow.append(((t0 - t_start) // 1000, dt))
lat.sort()
n = len(lat)
pct = lambda p: lat[min(n - 1, int(p * n))] if n else 0
with open(out, "w") as f:
    f.write("pings=%d\nseconds=%.3f\np50_us=%d\np99_us=%d\np999_us=%d\nmax_us=%d\n" % (
        n, (time.perf_counter_ns() - t_start) / 1e9, pct(0.5), pct(0.99), pct(0.999), lat[-1] if n else 0))
    f.write("over_1ms (start_offset_us latency_us):\n")
    for o, d in slow:
        f.write("%d %d\n" % (o, d))
