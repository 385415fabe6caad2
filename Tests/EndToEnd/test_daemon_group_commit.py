"""Group commit (docs/daemon.md, "Group commit"): grades from concurrent clients share the
journal's flushes, and each reply still comes after its own change is on disk and in place (R17).
The flushes are counted with `perf stat` on the daemon's fdatasync tracepoint (strace would
serialize the daemon's threads): fewer `fdatasync` calls than grades."""
import multiprocessing
import os
import shutil
import signal
import subprocess
import time

import pytest

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import Connection, log_file, make_store_cards

CLIENTS = 8
GRADES_EACH = 40


def grade(socket_path, mine):
    """One client in a process of its own: grades its cards; returns what went wrong, if anything."""
    try:
        with Connection(socket_path) as c:
            for card_id in mine:
                card = c.call("Grade", id=card_id, correct=True)["card"]
                # R17: the reply's path is there at once, in the level it names.
                if card["level"] != "2" or not os.path.exists(card["front"]["path"]):
                    return f"{card_id}: {card}"
    except Exception as error:  # noqa: BLE001 (reported by the test)
        return f"{error!r}"
    return None


def perf_counts_fdatasync() -> bool:
    if shutil.which("perf") is None:
        return False
    probe = subprocess.run(["perf", "stat", "-x,", "-e", "syscalls:sys_enter_fdatasync", "--", "true"],
                           capture_output=True, text=True)
    return probe.returncode == 0 and "sys_enter_fdatasync" in probe.stderr


def perf_attached(pid) -> bool:
    """Whether perf holds a counter: its descriptor's link is `anon_inode:[perf_event]`."""
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:[perf_event]" for fd in os.listdir(f"/proc/{pid}/fd"))
    except FileNotFoundError:  # a descriptor closed between the listing and the read
        return False


@pytest.mark.skipif(not perf_counts_fdatasync(), reason="perf cannot count the fdatasync tracepoint here")
def test_concurrent_grades_share_flushes_and_each_reply_finds_its_card_in_place(make_daemon, root):  # noqa: F811
    store = root / "store"
    ids = [f"c{n:04d}" for n in range(CLIENTS * GRADES_EACH)]
    make_store_cards(store, "1", ids)
    trace = root / "fdatasync.csv"
    daemon = make_daemon().start()
    with daemon.connect() as c:
        assert c.call("Prepare")["test"]["remaining"] == len(ids)
    counter = subprocess.Popen(["perf", "stat", "-x,", "-o", str(trace), "-e", "syscalls:sys_enter_fdatasync",
                                "-p", str(daemon.process.pid)])
    # The grades begin once perf holds its counters (a counter perf opens is an anon inode among
    # its descriptors), not after a time: a perf slow to start on a loaded machine counted the
    # flushes of only the last grades, or none.
    deadline = time.monotonic() + 30
    while not perf_attached(counter.pid):
        assert counter.poll() is None and time.monotonic() < deadline, "perf did not attach to the daemon"
        time.sleep(0.01)
    with multiprocessing.Pool(CLIENTS) as pool:
        failures = [f for f in pool.starmap(grade, [(str(daemon.socket), ids[n::CLIENTS]) for n in range(CLIENTS)]) if f]
    assert failures == []
    counter.send_signal(signal.SIGINT)
    counter.wait(10)
    counts = [line.split(",") for line in trace.read_text().splitlines() if "sys_enter_fdatasync" in line]
    flushes = int(counts[0][0])
    grades = len(ids)
    assert sorted(os.listdir(store / "2")) == ids
    # One flush a grade without group commit; shared, there are clearly fewer.
    assert 0 < flushes < grades * 0.8, f"{flushes} flushes for {grades} grades"
    assert daemon.stop() == 0
    log = log_file(store).read_text().splitlines()
    assert sum(1 for line in log if line.split("\t")[1] == "grade") == grades
