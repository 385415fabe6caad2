"""Reverse cards (R28) through the real programs: add --reverse, a review in both directions,
an edit that shows in both, rename and delete of the original, a reverse made by hand, doctor
on a dangling one, import --reverse, a kill -9 during a rename with reverses; and with the
places and tags (R23-R25): a pair waits in new/ and is admitted card by card, a reverse is
suspended alone, and its tags are its own, a copy of the card's to begin with."""
import base64
import os
import random
import signal
import subprocess
import time

import pytest

from cli_box import CliBox, box, daemon_is_built  # noqa: F401  (box is a fixture)

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def reverse_of(box, level, card_id):
    return (box.store / level / card_id / "reverse-of").read_text()


def test_add_reverse_serves_the_sides_swapped_and_lists_it_marked(box):
    out = box.ok("add", "--reverse", "--id", "hund", "dog", "Hund")
    assert out == "Added 'hund' to level 1.\nAdded 'hund.rev', its reverse, to level 1.\n"
    assert sorted(os.listdir(box.store / "1" / "hund.rev")) == ["reverse-of"]
    assert reverse_of(box, "1", "hund.rev") == "hund\n"
    card = box.json("show", "hund.rev")["card"]
    assert card["reverseOf"] == "hund"
    assert card["front"]["text"] == "Hund" and card["back"]["text"] == "dog"
    assert "reverseOf" not in box.json("show", "hund")["card"]
    assert "↺ of hund" in box.ok("show", "hund.rev").splitlines()[0]
    lines = box.ok("list").splitlines()
    assert lines == ["1\thund\tdog\tHund", "1\thund.rev\tHund\tdog\t↺ of hund"]
    assert box.json("status")["counts"]["1"] == 2


def test_review_both_directions_in_line_mode(box):
    box.ok("add", "--reverse", "--id", "hund", "dog", "Hund")
    # flip, right; flip, right: both cards, each its own question.
    result = box.ctl("review", input="\ny\n\ny\n")
    assert result.returncode == 0, result.stderr
    assert "Today's test is complete" in result.stdout
    out = result.stdout
    # Each direction was asked: "dog" as a question with "Hund" as the answer, and the reverse.
    assert out.index("dog") != out.index("Hund")
    assert box.json("show", "hund")["card"]["level"] == "2"
    assert box.json("show", "hund.rev")["card"]["level"] == "2"
    graded = [e["id"] for e in box.json_lines("log") if e["event"] == "grade"]
    assert sorted(graded) == ["hund", "hund.rev"]


def test_an_edit_of_the_original_shows_in_the_reverse_and_back(box):
    box.ok("add", "--reverse", "--id", "hund", "dog", "Hund")
    box.ok("edit", "hund", "--back-file", write(box, "back.txt", "der Hund"))
    assert box.json("show", "hund.rev")["card"]["front"]["text"] == "der Hund"
    # The reverse's back is the original's front.
    box.ok("edit", "hund.rev", "--back-file", write(box, "front.txt", "a dog"))
    assert box.json("show", "hund")["card"]["front"]["text"] == "a dog"
    assert sorted(os.listdir(box.store / "1" / "hund.rev")) == ["reverse-of"]


def write(box, name, text):
    path = box.tmp / name
    path.write_text(text)
    return path


def test_rename_rewrites_the_reverses_and_delete_takes_them_along(box):
    box.ok("add", "--reverse", "--id", "hund", "dog", "Hund")
    assert box.ok("reverse", "hund", "--id", "hund-2", "--level", "3") == \
        "Added 'hund-2', the reverse of 'hund', to level 3.\n"
    box.ok("rename", "hund", "dog")
    assert reverse_of(box, "1", "hund.rev") == "dog\n" and reverse_of(box, "3", "hund-2") == "dog\n"
    assert box.json("show", "hund-2")["card"]["reverseOf"] == "dog"
    out = box.ok("delete", "--yes", "dog")
    assert out == "Deleted 'dog'.\nDeleted its reverse cards 'hund-2', 'hund.rev' with it.\n"
    assert box.ok("list") == ""
    deleted = [e["id"] for e in box.json_lines("log") if e["event"] == "delete"]
    assert deleted == ["dog", "hund-2", "hund.rev"]


def test_delete_keeping_the_reverses_leaves_them_dangling_for_doctor(box):
    box.ok("add", "--reverse", "--id", "hund", "dog", "Hund")
    out = box.ok("delete", "--yes", "--keep-reverses", "hund")
    assert "Kept its reverse cards 'hund.rev': they are dangling now" in out
    assert (box.store / "1" / "hund.rev" / "reverse-of").exists()
    result = box.ctl("doctor")
    assert result.returncode == 1
    assert "hund.rev" in result.stdout and "dangling" in result.stdout
    assert "leitnerctl delete hund.rev" in result.stdout
    assert box.json("status")["counts"]["1"] == 0


def test_a_reverse_made_by_hand_is_taken_in(box):
    box.ok("add", "--id", "katze", "cat", "Katze")
    (box.store / "2" / "cat-de").mkdir()
    (box.store / "2" / "cat-de" / "reverse-of").write_text("katze\n")
    card = box.json("show", "cat-de")["card"]
    assert card["reverseOf"] == "katze" and card["front"]["text"] == "Katze" and card["level"] == "2"
    # Moved with mv, it stays a reverse, and a rename of the original still finds it.
    os.rename(box.store / "2" / "cat-de", box.store / "4" / "cat-de")
    box.ok("rename", "katze", "cat")
    assert reverse_of(box, "4", "cat-de") == "cat\n"


def test_bad_reverses_get_an_error_or_a_doctor_line(box):
    box.ok("add", "--reverse", "--id", "hund", "dog", "Hund")
    result = box.ctl("reverse", "hund.rev")
    assert result.returncode != 0
    assert "'hund.rev' is a reverse card (of 'hund')" in result.stderr
    assert not (box.store / "1" / "hund.rev.rev").exists()
    (box.store / "1" / "twice").mkdir()
    (box.store / "1" / "twice" / "reverse-of").write_text("hund.rev\n")
    (box.store / "1" / "bad").mkdir()
    (box.store / "1" / "bad" / "reverse-of").write_text("../../etc\n")
    result = box.ctl("doctor")
    assert result.returncode == 1
    assert "a reverse of a reverse" in result.stdout
    assert "not a valid card id" in result.stdout
    # Nothing was touched or lost.
    assert reverse_of(box, "1", "twice") == "hund.rev\n" and reverse_of(box, "1", "bad") == "../../etc\n"
    assert box.json("show", "hund.rev")["card"]["front"]["text"] == "Hund"


@pytest.fixture
def paced(bin_dir, tmp_path):
    """A box with pacing on: the embedded NewPerDay=20, as a user without a configuration has."""
    assert daemon_is_built(bin_dir), "leitnerd is not built"
    b = CliBox(bin_dir, tmp_path, pacing=True)
    b.start()
    yield b
    b.stop()


def test_with_pacing_a_card_and_its_reverse_wait_in_new_and_are_admitted_as_two(paced):
    out = paced.ok("add", "--reverse", "--id", "hund", "dog", "Hund")
    assert out == ("Added 'hund' to new.\nAdded 'hund.rev', its reverse, to new.\n"
                   "They wait in new/ and come into level 1 when today's test opens.\n")
    assert reverse_of(paced, "new", "hund.rev") == "hund\n"
    assert paced.json("show", "hund.rev")["card"]["front"]["text"] == "Hund"
    deck = paced.tmp / "deck.tsv"
    deck.write_text("eins\tone\nzwei\ttwo\n")
    assert "2 added (and 2 reverse cards)" in paced.ok("import", "--reverse", deck)
    assert (paced.store / "new" / "zwei.rev").is_dir()
    status = paced.json("status")
    assert status["counts"]["new"] == 6 and status["counts"]["1"] == 0 and status["arrivals"] == 6
    # The day's test opens: each card and each reverse an admission, in the order they came.
    assert paced.json("prepare")["test"]["remaining"] == 6
    admitted = [e["id"] for e in paced.json_lines("log") if e.get("origin") == "admit"]
    assert admitted == ["hund", "hund.rev", "eins", "eins.rev", "zwei", "zwei.rev"]
    # Once the test is open, a pair still in the day's room goes straight to level 1, together.
    assert paced.ok("add", "--reverse", "--id", "katze", "cat", "Katze") == \
        "Added 'katze' to level 1.\nAdded 'katze.rev', its reverse, to level 1.\n"
    # A reverse of a card waiting in new/ waits beside it.
    paced.ok("add", "--level", "new", "--id", "maus", "mouse", "Maus")
    assert paced.ok("reverse", "maus") == "Added 'maus.rev', the reverse of 'maus', to new.\n"


def test_a_reverse_is_suspended_alone_and_still_shows_its_card(box):
    box.ok("add", "--reverse", "--level", "3", "--id", "hund", "dog", "Hund")
    assert box.ok("suspend", "hund.rev") == "Suspended 'hund.rev'.\n"
    assert (box.store / "suspended" / "hund.rev").is_dir() and (box.store / "3" / "hund").is_dir()
    card = box.json("show", "hund.rev")["card"]
    assert card["level"] == "suspended" and card["front"]["path"] == str(box.store / "3" / "hund" / "back.txt")
    assert "back in level 3" in box.ok("unsuspend", "hund.rev")
    # The card suspended, its reverse stays in the tests and shows it from suspended/.
    box.ok("suspend", "hund")
    assert box.json("show", "hund.rev")["card"]["front"]["text"] == "Hund"
    assert box.ctl("doctor").returncode == 0


def test_a_reverse_has_tags_of_its_own(box):
    box.ok("add", "--reverse", "--tag", "de", "--id", "hund", "dog", "Hund")
    added = box.json("add", "--reverse", "--tag", "de", "--id", "katze", "cat", "Katze")
    assert added["card"]["tags"] == ["de"] and added["reverse"]["tags"] == ["de"]
    assert (box.store / "1" / "hund.rev" / "tags").read_text() == "de\n"
    assert sorted(os.listdir(box.store / "1" / "hund.rev")) == ["reverse-of", "tags"]
    # Tagged apart from then on.
    box.ok("tag", "hund.rev", "de:production")
    box.ok("untag", "hund", "de")
    assert (box.store / "1" / "hund" / "tags").read_text() == ""
    assert [c["id"] for c in box.json_lines("list", "--tag", "de")] == ["hund.rev", "katze", "katze.rev"]
    assert [c["id"] for c in box.json_lines("list", "--tag", "de:production")] == ["hund.rev"]
    assert box.ok("tags") == "de\t3\nde:production\t1\n"
    # reverse ID starts the new reverse with a copy of the card's tags.
    box.ok("add", "--tag", "ja", "--id", "neko", "neko", "cat")
    assert box.json("reverse", "neko")["card"]["tags"] == ["ja"]
    assert (box.store / "1" / "neko.rev" / "tags").read_text() == "ja\n"
    # An import's tags go on both.
    deck = box.tmp / "deck.tsv"
    deck.write_text("id\tfront\tback\ttags\neins\tone\teins\tnum\n")
    box.ok("import", "--reverse", "--tag", "de", deck)
    assert box.json("show", "eins.rev")["card"]["tags"] == ["num", "de"]
    # A rename of the card keeps its reverse's tags.
    box.ok("rename", "hund", "dog")
    assert box.json("show", "hund.rev")["card"]["tags"] == ["de", "de:production"]
    assert box.ctl("doctor").returncode == 0


def test_import_reverse_and_an_image_front(box):
    deck = box.tmp / "deck.tsv"
    deck.write_text("eins\tone\nzwei\ttwo\n")
    out = box.ok("import", "--reverse", "--level", "2", deck)
    assert "2 added (and 2 reverse cards)" in out
    assert reverse_of(box, "2", "eins.rev") == "eins\n"
    assert box.json("show", "zwei.rev")["card"]["front"]["text"] == "two"
    # Imported again: nothing added, reverses included.
    assert "0 added, 2 already present" in box.ok("import", "--reverse", deck)
    # An image front is the reverse's answer, readable through the daemon.
    image = write(box, "cat.png", "")
    image.write_bytes(PNG)
    box.ok("add", "--reverse", "--id", "cat", "--front-file", image, "Katze")
    card = box.json("show", "cat.rev")["card"]
    assert card["front"]["text"] == "Katze" and card["back"]["mediaType"] == "image/png"
    result = box.ctl("review", input="\ny\n" * 5)
    assert result.returncode == 0, result.stderr


def test_a_kill_during_a_rename_with_reverses_leaves_all_old_or_all_new(box):
    box.ok("add", "--id", "orig", "front", "back")
    for number in range(12):
        box.ok("reverse", "orig", "--id", f"r{number}", "--level", str(1 + number % 7))
    current = "orig"
    rng = random.Random(28)
    for attempt in range(6):
        new = "renamed" if current == "orig" else "orig"
        renaming = subprocess.Popen([str(box.bin_dir / "leitnerctl"), "--socket", str(box.socket), "--no-autostart",
                                     "rename", current, new], env=box.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, 0.05))
        box.daemon.send_signal(signal.SIGKILL)
        box.daemon.wait(10)
        renaming.wait(30)
        box.start()
        ids = {e["id"] for e in box.json_lines("list")}
        named = {reverse_of(box, str(1 + number % 7), f"r{number}") for number in range(12)}
        # The original under one id, and every reverse naming that id (R18).
        assert ("orig" in ids) != ("renamed" in ids), ids
        current = "orig" if "orig" in ids else "renamed"
        assert named == {current + "\n"}, (attempt, named)
        result = box.ctl("doctor")
        assert result.returncode == 0, result.stdout
