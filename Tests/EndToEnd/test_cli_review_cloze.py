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
