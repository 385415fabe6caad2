"""Typed answers in the terminal review (docs/rules.md R32), in a real terminal (tmux): a kana
card typed as romaji right, wrong, and wrong but overridden, each grade as confirmed."""
import subprocess

import pytest

from cli_box import box  # noqa: F401  (a fixture)
from test_cli_review import Pane

pytestmark = pytest.mark.skipif(subprocess.run(["which", "tmux"], capture_output=True).returncode != 0,
                                reason="tmux is not installed")

KANA = {"か": "ka", "き": "ki", "く": "ku"}


def test_typed_kana_right_wrong_and_overridden(box, tmp_path):
    for kana, romaji in KANA.items():
        box.ok("add", "--id", romaji, kana, romaji)
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    env = dict(box.env, NO_COLOR="1", LANG="C.UTF-8")
    pane = Pane(tmp_path, f"NO_COLOR=1 {ctl} review --type --images=none\necho REVIEW-ENDED\n", env)
    typed = {}
    try:
        for turn in range(3):
            screen = pane.wait_for("answer: ")
            kana = next(k for k in KANA if k in screen)
            romaji = KANA[kana]
            # First right (Enter confirms), then wrong (Enter confirms), then wrong but overridden (y).
            answer = [romaji.upper(), "xa", romaji[0] + "u" if romaji != "ku" else "ko"][turn]
            pane.keys("-l", answer[:-1] + "z")
            pane.keys("BSpace")
            pane.keys("-l", answer[-1])
            pane.wait_for(f"answer: {answer}")
            pane.keys("Enter")
            screen = pane.wait_for("expected: " + romaji)
            typed[romaji] = turn
            if turn == 0:
                assert f"typed: {answer} · expected: {romaji} · right?" in screen
                pane.keys("Enter")
                pane.wait_for(f"'{romaji}' → level 2")
            elif turn == 1:
                assert "typed: [-x" in screen and "{+" + romaji[0] in screen and "wrong?" in screen
                pane.keys("Enter")
                pane.wait_for(f"'{romaji}' → level 1")
            else:
                assert "[-" in screen and "wrong?" in screen
                pane.keys("y")
                screen = pane.wait_for_any(["REVIEW-ENDED", "answer: "])
                assert f"'{romaji}' → level 2" in screen or "REVIEW-ENDED" in screen
                break
        pane.keys("C-c")
        pane.wait_for("REVIEW-ENDED")
    finally:
        pane.close()
    levels = {card["id"]: card["level"] for card in box.json_lines("list")}
    first, second, third = sorted(typed, key=typed.get)
    assert levels[first] == "2" and levels[second] == "1" and levels[third] == "2"


def test_type_answer_file_asks_for_that_card_only(box):
    box.ok("add", "--id", "ka", "か", "ka")
    (directory,) = [d for d in box.store.glob("*/ka") if d.is_dir()]
    (directory / "type-answer").write_text("")
    result = box.ctl("review", "--plain", input="KA\n\n", env={"NO_COLOR": "1"})
    assert "your answer: " in result.stdout
    assert "typed: KA · expected: ka · right?" in result.stdout
    assert box.json_lines("list")[0]["level"] == "2"


def test_add_and_import_type_answer_write_the_file(box, tmp_path):
    """`add --type-answer` and `import --type-answer` make the daemon write `type-answer` into each
    card's directory, and a reverse card's own, before the card is in place; a card added
    without it has none."""
    box.ok("add", "--type-answer", "--reverse", "--id", "hund", "der Hund", "dog")
    box.ok("add", "--id", "katze", "die Katze", "cat")
    source = tmp_path / "words.tsv"
    source.write_text("das Haus\thouse\ndie Maus\tmouse\n")
    box.ok("import", "--type-answer", "--quiet", str(source))
    marked = {d.name for d in box.store.glob("*/*") if (d / "type-answer").is_file()}
    assert marked == {"hund", "hund.rev", "das-haus", "die-maus"}
    # No staged directory is left behind.
    assert not any((box.store / ".leitner" / "tmp").glob("add-*"))


def test_add_cloze_type_answer_asks_every_card_of_the_note(box):
    """`add --cloze --type-answer` writes the note's `type-answer` with the note (R30, R32), and
    each of its cards asks for its deletion typed; a note added without it has none, and its
    --media go into its directory. What only a card with two sides has is refused with --cloze,
    and nothing is written."""
    box.ok("add", "--cloze", "Sagt er {{c1::ja}}? Sie sagt {{c2::ja}}.", "--type-answer", "--id", "ja", "--level", "1")
    assert (box.store / "notes" / "ja" / "type-answer").is_file()
    # Both cards are asked, in either order: each expects its deletion, typed.
    result = box.ctl("review", "--plain", input="JA\n\nja\n\n", env={"NO_COLOR": "1"})
    assert result.stdout.count("your answer: ") == 2, result.stdout
    assert "typed: JA · expected: ja · right?" in result.stdout and "typed: ja · expected: ja · right?" in result.stdout
    assert {c["id"]: c["level"] for c in box.json_lines("list")} == {"ja.c1": "2", "ja.c2": "2"}
    # --media goes into the note's directory, where its text names it (R31).
    picture = box.tmp / "maus.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")
    added = box.ok("add", "--cloze", "{{c1::drei}} Mäuse ![Maus](maus.png)", "--id", "drei", "--level", "2", "--media", str(picture))
    assert "Its note holds 1 medium." in added
    assert (box.store / "notes" / "drei" / "maus.png").read_bytes() == picture.read_bytes()
    assert not (box.store / "notes" / "drei" / "type-answer").exists()
    side = box.tmp / "side.txt"
    side.write_text("x")
    for option in (["--reverse"], ["--front-file", str(side)], ["--back-file", str(side)]):
        refused = box.ctl("add", "--cloze", "{{c1::x}}", "--id", "x", "--type-answer", *option)
        assert refused.returncode == 64 and f"invalid option with --cloze '{option[0]}'" in refused.stderr, refused.stderr
    assert not (box.store / "notes" / "x").exists()


def test_reverse_card_expects_the_front_typed(box):
    """A reverse card's expected answer is the card's front (its back as a reverse card), its
    Markdown marks left out; its own type-answer file asks for it."""
    front = box.tmp / "front.md"
    front.write_text("der **Hund**\n")
    box.ok("add", "--type-answer", "--reverse", "--level", "1", "--id", "hund", "--front-file", str(front), "dog")
    box.ok("move", "hund", "finished")
    (box.store / "finished" / "hund" / "type-answer").unlink()
    result = box.ctl("review", "--plain", input="der hund\n\n", env={"NO_COLOR": "1"})
    assert "typed: der hund · expected: der Hund · right?" in result.stdout
    assert {c["id"]: c["level"] for c in box.json_lines("list")} == {"hund": "finished", "hund.rev": "2"}


def test_cloze_card_expects_its_deletion_typed(box, tmp_path):
    """A cloze card's expected answer is its deletion, not the revealed sentence; a number
    twice expects both answers; the note's own type-answer asks for all its cards."""
    box.ok("add", "--cloze", "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}, die {{c1::Maus}} nicht",
           "--id", "katze", "--level", "1")
    (box.store / "notes" / "katze" / "type-answer").write_text("")
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    env = dict(box.env, NO_COLOR="1", LANG="C.UTF-8")
    pane = Pane(tmp_path, f"NO_COLOR=1 {ctl} review --images=none\necho REVIEW-ENDED\n", env)
    try:
        for _ in range(2):
            screen = pane.wait_for("answer: ")
            first = "[wo?]" not in screen
            pane.keys("-l", "katze, maus" if first else "auf dem sessel")
            pane.keys("Enter")
            if first:
                assert "typed: katze, maus · expected: Katze, Maus · right?" in pane.wait_for("expected: ")
            else:
                assert "expected: auf dem Sofa · wrong?" in pane.wait_for("expected: ")
            pane.keys("Enter")
            pane.wait_for_any(["→ level 2" if first else "→ level 1"])
        pane.wait_for_any(["REVIEW-ENDED", "0 to go", "done"])
    finally:
        pane.close()
    assert {c["id"]: c["level"] for c in box.json_lines("list")} == {"katze.c1": "2", "katze.c2": "1"}
