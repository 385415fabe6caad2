"""leitner-web under the loads of issue #36 (docs/web.md, "HTTP without surprises"): while a
stranger's connections are held, the learner's `GET /review` on a fresh connection is measured.
The learner is 127.0.0.1 and the stranger 127.0.0.2, another client address on loopback, as a
stranger on the network is not the learner's phone. Every load runs on loopback only, bounded in
count and time, and stops by itself."""
import http.client
import select
import socket
import threading
import time

from web_box import web_box, wait_until  # noqa: F401 (fixture)

LEARNER_LOADS = 20
STRANGER = "127.0.0.2"


def stranger_connection(port, timeout=10):
    """A connection to leitner-web from the stranger's address."""
    return socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(STRANGER, 0))


def learner_latencies(box, cookie, count=LEARNER_LOADS):
    """The learner's page loads, each on a new connection: their times in seconds, sorted;
    a load that fails counts as 99 s."""
    times = []
    for _ in range(count):
        start = time.monotonic()
        try:
            status, _, body = box.request("GET", "/review", cookie=cookie)
            ok = status == 200 and "hola" in body
        except OSError:
            ok = False
        times.append(time.monotonic() - start if ok else 99.0)
        time.sleep(0.05)
    return sorted(times)


def percentile(times, fraction):
    return times[min(len(times) - 1, int(len(times) * fraction))]


def report(name, times):
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    print(f"{name}: p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")
    assert p99 < 1.0, (name, times)


def started(box):
    box.ok("add", "--id", "hola", "hola", "hello")
    box.start_web()
    return box.login()


def test_silent_and_idle_connections_leave_the_learner_in(web_box):
    cookie = started(web_box)
    held = []
    try:
        for _ in range(32):
            held.append(stranger_connection(web_box.port))
        time.sleep(1.5)
        report("32 silent", learner_latencies(web_box, cookie))
        for s in held:
            s.close()
        held = []
        request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{web_box.port}\r\n\r\n".encode()
        for _ in range(40):
            s = stranger_connection(web_box.port)
            s.sendall(request)
            assert s.recv(65536).startswith(b"HTTP/1.1 "), "an idle keep-alive connection got no answer"
            held.append(s)
        report("40 idle keep-alive", learner_latencies(web_box, cookie))
    finally:
        for s in held:
            s.close()


def test_a_slowloris_of_200_does_not_lock_the_learner_out(web_box):
    cookie = started(web_box)
    head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{web_box.port}\r\nX-Slow: {'a' * 200}\r\n\r\n".encode()
    stop = threading.Event()
    sockets = []

    def dribble():
        # 1 byte every 2 s on each of 200 connections, a new one for each that is closed.
        end = time.monotonic() + 40
        positions = {}
        while not stop.is_set() and time.monotonic() < end:
            while len(positions) < 200:
                try:
                    s = stranger_connection(web_box.port, timeout=5)
                except OSError:
                    break
                s.setblocking(False)
                sockets.append(s)
                positions[s] = 0
            for s in list(positions):
                try:
                    s.send(head[positions[s]:positions[s] + 1])
                    positions[s] = (positions[s] + 1) % (len(head) - 4)
                except OSError:
                    s.close()
                    del positions[s]
            stop.wait(2)

    thread = threading.Thread(target=dribble)
    thread.start()
    try:
        time.sleep(5)
        report("200 slowloris", learner_latencies(web_box, cookie))
    finally:
        stop.set()
        thread.join()
        for s in sockets:
            s.close()


def test_fifty_page_loads_at_once_are_all_served(web_box):
    cookie = started(web_box)
    for round_number in range(3):
        barrier = threading.Barrier(51)
        results = []

        def load():
            barrier.wait(10)
            try:
                status, _, body = web_box.request("GET", "/review", cookie=cookie)
                results.append(status == 200 and "hola" in body)
            except OSError as error:
                results.append(error)

        threads = [threading.Thread(target=load) for _ in range(50)]
        for t in threads:
            t.start()
        barrier.wait(10)
        start = time.monotonic()
        times = learner_latencies(web_box, cookie, count=5)
        for t in threads:
            t.join(30)
        assert results.count(True) == 50, (round_number, results)
        print(f"50 at once, round {round_number + 1}: all served in {time.monotonic() - start:.2f} s")
        report(f"50 at once, round {round_number + 1}", times)


def test_a_slow_reader_of_pipelined_requests_loses_its_connection(web_box):
    """The time limit is for a whole response (and its request), not for each send: a client that
    pipelines 6,000 `GET /` and reads a little every half second is closed once a response is
    not taken whole within 15 s of its request's arrival, not after the last send that failed."""
    web_box.start_web()
    request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{web_box.port}\r\n\r\n".encode()
    s = socket.create_connection(("127.0.0.1", web_box.port), timeout=10)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        s.setblocking(False)
        pending = request * 6000
        start = time.monotonic()
        closed_at = None
        poller = select.poll()
        poller.register(s, select.POLLRDHUP)
        while time.monotonic() - start < 45:
            if pending:
                try:
                    pending = pending[s.send(pending):]
                except BlockingIOError:
                    pass
            # Closed by the server, even with its last responses still unread here.
            if poller.poll(0) and poller.poll(0)[0][1] & (select.POLLRDHUP | select.POLLHUP | select.POLLERR):
                closed_at = time.monotonic()
                break
            try:
                s.recv(512)
            except (BlockingIOError, ConnectionResetError):
                pass
            time.sleep(0.5)
        assert closed_at is not None, "still open after 45 s"
        print(f"slow pipelining reader closed after {closed_at - start:.1f} s")
        assert closed_at - start < 18, closed_at - start
    finally:
        s.close()


def resident_kib(pid) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_bodies_at_the_limit_leave_the_memory_bounded(web_box):
    """Request bodies of 1 MiB (the limit), one alone and then 16 at once, sent in pieces as
    uploads come: the server's resident memory stays within a few MiB of where it was (the issue
    saw 94-113 MB; today's main already stays near 25 MB, so this guards against a return)."""
    cookie = started(web_box)
    learner_latencies(web_box, cookie, count=3)
    before = resident_kib(web_box.web.pid)

    def upload():
        with socket.create_connection(("127.0.0.1", web_box.port), timeout=20) as s:
            s.sendall(f"POST /cards/hola/edit HTTP/1.1\r\nHost: 127.0.0.1:{web_box.port}\r\n"
                      f"Content-Length: {1024 * 1024}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                      "Connection: close\r\n\r\n".encode())
            for _ in range(256):
                s.sendall(b"a" * 4096)
            while s.recv(65536):
                pass

    upload()
    alone = resident_kib(web_box.web.pid)
    threads = [threading.Thread(target=upload) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    time.sleep(0.5)
    after = resident_kib(web_box.web.pid)
    print(f"resident {before / 1024:.1f} MiB; after a 1 MiB body {alone / 1024:.1f} MiB; after 16 at once {after / 1024:.1f} MiB")
    assert alone - before < 4 * 1024 and after - before < 24 * 1024, (before, alone, after)


class Stranger:
    """One address on the network holding as many connections as it can, as an attacker would:
    `count` sockets from `STRANGER`, each opened again as soon as the server closes it, each
    sending `first` on connecting and then `dribble` (when not empty) a byte every second, for at
    most `seconds`. Counts what became of its connections."""

    def __init__(self, port, count, first=b"", dribble=b"", seconds=40):
        self.port, self.count, self.first, self.dribble, self.seconds = port, count, first, dribble, seconds
        self.stop = threading.Event()
        self.opened = self.refused = self.closed = 0
        self.sockets = {}
        self.thread = threading.Thread(target=self.run)

    def connect(self):
        s = stranger_connection(self.port, timeout=5)
        s.setblocking(False)
        if self.first:
            s.send(self.first)
        self.opened += 1
        return s

    def run(self):
        end = time.monotonic() + self.seconds
        while not self.stop.is_set() and time.monotonic() < end:
            while len(self.sockets) < self.count and not self.stop.is_set():
                try:
                    self.sockets[self.connect()] = 0
                except OSError:
                    break
            for s in list(self.sockets):
                try:
                    answer = s.recv(4096, socket.MSG_PEEK)
                    # Read what the server said: a 503 now, or nothing when it closed it.
                    self.refused += answer.startswith(b"HTTP/1.1 503")
                    self.closed += not answer.startswith(b"HTTP/1.1 503")
                    s.close()
                    del self.sockets[s]
                    continue
                except BlockingIOError:
                    pass
                except OSError:
                    self.closed += 1
                    s.close()
                    del self.sockets[s]
                    continue
                if self.dribble:
                    try:
                        s.send(self.dribble[self.sockets[s] % len(self.dribble):][:1])
                        self.sockets[s] += 1
                    except OSError:
                        pass
            self.stop.wait(0.5 if self.dribble == b"" else 1)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()
        for s in self.sockets:
            s.close()


def test_one_address_cannot_hold_every_connection(web_box):
    """A stranger's address holds at most its share of the 32 places (8): its 200 silent sockets
    take the places of its own idle ones, not of the learner's kept-alive connection, which
    serves every request of the run (on today's main it was closed, and the learner's new
    connections waited 2-4 s); 40 connections that each send a whole head announcing a 1 MiB
    body and then a byte a second (busy, never idle, until their 15 s are up) leave 24 places to
    the learner, whose new connections are served at once, while the stranger's other 32 wait
    unread and get 503 after 5 s."""
    cookie = started(web_box)
    keep = http.client.HTTPConnection("127.0.0.1", web_box.port, timeout=10)

    def on_kept_connection():
        keep.request("GET", "/review", headers={"Cookie": cookie})
        response = keep.getresponse()
        assert response.status == 200 and "hola" in response.read().decode()
        return keep.sock

    first_socket = on_kept_connection()
    with Stranger(web_box.port, 200) as silent:
        time.sleep(4)
        for _ in range(5):
            assert on_kept_connection() is first_socket, "the learner's kept-alive connection was closed"
            time.sleep(0.5)
        report("200 silent from one address", learner_latencies(web_box, cookie))
    print(f"  the stranger opened {silent.opened}: {silent.refused} refused with 503, {silent.closed} closed to make room")
    keep.close()
    head = (f"POST /cards/hola/edit HTTP/1.1\r\nHost: 127.0.0.1:{web_box.port}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {1024 * 1024}\r\n\r\n").encode()
    with Stranger(web_box.port, 40, first=head, dribble=b"a") as busy:
        time.sleep(3)
        report("40 busy bodies from one address", learner_latencies(web_box, cookie))
        # The stranger's 32 past its share have waited unread, and get 503 after 5 s.
        assert wait_until(lambda: busy.refused >= 32, timeout=6)
    print(f"  the stranger opened {busy.opened}: {busy.refused} refused with 503, {busy.closed} closed")
