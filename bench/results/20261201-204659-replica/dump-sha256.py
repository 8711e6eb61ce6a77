import hashlib, socket, sys
host, port, table = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
s = socket.create_connection((host, port))
s.sendall(b"*2\r\n$4\r\nDUMP\r\n$%d\r\n%s\r\n*1\r\n$4\r\nPING\r\n" % (len(table), table))
h, tail, total, head = hashlib.sha256(), b"", 0, b""
end = b"\r\n+PONG\r\n"
while True:
    chunk = s.recv(1 << 20)
    if not chunk:
        sys.exit("connection closed before the reply ended")
    if len(head) < 64:
        head += chunk[:64]
    data = tail + chunk
    if data.endswith(end):
        body = data[:-len(end) + 2]  # keep the reply's own final CRLF
        h.update(body); total += len(body)
        break
    keep = len(end) - 1
    h.update(data[:-keep]); total += len(data) - keep
    tail = data[-keep:]
first = head.split(b"\r\n", 1)[0].decode("ascii", "replace")
if not first.startswith("*"):
    sys.exit("DUMP did not reply an array: %s" % first)
print("sha256=%s bytes=%d elements=%s" % (h.hexdigest(), total, first[1:]))
