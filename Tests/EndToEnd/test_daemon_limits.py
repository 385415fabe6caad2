"""Connections and memory stay bounded (docs/daemon.md, "Connections" and
"Memory"): idle connections make room for new ones, a client refused at the limit is told why,
a client that trickles its message is closed, sixty long messages at once stay within the memory
budget, a stuck call or a stuck client does not stop the others or the shutdown, and a failed
reopen on SIGHUP stops the daemon."""
import base64
import json
import os
import pathlib
import signal
import socket
import threading
import time

import pytest

from daemon_fixtures import daemon, make_daemon, root  # noqa: F401 (fixtures)
from daemon_support import Connection, VarlinkError, add_text_card
from ext4_store import ext4_store  # noqa: F401 (fixture)

BOX = "io.leitner.Box"
MIB = 1 << 20
# Server.stopLimit and BoxOwner.waitLimit (docs/daemon.md), and what a slow machine may add.
STOP_LIMIT = 5.0
WAIT_LIMIT = 5.0
MARGIN = 2.5


def vm_kib(pid, field):
    """A field of /proc/PID/status in KiB: VmHWM (peak resident), VmRSS."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def test_idle_connections_make_room_for_new_ones(daemon):
    """72 idle connections, more than MaxConnections=64: the oldest are closed, each told why,
    and a normal client is served."""
    idle = [daemon.served_connection() for _ in range(72)]
    try:
        assert "today" in daemon.call("Status")
        # The nine idle the longest made room for the last eight and for that client.
        for c in idle[:9]:
            reply = c.receive()
            assert reply["error"] == f"{BOX}.ConnectionClosed"
            assert "make room" in reply["parameters"]["reason"]
            assert c.at_eof()
        for c in idle[9:]:
            assert c.call("org.varlink.service.GetInfo")["product"] == "leitnerd"
    finally:
        for c in idle:
            c.close()
    assert "closed to make room for a new connection (MaxConnections=64)" in daemon.log_text()


def test_a_client_refused_at_the_limit_reads_why_before_the_close(make_daemon):
    d = make_daemon(config="[Daemon]\nMaxConnections=2\n").start()
    with d.served_connection() as a, d.served_connection() as b:
        # Both have a message in flight: neither may be closed to make room.
        a.send_raw(b'{"method": "io.leitner.Box.Sta')
        b.send_raw(b'{"method": "org.varlink.service.Get')
        assert a.read_by_the_daemon() and b.read_by_the_daemon()
        with d.connect() as refused:
            reply = refused.receive()
            assert reply == {"error": f"{BOX}.TooManyConnections", "parameters": {"limit": 2}}
            assert refused.at_eof()
        a.send_raw(b'tus"}\0')
        assert "today" in a.receive()["parameters"]
        b.send_raw(b'Info"}\0')
        assert b.receive()["parameters"]["product"] == "leitnerd"
    assert "none idle (MaxConnections=)" in d.log_text()


def test_a_trickling_client_is_closed(make_daemon):
    """IdleTimeout= bounds the whole message, not the gap between two bytes."""
    d = make_daemon(config="[Daemon]\nIdleTimeout=1s\n").start()
    message = b'{"method": "io.leitner.Box.Status", "parameters": {"x": "' + b"y" * 200 + b'"}}\0'
    with d.connect() as trickler:
        started = time.monotonic()
        closed_after = None
        for byte in message:
            try:
                trickler.send_raw(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed_after = time.monotonic() - started
                break
            time.sleep(0.05)                         # 20 bytes a second: never 1 s without a byte
        assert closed_after is not None and closed_after < 1 + MARGIN
        assert "today" in d.call("Status")
    assert "message not complete within 1 s (IdleTimeout=)" in d.log_text()


def test_sixty_long_messages_at_once_stay_within_the_memory_budget(daemon):
    """Sixty messages just under the 16 MiB limit, all at once: peak RSS stays under 64 MiB, every
    one is answered, health probes go on, and the memory is given back afterwards."""
    head = b'{"method": "io.leitner.Box.Status", "parameters": {"x": "'
    tail = b'"}}\0'
    message = head + b"a" * (16 * MIB - 64 - len(head) - len(tail)) + tail
    assert 16 * MIB - 100 < len(message) < 16 * MIB
    senders = [daemon.connect(timeout=120) for _ in range(60)]
    replies = [None] * len(senders)

    def send(i):
        try:
            senders[i].send_raw(message)
            replies[i] = senders[i].receive()
        except Exception as e:  # noqa: BLE001 (checked below)
            replies[i] = repr(e)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(senders))]
    for t in threads:
        t.start()
    slowest_probe = 0.0
    while any(t.is_alive() for t in threads):
        started = time.monotonic()
        with daemon.connect(timeout=10) as probe:
            assert "today" in probe.call("Status")
        slowest_probe = max(slowest_probe, time.monotonic() - started)
        time.sleep(0.1)
    for t in threads:
        t.join()
    for c in senders:
        c.close()
    assert all(isinstance(r, dict) and r.get("error") == "org.varlink.service.InvalidParameter"
               and r["parameters"]["parameter"] == "x" for r in replies), replies
    peak = vm_kib(daemon.process.pid, "VmHWM")
    time.sleep(1)
    after = vm_kib(daemon.process.pid, "VmRSS")
    print(f"sixty messages: peak RSS {peak} KiB, RSS 1 s later {after} KiB, "
          f"slowest probe {slowest_probe:.3f} s")
    assert peak <= 64 * 1024, f"peak RSS {peak} KiB"
    assert slowest_probe < 2.0
    assert after < 32 * 1024, f"RSS 1 s later {after} KiB"
    assert "today" in daemon.call("Status")


def reply_begun(client: socket.socket) -> bool:
    """Whether bytes wait unread on `client` (read nothing)."""
    try:
        return client.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return False


def test_sigterm_with_a_client_not_taking_its_reply(make_daemon):
    """A client that never reads its (large) reply holds its connection at most until the end of
    the shutdown's bound; idle clients are told the daemon is stopping."""
    d = make_daemon().start()
    data = base64.b64encode(os.urandom(3 * MIB)).decode()
    d.call("Add", front={"name": "front.png", "data": data}, back={"name": "back.txt", "text": "b"}, id="big")
    stuck = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(str(d.socket))
    stuck.sendall(json.dumps({"method": f"{BOX}.ReadAsset", "parameters": {"id": "big", "side": "front"}}).encode()
                  + b"\0")
    idle = d.served_connection()
    # The reply's first bytes have come: the daemon is writing it, and waits for the client to
    # read the rest (its 4 MiB are far more than the buffers hold).
    deadline = time.monotonic() + 30
    while not reply_begun(stuck):
        assert time.monotonic() < deadline, "the daemon never began the reply"
        time.sleep(0.05)
    started = time.monotonic()
    d.signal(signal.SIGTERM)
    assert d.process.wait(STOP_LIMIT + MARGIN + 5) == 0
    assert time.monotonic() - started < STOP_LIMIT + MARGIN
    reply = idle.receive()
    assert reply["error"] == f"{BOX}.ConnectionClosed" and reply["parameters"]["reason"] == "the daemon is stopping"
    idle.close()
    stuck.close()
    assert "reply not taken by the end of the shutdown" in d.log_text()
    assert "stopped" in d.log_text()


def test_a_call_stuck_in_the_kernel_costs_the_others_a_bounded_wait(make_daemon, ext4_store):
    """While one call is stuck in the kernel holding the box (an Add writing to a frozen file
    system, as on a hung disk): GetInfo is answered at once, Status within BoxOwner.waitLimit with
    a "busy" StoreFailure, and SIGTERM still ends the daemon's work within the bound (exit status
    1: the box could not be closed)."""
    d = make_daemon(store=ext4_store.path).start()
    add_text_card(d, "front", "back", id="before")
    ext4_store.freeze()
    stuck = d.connect(timeout=1.0)
    stuck.send({"method": f"{BOX}.Add", "parameters": {"front": {"name": "front.txt", "text": "stuck"},
                                                        "back": {"name": "back.txt", "text": "card"}}})
    with pytest.raises(TimeoutError):
        stuck.receive()
    started = time.monotonic()
    assert d.call("org.varlink.service.GetInfo")["product"] == "leitnerd"
    assert time.monotonic() - started < 1.0
    started = time.monotonic()
    with pytest.raises(VarlinkError) as refused:
        d.call("Status")
    waited = time.monotonic() - started
    assert WAIT_LIMIT - 0.5 < waited < WAIT_LIMIT + MARGIN
    assert refused.value.name == f"{BOX}.StoreFailure"
    assert "the store is busy" in refused.value.parameters["reason"]
    started = time.monotonic()
    d.signal(signal.SIGTERM)
    # The stuck thread stays in the kernel until the thaw, and the process with it; the daemon's
    # own work ends within the bound, and says so.
    while "stopped (exit status 1)" not in d.log_text():
        assert time.monotonic() - started < STOP_LIMIT + MARGIN, d.log_text()
        time.sleep(0.05)
    assert "exiting without closing it" in d.log_text()
    ext4_store.thaw()
    assert d.process.wait(10) == 1
    stuck.close()


def test_a_store_that_cannot_be_reopened_on_sighup_stops_the_daemon(make_daemon, root):
    """A changed schedule reopens the box; when neither the new nor the old options open it, the
    daemon exits with the reason instead of answering every call "stopping"."""
    d = make_daemon(config="[Schedule]\nOnFail=first\n").start()
    (root / "store").rename(root / "away")
    (root / "store").write_text("not a store\n")
    d.config_path.write_text("[Schedule]\nOnFail=previous\n")
    d.signal(signal.SIGHUP)
    assert d.process.wait(20) == 1
    log = d.log_text()
    assert "SIGHUP: cannot reopen the store" in log
    assert "stopped (exit status 1)" in log


def test_accepting_pauses_when_descriptors_run_out(make_daemon):
    """EMFILE: the daemon stops polling the listener for a moment instead of spinning on it (or
    sleeping), serves the connections it has, and accepts the waiting ones once descriptors are
    free again."""
    d = make_daemon(prefix=["prlimit", "--nofile=40", "--"]).start()
    served, waiting = [], None
    for _ in range(40):
        # Long enough that a call served on a loaded machine is not taken for one the kernel
        # queued (which would leave the pause unlogged); only the queued one waits it out.
        c = d.connect(timeout=3.0)
        try:
            c.call("org.varlink.service.GetInfo")
            served.append(c)
        except TimeoutError:
            waiting = c                          # queued by the kernel: the daemon cannot take it now
            break
        except (EOFError, ConnectionError):
            c.close()                            # accepted, but no descriptor left for its doorbell
    assert waiting is not None and len(served) >= 2, len(served)
    waiting.sock.settimeout(10)
    cpu_before = cpu_seconds(d.process.pid)
    time.sleep(1.0)
    assert cpu_seconds(d.process.pid) - cpu_before < 0.3    # no spinning on a readable listener
    assert "today" in served[0].call("Status")
    for c in served[1:]:
        c.close()
    assert waiting.receive()["parameters"]["product"] == "leitnerd"
    waiting.close()
    served[0].close()
    assert "pausing accepts for 100 ms" in d.log_text()


def cpu_seconds(pid) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
