"""R31: a Markdown side's own picture and sound in a real terminal (tmux): the picture drawn by
chafa as an image side is (half blocks), a clear word when chafa is missing, the sound played
with Player= on `r` (named in the keys), a name that is a path shown as it is written; `show`
and `doctor` say the same of the card."""
import shutil
import time

import pytest

from cli_box import box  # noqa: F401  (a fixture)
from review_pty import png
from test_cli_review import Pane
from test_cli_review_images import configure, executable

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

FRONT = "# Katze\n\n![eine Katze](katze.png)\n\nmiaut: [sound:miau.mp3] ![böse](../hund/katze.png)\n"


def media_card(box):
    box.ok("add", "--id", "katze", "--level", "1", "placeholder", "cat")
    card = box.store / "1" / "katze"
    (card / "front.txt").unlink()
    (card / "front.md").write_text(FRONT)
    (card / "katze.png").write_bytes(png(48, 48, (255, 0, 0)))
    (card / "miau.mp3").write_bytes(b"ID3-miau")
    return card


def script(box, tmp_path, images="blocks"):
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    return f"{ctl} review --images={images}\necho REVIEW-ENDED\n"


@pytest.mark.skipif(shutil.which("chafa") is None, reason="chafa is not installed (.ci/run installs it)")
def test_the_picture_is_drawn_and_the_sound_plays_on_r(box, tmp_path):
    card = media_card(box)
    played = tmp_path / "played"
    player = executable(tmp_path / "player", f"#!/bin/sh\ncat \"$1\" >> {played}\necho >> {played}\n")
    configure(box, tmp_path, f"Player={player}\n")
    pane = Pane(tmp_path, script(box, tmp_path), box.env, rows=40)
    try:
        screen = pane.wait_for("show the answer")
        assert "Katze" in screen
        assert "▀" in screen or "▄" in screen, screen  # chafa's half blocks
        assert "♪ miau.mp3 · r plays it" in screen
        assert "![böse](../hund/katze.png)" in screen  # a path: shown as written
        assert "r play the sound" in screen  # the key, in the keys line
        assert not played.exists()  # a side's sound plays on the key only
        pane.keys("r")
        for _ in range(100):
            if played.exists() and "ID3-miau" in played.read_text():
                break
            time.sleep(0.05)
        assert played.read_text().strip() == "ID3-miau"
        pane.keys("q")
        pane.wait_for("REVIEW-ENDED")
    finally:
        pane.close()
    shown = box.ok("show", "katze")
    assert f"[image/png] {card}/katze.png" in shown and f"[audio/mpeg] {card}/miau.mp3" in shown
    assert "![böse](../hund/katze.png)" in shown
    doctor = box.ctl("doctor")
    assert "'../hund/katze.png' in ![böse](../hund/katze.png) is a path, not a file name" in doctor.stdout + doctor.stderr


def test_without_chafa_the_picture_is_a_clear_word(box, tmp_path):
    media_card(box)
    empty = tmp_path / "bin"
    empty.mkdir()
    pane = Pane(tmp_path, f"PATH={empty} " + script(box, tmp_path), box.env, rows=40)
    try:
        screen = pane.wait_for("show the answer")
        assert "install chafa (apt install chafa)" in screen, screen
        assert "♪ miau.mp3 · r plays it" in screen
    finally:
        pane.close()


def test_add_media_copies_the_files_in_and_refuses_bad_names(box, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "katze.png").write_bytes(png(8, 8, (255, 0, 0)))
    (tmp_path / "b" / "katze.png").write_bytes(png(8, 8, (0, 0, 255)))
    (tmp_path / "miau.mp3").write_bytes(b"ID3-miau")
    out = box.ok("add", "--id", "katze", "--level", "1", "--media", tmp_path / "a" / "katze.png",
                 "--media", tmp_path / "miau.mp3", "--media", tmp_path / "b" / "katze.png",
                 "![rot](katze.png) ![blau](katze-2.png) [sound:miau.mp3]", "cat")
    assert "Added 'katze' to level 1, with 3 media." in out
    assert "'katze.png' was given twice: the second is 'katze-2.png'" in out
    card = box.store / "1" / "katze"
    assert (card / "front.md").exists()  # with media, a text side is Markdown
    assert (card / "katze.png").read_bytes() == (tmp_path / "a" / "katze.png").read_bytes()
    assert (card / "katze-2.png").read_bytes() == (tmp_path / "b" / "katze.png").read_bytes()
    assert (card / "miau.mp3").read_bytes() == b"ID3-miau"
    shown = box.json("show", "katze")
    shown = shown.get("card", shown)
    assert [m["name"] for m in shown["front"]["media"]] == ["katze.png", "katze-2.png", "miau.mp3"]
    assert [m["mediaType"] for m in shown["front"]["media"]] == ["image/png", "image/png", "audio/mpeg"]
    # Refused before anything is added: a file that is no picture or sound, a side's name.
    (tmp_path / "notes.pdf").write_bytes(b"%PDF")
    (tmp_path / "front.png").write_bytes(png(4, 4))
    for bad, says in [("notes.pdf", "not a picture or a sound (application/pdf)"), ("front.png", "is a side's file name"),
                      ("missing.png", "cannot read")]:
        result = box.ctl("add", "--id", "bad", "--media", tmp_path / bad, "x", "y")
        assert result.returncode == 1 and says in result.stderr, result.stderr
        assert not (box.store / "new" / "bad").exists() and "bad" not in box.ok("list")
    box.ok("move", "katze", "suspended")
    assert (box.store / "suspended" / "katze" / "katze-2.png").exists()
