"""WebSocket clients that open a feed of the daemon and then never read (issue 26).

Usage: stalled-websockets.py HOST PORT CA_FILE PATH COUNT [PATH COUNT ...]

For each PATH, COUNT TLS connections with a small receive buffer (SO_RCVBUF 4096, set before
connecting so the window stays small), each doing the WebSocket upgrade; once the 101 has
arrived the socket is never read again. Prints one JSON line when every connection is upgraded
({"ready": N}) and keeps them open until stdin closes; then reports, per path, how many the
daemon had closed by then (a connection the daemon ended reads as end of file once drained),
and the close codes it found in what was drained. With DRAIN_UNTIL_ENDED=PATH it keeps draining
(up to 40 s) until every connection of PATH has ended.
"""

import base64
import json
import os
import selectors
import socket
import ssl
import sys
import time


def upgrade(host, port, context, path):
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((host, port))
    tls = context.wrap_socket(raw, server_hostname=host)
    key = base64.b64encode(os.urandom(16)).decode()
    tls.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = tls.recv(1)
        if not chunk:
            raise RuntimeError(f"{path}: closed before the upgrade")
        head += chunk
    status = head.split(b"\r\n", 1)[0]
    if b" 101 " not in status:
        raise RuntimeError(f"{path}: {status.decode(errors='replace')}")
    return tls


def frames(data):
    """The close codes of the close frames in a server's stream of frames."""
    codes = []
    i = 0
    while i + 2 <= len(data):
        opcode = data[i] & 0x0F
        length = data[i + 1] & 0x7F
        j = i + 2
        if length == 126:
            length = int.from_bytes(data[j : j + 2], "big")
            j += 2
        elif length == 127:
            length = int.from_bytes(data[j : j + 8], "big")
            j += 8
        if opcode == 8 and length >= 2 and j + 2 <= len(data):
            codes.append(int.from_bytes(data[j : j + 2], "big"))
        i = j + length
    return codes


def drain(sockets, seconds, until_ended, longest):
    """Reads every socket for `seconds`, and longer (up to `longest`) while a socket of the path
    `until_ended` is still open: those hold up to a send buffer of backlog each, which takes a
    loaded machine a while to decrypt. Returns, per socket, (ended, bytes read)."""
    selector = selectors.DefaultSelector()
    state = {}
    for n, (_, tls) in enumerate(sockets):
        tls.setblocking(False)
        selector.register(tls, selectors.EVENT_READ, n)
        state[n] = [False, b""]
    start = time.monotonic()

    def more():
        elapsed = time.monotonic() - start
        if elapsed < seconds:
            return True
        waiting = any(p == until_ended and not state[n][0] for n, (p, _) in enumerate(sockets))
        return waiting and elapsed < longest

    while selector.get_map() and more():
        for key, _ in selector.select(timeout=0.2):
            n, tls = key.data, key.fileobj
            while True:
                try:
                    chunk = tls.recv(1 << 16)
                except ssl.SSLWantReadError:
                    break
                except (ssl.SSLError, OSError):
                    chunk = b""
                if not chunk:
                    state[n][0] = True
                    selector.unregister(tls)
                    break
                state[n][1] += chunk
    return state


def main():
    host, port, ca = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    pairs = sys.argv[4:]
    context = ssl.create_default_context(cafile=ca)
    sockets = []
    for k in range(0, len(pairs), 2):
        path, count = pairs[k], int(pairs[k + 1])
        sockets += [(path, upgrade(host, port, context, path)) for _ in range(count)]
    print(json.dumps({"ready": len(sockets)}), flush=True)
    sys.stdin.read()
    report = {}
    state = drain(sockets, 8, os.environ.get("DRAIN_UNTIL_ENDED"), 40)
    for n, (path, _) in enumerate(sockets):
        ended, data = state[n]
        codes = frames(data)
        entry = report.setdefault(path, {"connections": 0, "ended": 0, "codes": {}})
        entry["connections"] += 1
        entry["ended"] += 1 if ended else 0
        for code in codes:
            entry["codes"][str(code)] = entry["codes"].get(str(code), 0) + 1
    print(json.dumps({"report": report}), flush=True)


main()
