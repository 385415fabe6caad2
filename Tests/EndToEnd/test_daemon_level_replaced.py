"""A level directory replaced while the daemon runs (docs/store-format.md, "Choices"): by a file,
a link, or removed. The daemon never crashes, never uses the closed directory, refuses that level
with StoreFailure naming it until it is a directory again, changes nothing for a refused request,
and stops cleanly; at a restart a level that is not a directory is refused with its path."""
import os
import shutil
import signal

import pytest

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import VarlinkError, add_text_card, all_card_ids, log_file


def log_text(store):
    return log_file(store).read_text()


@pytest.mark.parametrize("replacement", ["file", "link"])
def test_a_replaced_level_is_refused_and_the_daemon_goes_on(make_daemon, root, replacement):  # noqa: F811
    daemon = make_daemon().start()
    store = daemon.store
    for n in range(3):
        add_text_card(daemon, f"front {n}", f"back {n}", id=f"c{n}")
    os.rename(store / "7", root / "seven-away")
    if replacement == "file":
        (store / "7").write_text("x")
    else:
        os.symlink(root / "seven-away", store / "7")
    status = daemon.call("Status")
    assert status["counts"]["1"] == 3
    log = log_text(store)
    with pytest.raises(VarlinkError) as failure:
        daemon.call("Move", id="c0", level="7")
    assert failure.value.name == "io.leitner.Box.StoreFailure"
    assert failure.value.parameters["path"] == str(store / "7")
    assert log_text(store) == log, "no line for the refused move"
    assert sorted(all_card_ids(store)) == [("c0", "1"), ("c1", "1"), ("c2", "1")]
    # The descriptor the old level had may be reused by the next directory the daemon opens:
    # `finished`, removed by hand and made again. Nothing meant for level 7 may land there.
    os.rmdir(store / "finished")
    daemon.call("Status")
    with pytest.raises(VarlinkError):
        daemon.call("Move", id="c1", level="7")
    assert daemon.call("Move", id="c1", level="finished")["card"]["level"] == "finished"
    assert sorted(all_card_ids(store)) == [("c0", "1"), ("c1", "finished"), ("c2", "1")]
    assert any(p["path"] == str(store / "7") for p in daemon.call("Doctor")["problems"])
    # SIGTERM: the checkpoint syncs the other levels and the daemon exits cleanly.
    assert daemon.stop() == 0, daemon.log_text()
    # A restart with the level still replaced is refused, naming it.
    daemon.start(wait=False)
    assert daemon.process.wait(20) != 0
    assert str(store / "7") in daemon.log_text()
    # Put back: everything is there, and level 7 takes cards again.
    os.remove(store / "7")
    os.rename(root / "seven-away", store / "7")
    daemon.start()
    assert daemon.call("Move", id="c0", level="7")["card"]["level"] == "7"
    assert sorted(all_card_ids(store)) == [("c0", "7"), ("c1", "finished"), ("c2", "1")]


def test_a_level_put_back_while_running_is_taken_back(make_daemon, root):  # noqa: F811
    daemon = make_daemon().start()
    store = daemon.store
    add_text_card(daemon, "front", "back", id="k")
    daemon.call("Move", id="k", level="3")
    os.rename(store / "3", root / "three-away")
    (store / "3").write_text("x")
    assert daemon.call("Status")["counts"]["3"] == 0, "its cards are not in the store meanwhile"
    with pytest.raises(VarlinkError):
        daemon.call("Show", id="k")
    os.remove(store / "3")
    os.rename(root / "three-away", store / "3")
    assert daemon.call("Show", id="k")["card"]["level"] == "3"
    assert daemon.call("Move", id="k", level="4")["card"]["level"] == "4"
    daemon.signal(signal.SIGTERM)
    assert daemon.process.wait(20) == 0
