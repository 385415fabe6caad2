"""A full disk (R17 durability, R18 atomicity, R21 damaged cards): Add on a store
with no space left gets io.leitner.Box.StoreFailure naming the path and "No space left on
device"; the daemon keeps serving; after a restart every acknowledged card is there and none is
half-written. The store is a 512 KiB tmpfs, so this runs as root (as CI does)."""
import os
import subprocess

import pytest

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import DEVICE, VarlinkError, add_text_card, all_card_ids

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")

@pytest.fixture
def small_store(root):  # noqa: F811
    store = root / "store"
    store.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", str(store)], check=True)
    try:
        yield store
    finally:
        subprocess.run(["umount", "-l", str(store)], check=True)


def card_files(store):
    """Every card directory's file names, by id (docs/store-format.md: one front, one back)."""
    return {card_id: sorted(p.name for p in (store / level / card_id).iterdir())
            for card_id, level in all_card_ids(store)}


def test_full_disk_is_a_clear_error_and_loses_nothing(make_daemon, small_store):  # noqa: F811
    daemon = make_daemon(store=small_store).start()
    for n in range(3):
        add_text_card(daemon, f"early {n}", "b", id=f"early{n}")
    assert daemon.call("Prepare")["test"]["remaining"] == 3
    acknowledged, failure = [], None
    filler = "x" * 3000  # about one page per side
    for n in range(1000):
        try:
            add_text_card(daemon, f"{n} {filler}", filler, id=f"card{n}")
        except VarlinkError as error:
            failure = error
            break
        acknowledged.append(f"card{n}")
    assert failure is not None, "512 KiB never filled up"
    assert acknowledged, "no card fitted at all"
    assert failure.name == "io.leitner.Box.StoreFailure", failure
    assert str(small_store) in failure.parameters["path"], failure.parameters
    assert "No space left on device" in failure.parameters["reason"], failure.parameters

    # Still serving: Status answers; Grade of a card in today's test succeeds or fails cleanly.
    assert "today" in daemon.call("Status")
    try:
        graded = daemon.call("Grade", id="early0", correct=True)["card"]
    except VarlinkError as error:
        assert error.name == "io.leitner.Box.StoreFailure", error
    else:
        assert graded["level"] == "2"  # R9
    assert "today" in daemon.call("Status")
    assert daemon.stop() == 0, daemon.log_text()

    # Restart on the same store, full to the last byte (the lock file's page too, freed at the
    # stop): it opens; nothing acknowledged is lost, nothing half-written.
    filler = small_store / ".leitner" / "e2e-filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"x" * 4096) > 0:
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    again = make_daemon(store=small_store).start()
    filler.unlink()
    ids = {card["id"] for card in again.call("List")["cards"]}
    assert set(acknowledged) | {"early0", "early1", "early2"} <= ids
    files = card_files(small_store)
    assert set(files) == ids
    for card_id, names in files.items():
        assert len(names) == 2 and {n.split(".")[0] for n in names} == {"front", "back"}, (card_id, names)
    problems = again.call("Doctor")["problems"]
    # No damaged card, lone half or stale temporary file; the full disk itself is reported (the
    # checkpoint after start-up could not be written: the journal keeps the changes meanwhile).
    checkpoint = f"/.leitner/local.{DEVICE}/checkpoint"
    assert [p for p in problems if not p["path"].endswith(checkpoint)] == [], problems
    assert again.stop() == 0, again.log_text()
