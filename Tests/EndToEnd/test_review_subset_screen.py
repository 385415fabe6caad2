"""`review --tag` and `practice` on a real terminal (tmux): only the selected cards are shown, the
rest of today's test stays queued (docs/rules.md, R26), and practice answers move nothing (R27)."""
import json
import subprocess

import pytest

from cli_box import box  # noqa: F401  (a fixture)
from test_cli_review import Pane

pytestmark = pytest.mark.skipif(subprocess.run(["which", "tmux"], capture_output=True).returncode != 0,
                                reason="tmux is not installed")


def screen_script(box, tmp, name, *arguments) -> str:
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    return (f"{ctl} {' '.join(arguments)} --images=none\n"
            f"echo \"exit=$?\" > {tmp}/{name}.exit\n"
            f"echo SCREEN-ENDED\n")


def add_cards(box):
    box.ok("add", "--id", "neko", "--tag", "ja", "猫", "cat")
    box.ok("add", "--id", "inu", "--tag", "ja:animals", "犬", "dog")
    box.ok("add", "--id", "hund", "--tag", "de", "Hund", "dog")
    box.ok("add", "--id", "katze", "Katze", "cat")


def test_review_of_one_tag_shows_its_cards_and_leaves_the_rest_queued(box, tmp_path):
    add_cards(box)
    pane = Pane(tmp_path, screen_script(box, tmp_path, "ja", "review", "--tag", "ja"), box.env)
    shown = set()
    try:
        for _ in range(2):
            screen = pane.wait_for("Space/Enter show the answer")
            # Only the cards tagged ja or below it: never the German ones; counted as its own.
            assert "Hund" not in screen and "Katze" not in screen
            assert f"{len(shown)} of 2 done · a part of today's test" in screen.split("\n")[-1] or \
                f"{len(shown)} of 2 done · a part of today's test" in screen
            shown |= {word for word in ("猫", "犬") if word in screen}
            pane.keys("Space")
            pane.wait_for("y/→ correct")
            pane.keys("y")
        screen = pane.wait_for("SCREEN-ENDED")
        # Its own cards counted, not the whole test's (#35).
        assert "This part of today's test: 2 of 2 done." in screen
        assert "2 cards of the test outside it remain" in screen
        assert (tmp_path / "ja.exit").read_text().strip() == "exit=0"
    finally:
        pane.close()
    assert shown == {"猫", "犬"}
    status = box.json("status")
    assert status["test"]["state"] == "open" and status["test"]["remaining"] == 2
    levels = {card["id"]: card["level"] for card in box.json_lines("list")}
    assert levels == {"neko": "2", "inu": "2", "hund": "1", "katze": "1"}


def test_practice_on_the_screen_moves_nothing_and_is_logged(box, tmp_path):
    add_cards(box)
    before = {card["id"]: card["level"] for card in box.json_lines("list")}
    test_before = box.json("status")["test"]
    pane = Pane(tmp_path, screen_script(box, tmp_path, "practice", "practice", "--tag", "de"), box.env)
    try:
        screen = pane.wait_for("Space/Enter show the answer")
        assert "Hund" in screen and "猫" not in screen
        pane.keys("Space")
        pane.wait_for("y/→ correct")
        pane.keys("n")
        screen = pane.wait_for("SCREEN-ENDED")
        assert (tmp_path / "practice.exit").read_text().strip() == "exit=0"
    finally:
        pane.close()
    assert {card["id"]: card["level"] for card in box.json_lines("list")} == before
    test_after = box.json("status")["test"]
    assert (test_after["passed"], test_after["failed"]) == (test_before["passed"], test_before["failed"])
    practice = [json.loads(line) for line in box.ok("--json", "log").splitlines()
                if json.loads(line).get("event") == "practice"]
    assert [(entry["id"], entry["correct"]) for entry in practice] == [("hund", False)]
