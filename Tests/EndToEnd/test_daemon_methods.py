"""Every method of io.leitner.Box and every error, through the daemon (docs/protocol.md)."""
import base64
import errno
import os
import subprocess

import pytest

from daemon_fixtures import daemon, make_daemon, root  # noqa: F401 (fixtures)
from daemon_support import VarlinkError, add_text_card

LEVELS = ["1", "2", "3", "4", "5", "6", "7", "finished"]


def error_of(callable_, *args, **kwargs):
    with pytest.raises(VarlinkError) as caught:
        callable_(*args, **kwargs)
    return caught.value


def test_status_of_an_empty_store(daemon):
    status = daemon.call("Status")
    # Every level, and the places beside them (R23, R24).
    assert status["counts"] == {level: 0 for level in LEVELS + ["new", "suspended"]}
    assert status["test"]["date"] == status["today"]
    assert status["test"]["levels"]


def test_add_show_list_move_delete(daemon):
    card = add_text_card(daemon, "hola", "hello", id="hola")
    assert card["id"] == "hola" and card["level"] == "1"                  # R1
    assert card["front"]["mediaType"] == "text/plain"
    assert os.path.isfile(card["front"]["path"])
    assert daemon.call("Show", id="hola")["card"]["front"]["text"] == "hola"
    moved = daemon.call("Move", id="hola", level="4")["card"]
    assert moved["level"] == "4"                                           # R12
    assert [c["id"] for c in daemon.call("List", level="4")["cards"]] == ["hola"]
    assert daemon.call("List")["cards"][0]["front"]["text"] is None
    assert daemon.call("List", withText=True)["cards"][0]["front"]["text"] == "hola"
    assert daemon.call("Status")["counts"]["4"] == 1
    assert daemon.call("Delete", id="hola") == {}
    assert daemon.call("List")["cards"] == []


def test_add_binary_asset_and_read_it_back(daemon):
    png = bytes(range(256)) * 4
    card = daemon.call("Add", front={"name": "front.png", "data": base64.b64encode(png).decode()},
                       back={"name": "back.md", "text": "# a picture"}, id="pic", level="3")["card"]
    assert card["level"] == "3"
    assert card["front"]["mediaType"] == "image/png"
    asset = daemon.call("ReadAsset", id="pic", side="front")
    assert asset["name"].endswith(".png")
    assert base64.b64decode(asset["data"]) == png
    back = daemon.call("ReadAsset", id="pic", side="back")
    assert base64.b64decode(back["data"]) == b"# a picture"


def test_errors_of_cards(daemon):
    add_text_card(daemon, "uno", "one", id="uno")
    e = error_of(daemon.call, "Show", id="nope")
    assert (e.name, e.parameters) == ("io.leitner.Box.NoSuchCard", {"id": "nope"})
    e = error_of(add_text_card, daemon, "x", "y", id="../evil")
    assert e.name == "io.leitner.Box.InvalidCardId" and e.parameters["id"] == "../evil" and e.parameters["reason"]
    e = error_of(daemon.call, "Move", id="uno", level="8")
    assert (e.name, e.parameters) == ("io.leitner.Box.InvalidLevel", {"level": "8"})
    e = error_of(add_text_card, daemon, "x", "y", id="uno")
    assert (e.name, e.parameters) == ("io.leitner.Box.CardExists", {"id": "uno"})
    e = error_of(daemon.call, "Add", front={"name": "front.txt"}, back={"name": "back.txt", "text": "b"})
    assert (e.name, e.parameters) == ("org.varlink.service.InvalidParameter", {"parameter": "front.text"})
    e = error_of(daemon.call, "Add", front={"name": "noextension", "text": "x"}, back={"name": "back.txt", "text": "b"})
    assert e.name == "io.leitner.Box.InvalidAsset" and e.parameters["name"] == "noextension"
    e = error_of(daemon.call, "Delete", id="nope")
    assert e.name == "io.leitner.Box.NoSuchCard"
    e = error_of(daemon.call, "ReadAsset", id="nope", side="front")
    assert e.name == "io.leitner.Box.NoSuchCard"
    assert daemon.call("Show", id="uno")["card"]["level"] == "1"           # nothing changed


def test_duplicate_front_is_refused_only_when_asked(daemon):
    add_text_card(daemon, "same", "a", id="first")
    e = error_of(add_text_card, daemon, "same", "b", id="second", allowDuplicate=False)
    assert (e.name, e.parameters) == ("io.leitner.Box.DuplicateFront", {"id": "first"})
    assert add_text_card(daemon, "same", "c", id="third")["id"] == "third"


def test_a_whole_test_prepare_next_grade_undo_complete(daemon):
    for i in range(3):
        add_text_card(daemon, f"f{i}", f"b{i}", id=f"c{i}")
    test = daemon.call("Prepare")["test"]
    assert test["state"] == "open" and test["remaining"] == 3 and "1" in test["levels"]
    assert daemon.call("Prepare")["test"] == test                          # changes nothing
    e = error_of(daemon.call, "Undo")
    assert e.name == "io.leitner.Box.NothingToUndo"
    first = daemon.call("Next")["card"]
    graded = daemon.call("Grade", id=first["id"], correct=False, answerMs=1200)
    assert graded["card"]["level"] == "1" and graded["test"]["failed"] == 1  # R9
    undone = daemon.call("Undo")
    assert undone["card"]["id"] == first["id"] and undone["test"]["failed"] == 0  # R15
    while True:
        nxt = daemon.call("Next")
        if nxt["card"] is None:
            break
        result = daemon.call("Grade", id=nxt["card"]["id"], correct=True)
        assert result["card"]["level"] == "2"
    assert nxt["test"]["state"] == "completed"                             # R10
    e = error_of(daemon.call, "Grade", id="c0", correct=True)
    assert e.name == "io.leitner.Box.TestComplete"
    assert daemon.call("Status")["test"]["state"] == "completed"


def test_grade_of_a_card_not_in_the_test(daemon):
    add_text_card(daemon, "a", "b", id="in1")
    add_text_card(daemon, "c", "d", id="far", level="finished")
    daemon.call("Prepare")
    e = error_of(daemon.call, "Grade", id="far", correct=True)
    assert (e.name, e.parameters) == ("io.leitner.Box.NotInTest", {"id": "far"})


def test_calendar_and_log(daemon):
    add_text_card(daemon, "a", "b", id="one")
    today = daemon.call("Status")["today"]
    days = daemon.call("Calendar", **{"from": today, "to": today})["days"]
    assert len(days) == 1 and days[0]["date"] == today and days[0]["state"] == "today"
    entries = daemon.call("Log")["entries"]
    assert [(e["event"], e["id"], e["to"]) for e in entries] == [("add", "one", "1")]   # R16
    assert daemon.call("Log", since=today, limit=1)["entries"][0]["event"] == "add"


def test_doctor_reports_a_damaged_card(daemon):
    damaged = daemon.store / "2" / "broken"
    damaged.mkdir(parents=True)
    (damaged / "front.txt").write_text("only a front")
    problems = daemon.call("Doctor")["problems"]
    assert any(p["kind"] == "damagedCard" and p["path"].endswith("broken") for p in problems)
    assert damaged.exists()                                                # R21: never deleted


def test_store_failure_is_reported_not_fatal(make_daemon, root):
    """A store the daemon cannot write to: chmod for a normal user. Root writes through
    permissions, so there the store is a small tmpfs of its own that the test fills up under the
    running daemon (a read-only remount is refused while the daemon holds files open for
    writing; test_daemon_full_disk.py fills it with cards instead)."""
    as_root = os.geteuid() == 0
    store = root / "store"
    if as_root:
        store.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(store)], check=True)
    try:
        daemon = make_daemon().start()
        add_text_card(daemon, "a", "b", id="one")
        if as_root:
            with open(store / "filler", "wb", buffering=0) as filler:
                try:
                    while True:
                        filler.write(bytes(4096))
                except OSError as error:
                    assert error.errno == errno.ENOSPC, error
        else:
            os.chmod(store / "1", 0o500)
        try:
            e = error_of(add_text_card, daemon, "x", "y", id="two")
            assert e.name == "io.leitner.Box.StoreFailure" and str(store) in e.parameters["path"], e
            assert "today" in daemon.call("Status")
        finally:
            if as_root:
                (store / "filler").unlink()
            else:
                os.chmod(store / "1", 0o755)
        assert "today" in daemon.call("Status")
        assert [c["id"] for c in daemon.call("List")["cards"]] == ["one"]
        assert daemon.stop() == 0
    finally:
        if as_root:
            subprocess.run(["umount", "-l", str(store)], check=True)
