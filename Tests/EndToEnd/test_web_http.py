"""leitner-web's HTTP without surprises, with curl and raw sockets: the security headers on every
answer, the limits of the request line, the headers and the body, Content-Length only, the
methods, the paths that are refused, the time limits and the connection limit. After each refusal
the server goes on serving."""
import pathlib
import shutil
import socket
import subprocess
import time

import pytest

from web_box import web_box, wait_until  # noqa: F401 (fixture)


@pytest.fixture
def web(web_box):
    web_box.ok("add", "--id", "secret-card", "the secret front", "the secret back")
    return web_box.start_web()


def curl(*args):
    assert shutil.which("curl"), "install curl"
    result = subprocess.run(["curl", "-s", "-i", "--max-time", "20", *args], capture_output=True, timeout=30)
    head, _, body = result.stdout.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), value.strip())
    return int(lines[0].split()[1]), headers, body.decode("utf-8", "replace")


def raw(box, data: bytes, timeout=20.0) -> bytes:
    """Sends `data` on a new connection and returns all the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", box.port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def still_serving(box):
    status, _, _ = curl(box.base + "/")
    assert status == 401


def test_every_answer_has_the_security_headers(web):
    cookie = web.login()
    for path, wanted in [("/", 200), ("/review", 200), ("/cards", 200), ("/nothing", 404)]:
        status, headers, _ = curl("-H", f"Cookie: {cookie}", web.base + path)
        assert status == wanted, path
        assert headers["content-security-policy"].startswith("default-src 'self'")
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "unsafe-inline" not in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["cache-control"] == "no-store"
    status, headers, _ = curl(web.base + "/")
    assert status == 401 and headers["x-content-type-options"] == "nosniff"
    # The statistics report keeps its inline style but may run no script.
    status, headers, body = curl("-H", f"Cookie: {cookie}", web.base + "/stats")
    assert status == 200 and "script-src" not in headers["content-security-policy"]
    assert headers["content-security-policy"].startswith("default-src 'none'") and "<script" not in body
    # The pairing link sets the cookie, named for the box and the port, lasting 400 days, and
    # the redirect drops the code from the address.
    status, headers, _ = curl(web.url)
    assert status == 303 and headers["location"] == "/"
    assert headers["set-cookie"].startswith(web.cookie_name + "=")
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", f"Max-Age={400 * 86400}"]:
        assert attribute in headers["set-cookie"]
    assert "Secure" not in headers["set-cookie"]
    # Behind a proxy that says HTTPS, a __Host- cookie, Secure.
    status, headers, _ = curl("-H", "X-Forwarded-Proto: https", web.pairing_link())
    assert status == 303 and headers["set-cookie"].startswith("__Host-" + web.cookie_name + "=")
    assert headers["set-cookie"].endswith("; Secure")


def test_pages_load_nothing_from_another_origin_and_stay_small(web):
    cookie = web.login()
    status, _, page = curl("-H", f"Cookie: {cookie}", web.base + "/review")
    assert status == 200 and "secret front" in page
    assert "http://" not in page and "https://" not in page
    assert "<script>" not in page and " style=" not in page
    assert len(page.encode()) <= 30 * 1024
    # Its style and script come from /static/ and are small.
    css = page.split('rel="stylesheet" href="')[1].split('"')[0]
    js = page.split('<script src="')[1].split('"')[0]
    for path in [css, js]:
        status, headers, body = curl(web.base + path)
        assert status == 200 and "immutable" in headers["cache-control"]
        # The script carries the offline review (R35: IndexedDB, sending kept grades): 19 KiB.
        assert len(body.encode()) < 24 * 1024
    status, _, _ = curl(web.base + "/static/app.css")
    assert status == 404


@pytest.mark.parametrize("path", ["/../etc/passwd", "/static/../../etc/passwd", "/cards/..", "/cards/%2e%2e",
                                  "/cards/a%2Fb", "/cards/a%2fb", "/cards/a%00b", "/static/%2e%2e%2fPackage.swift",
                                  "/cards/a%5Cb", "//etc/passwd", "/Package.swift", "/static/"])
def test_tricky_paths_get_404(web, path):
    cookie = web.login()
    answer = raw(web, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n".encode())
    assert status_of(answer) == 404, answer[:200]
    assert b"secret" not in answer and b"root:" not in answer


@pytest.mark.parametrize("request_bytes, wanted", [
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".replace(b"GET", b"PUT"), 405),
    (b"DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 405),
    (b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 405),
    (b"G(T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\n\r\n", 400),                                  # no Host
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: y\r\n\r\n", 400),
    (b"GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", 505),
    (b"GET / HTTX/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"GET /  HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"GET http://x/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"GET / HTTP/1.1\nHost: 127.0.0.1\n\n", 400),                             # bare LF
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n folded\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: a\x00b\r\n\r\n", 400),
    (b"GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"GET /caf\xc3\xa9 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"GET /?q=%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 411),                       # no length
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\nx", 411),
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", 400),
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n", 400),
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1x\r\n\r\n", 400),
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048577\r\n\r\n", 413),
    (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\n\r\n", 417),
])
def test_malformed_requests_get_4xx_and_close(web, request_bytes, wanted):
    answer = raw(web, request_bytes)
    assert status_of(answer) == wanted, answer[:300]
    assert b"Connection: close" in answer and b"X-Content-Type-Options: nosniff" in answer
    still_serving(web)


def test_size_limits(web):
    assert status_of(raw(web, b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) == 414
    # Without a line end at all the line is refused once it passes the limit.
    assert status_of(raw(web, b"GET /" + b"a" * 9000)) == 414
    big = b"".join(b"X-%d: %s\r\n" % (n, b"v" * 1000) for n in range(40))
    assert status_of(raw(web, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + big + b"\r\n")) == 431
    many = b"".join(b"X-%d: v\r\n" % n for n in range(150))
    assert status_of(raw(web, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + many + b"\r\n")) == 431
    # Just under the limits is fine.
    ok = raw(web, b"GET /" + b"a" * 8000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert status_of(ok) == 401
    # A body of 1 MiB is read (and refused for want of a session, not of room).
    body = b"x" * (1024 * 1024)
    answer = raw(web, b"POST /review/undo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    assert status_of(answer) == 401
    still_serving(web)


def test_keep_alive_pipelining_and_head(web):
    with socket.create_connection(("127.0.0.1", web.port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        # Read until the second answer's head has ended (HEAD's answer is its head alone): the
        # two may come in several pieces.
        data = b""
        while data.count(b"HTTP/1.1 401") < 2 or not data.endswith(b"\r\n\r\n"):
            chunk = s.recv(65536)
            assert chunk, data
            data += chunk
        assert data.count(b"HTTP/1.1 401") == 2
        assert data.count(b"<!DOCTYPE html>") == 1      # HEAD has no body
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        rest = b""
        while chunk := s.recv(65536):
            rest += chunk
        assert rest.startswith(b"HTTP/1.1 401") and b"Connection: close" in rest


def test_expect_100_continue(web):
    with socket.create_connection(("127.0.0.1", web.port), timeout=10) as s:
        s.sendall(b"POST /review/undo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        s.sendall(b"a=b&")
        assert s.recv(100).startswith(b"HTTP/1.1 401")


def test_a_slow_client_loses_its_connection_and_holds_nothing(web):
    """Slowloris: a request that does not arrive whole within 15 s gets 408 and is closed, while
    others are served meanwhile."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", web.port), timeout=30) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for _ in range(6):
            s.sendall(b"X-Slow: 1\r\n")
            still_serving(web)
            time.sleep(0.5)
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
    assert status_of(answer) == 408
    assert 14 <= time.monotonic() - start < 25


def test_the_connection_limit(web_box):
    """At MaxConnections= busy connections (each sending the body of a request), one more waits
    unaccepted in the listen backlog, neither refused nor served, and is served once one ends.
    Connections that dribble a request head are not busy: the slowest makes room."""
    web_box.ok("add", "x", "y")
    (web_box.tmp / "web.conf").write_text("[Web]\nMaxConnections=4\n")
    web_box.start_web("--config", str(web_box.tmp / "web.conf"))
    held = [socket.create_connection(("127.0.0.1", web_box.port), timeout=10) for _ in range(4)]
    try:
        for s in held:
            s.sendall(b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nfront=")
        assert read_by_the_server(web_box.port, 4), server_connections(web_box.port, "01")
        with socket.create_connection(("127.0.0.1", web_box.port), timeout=1) as waiting:
            waiting.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            with pytest.raises(TimeoutError):
                waiting.recv(4096)
            held.pop(0).close()
            waiting.settimeout(10)
            assert status_of(waiting.recv(65536)) == 401
    finally:
        for s in held:
            s.close()
    # The held connections are gone on the server's side too before the slow ones come.
    assert wait_until(lambda: not server_connections(web_box.port, "01") and closing_connections(web_box.port) == 0)
    slow = []
    try:
        # Each head read before the next is sent, so that the first is the one idle the longest
        # however the server's threads are scheduled; then their grace (250 ms) has passed.
        for n in range(4):
            slow.append(socket.create_connection(("127.0.0.1", web_box.port), timeout=10))
            slow[-1].sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            assert read_by_the_server(web_box.port, n + 1), server_connections(web_box.port, "01")
            time.sleep(0.02)
        time.sleep(0.3)
        assert status_of(raw(web_box, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")) == 401
        assert slow[0].recv(100) == b"", "the slowest head was not closed to make room"
    finally:
        for s in slow:
            s.close()


def server_connections(port, state: str) -> list[int]:
    """The server's connections on `port` in `state` (/proc/net/tcp: "01" established, "08"
    CLOSE_WAIT), each as the count of bytes it has received and not read yet."""
    unread = []
    for line in pathlib.Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == state:
            unread.append(int(fields[4].split(":")[1], 16))
    return unread


def closing_connections(port) -> int:
    """The server's connections on `port` whose client has closed and the server not yet."""
    return len(server_connections(port, "08"))


def read_by_the_server(port, count: int) -> bool:
    """Whether the server holds `count` connections on `port` and has read every byte sent on
    them: each thread has taken what its client sent (a busy body, or a dribbled head and its
    time), which a fixed wait would only hope for on a loaded machine."""
    return wait_until(lambda: server_connections(port, "01") == [0] * count)


def test_silent_connections_make_room_for_a_learner(web_box):
    """The daemon's rule (docs/web.md, "Limits"): when MaxConnections= (32) are open, the one idle
    the longest is closed to make room, so 32 connections that never say a word cannot keep a
    learner out. The learner's request is served; one silent connection, the oldest idle, is
    closed without a word, and the others stay open."""
    web_box.ok("add", "--id", "hola", "hola", "hello")
    web_box.start_web()
    cookie = web_box.login()

    def closed(s) -> bool:
        try:
            return s.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return False

    silent = []
    for n in range(32):
        # From four addresses, each within its share of 8 (a ninth from one would wait for its own).
        s = socket.create_connection(("127.0.0.1", web_box.port), timeout=10, source_address=(f"127.0.0.{2 + n // 8}", 0))
        s.setblocking(False)
        silent.append(s)
        # So that each is idle longer than the next: a connection's idle time starts when its
        # thread does, which a loaded machine may delay by some milliseconds, not by 50.
        time.sleep(0.05)
    try:
        time.sleep(0.3)
        status, _, body = web_box.request("GET", "/review", cookie=cookie)
        assert status == 200 and "hola" in body, (status, body[:300])
        # The oldest made room, and was sent nothing; the others stay.
        assert wait_until(lambda: closed(silent[0])), "the oldest silent connection is still open"
        assert not any(closed(s) for s in silent[1:]), [i for i, s in enumerate(silent) if closed(s)]
        # Once the learner's connection has ended (its thread has seen the close and closed its
        # end), the next request finds a free place.
        assert wait_until(lambda: closing_connections(web_box.port) == 0), "the server never closed the learner's connection"
        status, _, _ = web_box.request("GET", "/review", cookie=cookie)
        assert status == 200
        time.sleep(0.2)
        assert not any(closed(s) for s in silent[1:]), [i for i, s in enumerate(silent) if closed(s)]
    finally:
        for s in silent:
            s.close()


def test_errors_from_the_daemon_are_said_in_words(web):
    cookie = web.login()
    status, _, body = curl("-H", f"Cookie: {cookie}", web.base + "/cards/no-such-card")
    assert status == 404 and "no card &#39;no-such-card&#39;" in body
    web.stop_daemon()
    status, _, body = curl("-H", f"Cookie: {cookie}", web.base + "/review")
    assert status == 503 and "The daemon is not running" in body and "Nothing answers on" in body
    web.start()
    status, _, body = curl("-H", f"Cookie: {cookie}", web.base + "/review")
    assert status == 200 and "secret front" in body


def test_a_non_loopback_address_starts_with_a_warning(web_box):
    web_box.web_log = open(web_box.tmp / "leitner-web.log", "wb")
    process = subprocess.Popen([str(web_box.bin_dir / "leitner-web"), "--socket", str(web_box.socket),
                                "--listen", "0.0.0.0:0", "--print-url"],
                               env=web_box.env, stdout=subprocess.PIPE, stderr=web_box.web_log, text=True)
    try:
        # Never the wildcard itself, which no phone can open: loopback first (test_web_pairing.py
        # checks the interfaces' addresses and the QR code).
        assert process.stdout.readline().startswith("http://127.0.0.1:")
        assert wait_until(lambda: "not a loopback address" in web_box.log_text())
    finally:
        process.terminate()
        process.wait(10)
    bad = subprocess.run([str(web_box.bin_dir / "leitner-web"), "--listen", "localhost:80"], env=web_box.env,
                         capture_output=True, text=True, timeout=10)
    assert bad.returncode == 64 and "not a numeric IP address" in bad.stderr
    # The error, then the usage on a line of its own (a log line would write the break as `\n`).
    assert bad.stderr.splitlines()[1].startswith("Usage: leitner-web "), bad.stderr
    assert "\\n" not in bad.stderr


def test_leitnerctl_web_refuses_a_mistyped_address_with_its_own_usage(web_box):
    """A newcomer's `leitnerctl web --listen localhost:80`: the error is leitnerctl's, with its web
    command's usage, and no daemon is started for a command line that cannot run."""
    web_box.stop_daemon()
    bad = subprocess.run([str(web_box.bin_dir / "leitnerctl"), "--socket", str(web_box.socket), "web", "--listen", "localhost:80"],
                         env=web_box.env, capture_output=True, text=True, timeout=10)
    assert bad.returncode == 64, bad.stderr
    assert bad.stderr.splitlines() == [
        "leitnerctl: invalid --listen address 'localhost:80': 'localhost' is not a numeric IP address (no host names: nothing is looked up)",
        "Usage: leitnerctl web [OPTIONS]", "See 'leitnerctl help web'."]
    assert not web_box.socket.exists()


def test_the_devices_file_is_private_and_kept_across_restarts(web_box):
    web_box.start_web()
    cookie = web_box.login()
    path = web_box.tmp / "xdg-state" / "leitner" / "web-devices"
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700
    assert len(path.read_text().splitlines()) == 1
    # The device stays let in across a restart of leitner-web.
    web_box.web.terminate()
    web_box.web.wait(10)
    port = web_box.port
    web_box.start_web("--listen", f"127.0.0.1:{port}")
    status, _, _ = web_box.request("GET", "/", cookie=cookie)
    assert status == 200
    # A devices file others may read is refused at start, with what to do.
    web_box.web.terminate()
    web_box.web.wait(10)
    path.chmod(0o644)
    bad = subprocess.run([str(web_box.bin_dir / "leitner-web"), "--socket", str(web_box.socket), "--listen", "127.0.0.1:0"],
                         env=web_box.env, capture_output=True, text=True, timeout=10)
    assert bad.returncode == 1 and "may be read by other users" in bad.stderr and "chmod 600" in bad.stderr


def test_leitnerctl_web_prints_the_link_first_and_serves(web_box):
    web_box.ok("add", "--id", "c1", "a front", "a back")
    process = subprocess.Popen([str(web_box.bin_dir / "leitnerctl"), "--socket", str(web_box.socket), "--no-autostart",
                                "web", "--listen", "127.0.0.1:0"],
                               env=web_box.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline().strip()
        assert first.startswith("http://127.0.0.1:") and "/pair/" in first
        web_box.url = first
        web_box.port = int(first.split(":")[2].split("/")[0])
        cookie = web_box.login()
        status, _, body = web_box.request("GET", "/review", cookie=cookie)
        assert status == 200 and "a front" in body
    finally:
        process.terminate()
        assert process.wait(10) == 0
    # Without a daemon, and autostart off, it says so and starts nothing.
    web_box.stop_daemon()
    down = web_box.ctl("web", "--listen", "127.0.0.1:0")
    assert down.returncode == 69 and "autostart is off" in down.stderr
