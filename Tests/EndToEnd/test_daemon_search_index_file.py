"""The search index kept on disk between daemons (`.leitner/local.DEVICE/search-index`,
docs/performance.md, "The first search"): a daemon started on a store takes from it only the
cards whose files' stamps still hold, so a card edited, moved or removed by hand while no daemon
ran is found as it is now, and a damaged file is never used (R13)."""
import time

from daemon_fixtures import make_daemon, root  # noqa: F401  (pytest fixtures)
from daemon_support import make_store_cards

CARDS = 30


def ids(matches):
    return sorted({m["id"] for m in matches})


def search(daemon, pattern, **extra):
    return daemon.call("Search", pattern=pattern, fields=["id", "front", "back"], **extra)["matches"]


def index_file(store):
    found = list((store / ".leitner").glob("local.*/search-index"))
    return found[0] if found else None


def wait_for_index_file(store, other_than=-1):
    """The file once it is there, of another size than `other_than`."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        path = index_file(store)
        if path is not None and path.stat().st_size != other_than:
            return path
        time.sleep(0.05)
    raise AssertionError("the daemon wrote no search index file")


def test_a_card_edited_moved_or_removed_while_the_daemon_is_stopped_is_searched_as_it_is(make_daemon, root):  # noqa: F811
    store = root / "store"
    every = [f"card-{i:02d}" for i in range(CARDS)]
    make_store_cards(store, "1", every)
    # The cards' files older than the kernel clock's tick: their stamps are kept.
    time.sleep(1.1)
    daemon = make_daemon(store=store).start()
    assert ids(search(daemon, "front of")) == every
    wait_for_index_file(store)
    assert daemon.stop() == 0

    # While stopped: a side rewritten in place with the same length, a side renamed over, a
    # card moved to level 3, one removed.
    (store / "1" / "card-03" / "back.txt").write_text("zebra of card-03")
    (store / "1" / "card-04" / ".front.txt.tmp").write_text("okapi of card-04")
    (store / "1" / "card-04" / ".front.txt.tmp").rename(store / "1" / "card-04" / "front.txt")
    (store / "3").mkdir(exist_ok=True)
    (store / "1" / "card-05").rename(store / "3" / "card-05")
    for name in ["front.txt", "back.txt"]:
        (store / "1" / "card-07" / name).unlink()
    (store / "1" / "card-07").rmdir()

    daemon = make_daemon(store=store).start()
    assert ids(search(daemon, "zebra")) == ["card-03"]
    assert ids(search(daemon, "back of card-03")) == []
    assert ids(search(daemon, "okapi")) == ["card-04"]
    assert ids(search(daemon, "front of card-04")) == []
    moved = search(daemon, "card-05")
    assert moved and {m["level"] for m in moved} == {"3"}
    assert "card-07" not in ids(search(daemon, "of"))
    assert len(ids(search(daemon, "of"))) == CARDS - 1
    # Edited while running, after the start: found by its watch or its stamp.
    (store / "1" / "card-09" / "back.txt").write_text("lynx of card-09")
    assert ids(search(daemon, "lynx")) == ["card-09"]
    assert daemon.stop() == 0

    # A damaged file (cut short) is not used: every card is read, and the answers stay right.
    path = index_file(store)
    whole = path.stat().st_size
    path.write_bytes(path.read_bytes()[: whole // 2])
    (store / "1" / "card-11" / "back.txt").write_text("kudu of card-11")
    daemon = make_daemon(store=store).start()
    assert ids(search(daemon, "kudu")) == ["card-11"]
    assert ids(search(daemon, "lynx")) == ["card-09"]
    assert len(ids(search(daemon, "of"))) == CARDS - 1
    # Written anew, whole, by that daemon's build.
    assert wait_for_index_file(store, other_than=whole // 2).stat().st_size >= whole - 100


def test_a_store_searched_before_has_its_index_built_as_the_daemon_starts(make_daemon, root):  # noqa: F811
    """docs/daemon.md, "Indexes built off the turn": with the index's file there, the daemon
    begins the build once ready, before any search, and writes the file again when it read a
    card edited while it was stopped; a store never searched is not read for it."""
    store = root / "store"
    every = [f"card-{i:02d}" for i in range(CARDS)]
    make_store_cards(store, "1", every)
    time.sleep(1.1)
    daemon = make_daemon(store=store).start()
    daemon.call("Status")
    assert daemon.stop() == 0
    assert index_file(store) is None

    daemon = make_daemon(store=store).start()
    assert ids(search(daemon, "front of")) == every
    size = wait_for_index_file(store).stat().st_size
    assert daemon.stop() == 0

    (store / "1" / "card-03" / "back.txt").write_text("zebra of card-03")
    daemon = make_daemon(store=store).start()
    # No search: the build begun at the start read card-03 again and wrote the file.
    wait_for_index_file(store, other_than=size)
    assert ids(search(daemon, "zebra")) == ["card-03"]
    assert daemon.stop() == 0
