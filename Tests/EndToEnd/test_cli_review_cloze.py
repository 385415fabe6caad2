"""R30: a cloze note with three numbers, one of them twice and one with a hint, reviewed card by
card in a real terminal (tmux): each card hides its own deletions as [. . .] or [hint] and shows
the others, and its answer brackets what was hidden, then the note's extra."""
import subprocess

import pytest

from cli_box import box  # noqa: F401  (a fixture)
from test_cli_review import Pane, review_script

pytestmark = pytest.mark.skipif(subprocess.run(["which", "tmux"], capture_output=True).returncode != 0,
                                reason="tmux is not installed")

NOTE = "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}, die {{c1::Katze}} jagt {{c3::die Maus}}."
FRONTS = {
    "katze.c1": "Die […] schläft auf dem Sofa, die […] jagt die Maus.",
    "katze.c2": "Die Katze schläft [wo?], die Katze jagt die Maus.",
    "katze.c3": "Die Katze schläft auf dem Sofa, die Katze jagt […].",
}
BACKS = {
    "katze.c1": "Die [Katze] schläft auf dem Sofa, die [Katze] jagt die Maus.",
    "katze.c2": "Die Katze schläft [auf dem Sofa], die Katze jagt die Maus.",
    "katze.c3": "Die Katze schläft auf dem Sofa, die Katze jagt [die Maus].",
}


def test_a_cloze_note_is_reviewed_card_by_card(box, tmp_path):
    out = box.ok("add", "--cloze", NOTE, "--id", "katze", "--extra", "cat, sofa, mouse", "--level", "1")
    assert "'katze.c3', cloze 3 of katze" in out
    listed = box.ok("list")
    assert "cloze 2 of katze" in listed
    assert "cloze 2 of katze" in box.ok("show", "katze.c2")
    pane = Pane(tmp_path, review_script(box, tmp_path, "cloze"), box.env)
    try:
        seen = []
        for _ in range(3):
            screen = pane.wait_for("Space/Enter show the answer")
            shown = [card for card, front in FRONTS.items() if front in screen and card not in seen]
            assert len(shown) == 1, screen
            card = shown[0]
            assert BACKS[card] not in screen and "cat, sofa, mouse" not in screen
            pane.keys("Space")
            screen = pane.wait_for("y/→ correct")
            assert BACKS[card] in screen and "cat, sofa, mouse" in screen
            pane.keys("y")
            seen.append(card)
        pane.wait_for("REVIEW-ENDED")
    finally:
        pane.close()
    assert sorted(seen) == sorted(FRONTS)
    for card in FRONTS:
        shown = box.json("show", card)
        shown = shown.get("card", shown)
        assert shown["level"] == "2" and shown["clozeOf"] == "katze", shown


def cloze_of(box, level, card):
    return (box.store / level / card / "cloze-of").read_text()


def test_a_note_is_renamed_and_deleted_with_its_cards(box):
    """R30, as R28 for a card's reverses: `rename NOTE NEWID` rewrites its cards' cloze-of in one
    change (the cards keep their ids and levels), `mv` of its directory does the same at the next
    request, one card the note still holds is not deleted alone, and `delete NOTE` takes them all."""
    box.ok("add", "--cloze", "{{c1::eins}} und {{c2::zwei}}", "--id", "zahl", "--level", "2")
    box.ok("move", "zahl.c2", "4")
    assert box.ok("rename", "zahl", "nummer") == "Renamed the note 'zahl' to 'nummer'; its cards keep their ids.\n"
    assert cloze_of(box, "2", "zahl.c1") == "nummer\nc1\n" and cloze_of(box, "4", "zahl.c2") == "nummer\nc2\n"
    assert not (box.store / "notes" / "zahl").exists()
    assert "cloze 2 of nummer" in box.ok("show", "zahl.c2")
    # By hand, the daemon running: the cards follow the directory.
    (box.store / "notes" / "nummer").rename(box.store / "notes" / "zahlen")
    assert "cloze 1 of zahlen" in box.ok("show", "zahl.c1")
    assert cloze_of(box, "4", "zahl.c2") == "zahlen\nc2\n"
    assert not list(box.store.glob("*/zahlen.c*")) and not list(box.store.glob("*/nummer.c*"))
    edits = [e["id"] for e in box.json_lines("log") if e["event"] == "edit"]
    assert edits == ["zahl.c1", "zahl.c2", "zahl.c1", "zahl.c2"]
    result = box.ctl("delete", "--yes", "zahl.c2")
    assert result.returncode != 0 and "edit the note" in result.stderr and "leitnerctl delete zahlen" in result.stderr
    assert (box.store / "4" / "zahl.c2").exists()
    out = box.ok("delete", "--yes", "zahlen")
    assert out == "Deleted the note 'zahlen'.\nDeleted its cards 'zahl.c1', 'zahl.c2' with it.\n"
    assert box.ok("list") == "" and not (box.store / "notes" / "zahlen").exists()
    box.ok("doctor")
