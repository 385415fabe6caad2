"""What sync tools leave in a store, with the real daemon (docs/sync.md): a conflict copy beside
a side leaves the card whole and is reported by status and doctor, and `leitnerctl doctor
--resolve` keeps one side; temporaries in a level directory are no invalid id; a card that
Syncthing moves (new folder first, old one removed later) never leaves `list` (docs/rules.md,
R13); and a conflict copy made by the real `unison` is recognised."""
import json
import os
import shutil
import subprocess

import pytest

from cli_box import box  # noqa: F401  (fixture)
from daemon_fixtures import daemon, make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import add_text_card

SYNCTHING_COPY = "back.sync-conflict-20261122-101500-ABCDEFG.txt"


def test_a_syncthing_conflict_copy_is_reported_and_resolved(box):  # noqa: F811
    box.ok("add", "hola", "hello", "--id", "hola")
    card_dir = box.store / "1" / "hola"
    (card_dir / SYNCTHING_COPY).write_text("hi")

    # The card is whole: listed and shown with its own back, not damaged by "2 back files".
    assert [card["id"] for card in box.json_lines("list")] == ["hola"]
    assert box.json("show", "hola")["card"]["back"]["text"] == "hello"
    assert "1 problem in the store" in box.ok("status")

    doctor = box.ctl("doctor")
    assert doctor.returncode == 1
    assert doctor.stdout == (f"'{card_dir / SYNCTHING_COPY}': a conflict copy of 'back.txt' left by Syncthing\n"
                             "  keep one side: leitnerctl doctor --resolve hola --keep mine|theirs\n"
                             "1 problem found.\n")

    resolved = box.ok("doctor", "--resolve", "hola", "--keep", "theirs")
    assert resolved == f"Resolved the conflict of card 'hola':\n  kept '{card_dir / 'back.txt'}'\n"
    assert sorted(os.listdir(card_dir)) == ["back.txt", "front.txt"]
    assert (card_dir / "back.txt").read_text() == "hi"
    assert box.ok("doctor") == "No problems found.\n"
    assert "problem" not in box.ok("status")


def test_resolve_keeping_mine_and_its_errors(box):  # noqa: F811
    box.ok("add", "hola", "hello", "--id", "hola")
    card_dir = box.store / "1" / "hola"
    copy = card_dir / "back (Ana's conflicted copy 2026-11-22).txt"
    copy.write_text("hi")
    usage = box.ctl("doctor", "--keep", "mine")
    assert usage.returncode == 64 and "--resolve ID" in usage.stderr
    assert box.ctl("doctor", "--resolve", "hola").returncode == 64
    wrong = box.ctl("doctor", "--resolve", "hola", "--keep", "nonsense.txt")
    assert wrong.returncode == 1
    assert "cannot resolve the conflict of card 'hola': 'nonsense.txt' is not a conflict copy" in wrong.stderr
    reply = box.json("doctor", "--resolve", "hola", "--keep", "mine")
    assert reply["kept"] == [str(card_dir / "back.txt")] and reply["removed"] == [str(copy)]
    assert not copy.exists() and (card_dir / "back.txt").read_text() == "hello"
    nothing = box.ctl("doctor", "--resolve", "hola", "--keep", "mine")
    assert nothing.returncode == 1 and "no sync conflict" in nothing.stderr


def test_git_conflict_markers_are_reported_and_resolved(daemon):  # noqa: F811
    add_text_card(daemon, "hola", "hello", id="hola")
    back = daemon.store / "1" / "hola" / "back.txt"
    back.write_text("<<<<<<< HEAD\nhello\n=======\nhi\n>>>>>>> origin/main\n")
    problems = daemon.call("Doctor")["problems"]
    assert [(p["kind"], p["path"]) for p in problems] == [("syncConflict", str(back))]
    assert daemon.call("Status")["problems"] == 1
    reply = daemon.call("ResolveConflict", id="hola", keep="mine")
    assert reply["card"]["back"]["text"] == "hello\n" and reply["kept"] == [str(back)]
    assert daemon.call("Doctor")["problems"] == []


def test_sync_tools_temporaries_in_a_level_are_not_invalid_ids(daemon):  # noqa: F811
    add_text_card(daemon, "hola", "hello", id="hola")
    (daemon.store / "2" / ".syncthing.x.tmp").mkdir()
    (daemon.store / "2" / ".unison.x.tmp").write_text("half a file")
    (daemon.store / "3" / "~syncthing~y.tmp").write_text("half a file")
    assert daemon.call("Doctor")["problems"] == []
    assert daemon.call("Status")["problems"] == 0
    assert [c["id"] for c in daemon.call("List")["cards"]] == ["hola"]


def test_syncthings_order_never_hides_the_card(daemon):  # noqa: F811
    """Syncthing moves card x from level 3 to level 1: it makes 1/x, writes each file as a
    temporary and renames it, and removes 3/x up to a minute later. `List` shows x, whole, at
    every step, and neither folder is touched."""
    add_text_card(daemon, "hola", "hello", id="x", level="3")
    old, new = daemon.store / "3" / "x", daemon.store / "1" / "x"
    os.utime(old, (1_000_000, 1_000_000))
    seen = []

    def look():
        cards = daemon.call("List", withText=True)["cards"]
        assert [(c["id"], c["front"]["text"], c["back"]["text"]) for c in cards] == [("x", "hola", "hello")]
        assert sum(daemon.call("Status")["counts"].values()) == 1
        seen.append(cards[0]["level"])

    look()
    new.mkdir()
    look()
    for name, text in [("front.txt", "hola"), ("back.txt", "hello")]:
        (new / f".syncthing.{name}.tmp").write_text(text)
        look()
        os.rename(new / f".syncthing.{name}.tmp", new / name)
        look()
    assert [p["kind"] for p in daemon.call("Doctor")["problems"]] == ["duplicateCard"]
    assert sorted(os.listdir(old)) == ["back.txt", "front.txt"] == sorted(os.listdir(new))
    for name in ["front.txt", "back.txt"]:
        os.unlink(old / name)
        look()
    old.rmdir()
    look()
    assert seen == ["3", "3", "3", "3", "3", "1", "1", "1", "1"]
    assert daemon.call("Doctor")["problems"] == []
    moves = [e for e in daemon.call("Log")["entries"] if e["event"] == "move"]
    # Found while the card was in both levels: a copy beside the other, as docs/sync.md says.
    assert [(e["id"], e["from"], e["to"], e["origin"]) for e in moves] == [("x", "3", "1", "copy")]


def unison(root, a, b, *extra):
    """One run of the real unison between the stores' card folders, its state in `root`."""
    env = dict(os.environ, UNISON=str(root / "unison-state"), HOME=str(root))
    result = subprocess.run(["unison", str(a), str(b), "-batch", "-auto", "-fastcheck", "false",
                             "-ignore", "Path .leitner", *extra],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return result


@pytest.mark.skipif(shutil.which("unison") is None, reason="unison is not installed (.ci/run installs it)")
def test_a_conflict_copy_made_by_the_real_unison_is_recognised(make_daemon, root):  # noqa: F811
    daemon = make_daemon().start()
    other = root / "other"
    other.mkdir()
    add_text_card(daemon, "hola", "hello", id="hola")
    unison(root, daemon.store, other)
    assert (other / "1" / "hola" / "back.txt").read_text() == "hello"

    # Both machines change the back; the other one later, so that it wins here and Unison keeps
    # this machine's version beside it.
    card_dir = daemon.store / "1" / "hola"
    (card_dir / "back.txt").write_text("hello from here")
    (other / "1" / "hola" / "back.txt").write_text("hello from there")
    later = os.stat(card_dir / "back.txt").st_mtime + 10
    os.utime(other / "1" / "hola" / "back.txt", (later, later))
    unison(root, daemon.store, other, "-prefer", "newer", "-copyonconflict")
    copies = [name for name in os.listdir(card_dir) if name.startswith("back (conflict")]
    assert len(copies) == 1, os.listdir(card_dir)

    card = daemon.call("Show", id="hola")["card"]
    assert card["back"]["text"] == "hello from there"
    problems = daemon.call("Doctor")["problems"]
    assert [(p["kind"], p["path"]) for p in problems] == [("syncConflict", str(card_dir / copies[0]))]
    assert "left by Unison" in problems[0]["reason"]
    kept = daemon.call("ResolveConflict", id="hola", keep="theirs")
    assert kept["card"]["back"]["text"] == "hello from here"
    assert daemon.call("Doctor")["problems"] == []
    assert json.loads(json.dumps(daemon.call("Status")))["problems"] == 0
