"""The daemon when inotify watches run out (`fs.inotify.max_user_watches`: 8,192 on kernels
before 5.11, shared with every program of the user, a sync tool's watcher among them): it holds
at most `WatchLimit=` of them (three quarters of the kernel's by default), says once in its log
that they ran out, and still finds every hand edit of a card it could not watch (R13), by the
files' times (docs/performance.md, "Watches")."""
import os
import subprocess
import time

import pytest

from daemon_fixtures import make_daemon, root  # noqa: F401  (pytest fixtures)

CARDS = 40
# The store's root and its ten places, then five card directories.
LIMIT = 11 + 5


def build_store(store, cards=CARDS):
    for level in ["1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"]:
        (store / level).mkdir(parents=True, exist_ok=True)
    for index in range(cards):
        directory = store / "1" / f"card-{index:02d}"
        directory.mkdir()
        (directory / "front.txt").write_text(f"front {index}")
        (directory / "back.txt").write_text(f"back {index}")


def inotify_watches(pid):
    """The watches the process holds, from the kernel's list of each inotify descriptor."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fdinfo"):
        try:
            with open(f"/proc/{pid}/fdinfo/{fd}") as info:
                count += sum(1 for line in info if line.startswith("inotify wd:"))
        except FileNotFoundError:
            pass
    return count


def ids(matches):
    return sorted({m["id"] for m in matches})


def test_past_its_watch_limit_the_daemon_says_so_once_and_finds_hand_edits(make_daemon, root):  # noqa: F811
    store = root / "store"
    build_store(store)
    daemon = make_daemon(store=store, config=f"[Daemon]\nWatchLimit={LIMIT}\n").start()
    every = [f"card-{i:02d}" for i in range(CARDS)]
    assert ids(daemon.call("Search", pattern="front", fields=["front"])["matches"]) == every
    assert daemon.call("Tags")["tags"] == []
    assert inotify_watches(daemon.process.pid) == LIMIT
    # The stamps the daemon takes of the unwatched cards are trusted once older than the
    # kernel clock's tick; past it, a hand edit is found by the files' times alone.
    time.sleep(1.1)
    daemon.call("Search", pattern="front", fields=["front"])
    time.sleep(1.1)
    for index in range(0, CARDS, 3):
        (store / "1" / f"card-{index:02d}" / "back.txt").write_text(f"zebra {index}")
    (store / "1" / "card-37" / "tags").write_text("hand\n")
    found = daemon.call("Search", pattern="zebra", fields=["back"])["matches"]
    assert ids(found) == [f"card-{i:02d}" for i in range(0, CARDS, 3)]
    assert daemon.call("Tags")["tags"] == [{"tag": "hand", "cards": 1}]
    assert inotify_watches(daemon.process.pid) == LIMIT
    log = daemon.log_text()
    assert log.count("inotify watches ran out") == 1, log
    assert f"WatchLimit= is {LIMIT}" in log


def user_namespaces():
    return subprocess.run(["unshare", "-Ur", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not user_namespaces(), reason="no user namespaces (unshare -Ur) to lower the watch limit in")
def test_under_the_kernels_limit_the_daemon_leaves_a_quarter_to_the_users_other_programs(make_daemon, root):  # noqa: F811
    # The kernel's limit lowered to 60 for a user namespace of the daemon's own (as
    # `max_user_watches` is 8,192 on kernels before 5.11), the user's real limit untouched: the
    # daemon takes three quarters, 45, and says so once, where it took all 60 before.
    store = root / "store"
    build_store(store, cards=100)
    lower = 'echo 60 > /proc/sys/user/max_inotify_watches && exec "$@"'
    daemon = make_daemon(store=store, prefix=["unshare", "-Ur", "sh", "-c", lower, "sh"]).start()
    assert len(daemon.call("Search", pattern="front", fields=["front"])["matches"]) == 100
    assert daemon.call("Tags")["tags"] == []
    assert inotify_watches(daemon.process.pid) == 45
    (store / "1" / "card-99" / "back.txt").write_text("zebra")
    assert ids(daemon.call("Search", pattern="zebra", fields=["back"])["matches"]) == ["card-99"]
    log = daemon.log_text()
    assert log.count("inotify watches ran out") == 1, log
    assert "the box takes at most three quarters of it, 45" in log
