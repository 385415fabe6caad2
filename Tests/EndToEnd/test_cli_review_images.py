"""Images and sound in the review, through a pseudo-terminal: each image protocol's escape
sequences (kitty, iTerm2, sixel, half blocks) forced with --images= and chosen by asking the
terminal; chafa missing; `o` opens the image with Viewer=; an audio side is played, `r` plays it
again (docs/leitnerctl.md, "Images and sound")."""
import base64
import os
import re
import shutil
import stat

import pytest

from cli_box import box  # noqa: F401  (a fixture)
from review_pty import PtyReview, kitty_image, png

needs_chafa = pytest.mark.skipif(shutil.which("chafa") is None, reason="chafa is not installed (.ci/run installs it)")

RED = (255, 0, 0)
SHOWN = rb"show the answer"


def add_image_card(box, tmp_path, image: bytes, name="picture.png"):
    path = tmp_path / name
    path.write_bytes(image)
    box.ok("add", "--id", "pic", "--front-file", path, "red")
    return path


def test_kitty_sends_the_png_as_it_is_in_chunks(box, tmp_path):
    image = png(120, 90)  # random pixels: about 32 KiB, several chunks
    add_image_card(box, tmp_path, image)
    review = PtyReview(box, "--images=kitty")
    review.wait_for(SHOWN)
    output = review.wait_for(rb"m=0;[A-Za-z0-9+/=]*\x1b\\")  # the last chunk; images come after the text
    control, sent, sizes = kitty_image(output)
    assert "a=T" in control and "f=100" in control and "m=1" in control
    assert re.search(r"c=\d+", control) and re.search(r"r=\d+", control)
    assert sent == image
    assert len(sizes) > 1 and all(size <= 4096 for size in sizes)
    assert review.finish() == 0


def test_iterm_sends_the_png_as_it_is(box, tmp_path):
    image = png(60, 40, RED)
    add_image_card(box, tmp_path, image)
    review = PtyReview(box, "--images=iterm")
    review.wait_for(SHOWN)
    output = review.wait_for(rb"1337;File=[^\x07]*\x07")
    found = re.search(rb"\x1b\]1337;File=inline=1;size=(\d+);width=(\d+);height=(\d+);preserveAspectRatio=1:"
                      rb"([A-Za-z0-9+/=]+)\x07", output)
    assert found, output[-2000:]
    assert int(found.group(1)) == len(image) and base64.b64decode(found.group(4)) == image
    assert review.finish() == 0


@needs_chafa
def test_sixel_is_drawn_by_chafa(box, tmp_path):
    add_image_card(box, tmp_path, png(64, 64, RED))
    review = PtyReview(box, "--images=sixel")
    review.wait_for(SHOWN)
    output = review.wait_for(rb"\x1bP[0-9;]*q.*?\x1b\\")
    sixel = re.search(rb"\x1bP[0-9;]*q(.*?)\x1b\\", output, re.S)
    assert sixel, output[-2000:]
    # A colour register of pure red (RGB in percent), and sixel data.
    assert re.search(rb"#\d+;2;100;0;0", sixel.group(1))
    assert review.finish() == 0


@needs_chafa
@pytest.mark.parametrize("colorterm, red", [("truecolor", rb"\x1b\[[0-9;]*(38|48);2;255;0;0[;m]"),
                                                ("", rb"\x1b\[[0-9;]*(38|48);5;196[;m]")])
def test_half_blocks_in_true_colour_or_256(box, tmp_path, colorterm, red):
    add_image_card(box, tmp_path, png(64, 64, RED))
    env = dict(box.env, COLORTERM=colorterm)
    review = PtyReview(box, "--images=blocks", env=env)
    output = review.wait_for(SHOWN)
    assert re.search(red, output) and ("▀".encode() in output or "▄".encode() in output)
    assert b"\x1bP" not in output and b"\x1b_G" not in output
    assert review.finish() == 0


def test_without_chafa_it_says_how_to_get_it(box, tmp_path):
    add_image_card(box, tmp_path, png(16, 16, RED))
    empty = tmp_path / "no-programs"
    empty.mkdir()
    review = PtyReview(box, "--images=sixel", env=dict(box.env, PATH=str(empty)))
    output = review.wait_for(SHOWN)
    assert b"install chafa (apt install chafa)" in output
    assert review.finish() == 0


def test_none_shows_the_media_type(box, tmp_path):
    add_image_card(box, tmp_path, png(16, 16, RED))
    review = PtyReview(box, "--images=none")
    output = review.wait_for(SHOWN)
    assert b"[image/png] \xc2\xb7 o opens it" in output
    assert b"\x1b_Ga=T" not in output and b"\x1bP" not in output and b"1337;File" not in output
    assert review.finish() == 0


def test_a_bad_images_value_is_a_usage_error(box):
    result = box.ctl("review", "--images=ascii")
    assert result.returncode == 64 and "expected auto, kitty, iterm, sixel, blocks, none" in result.stderr


KITTY_QUERY = b"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"
DA1 = b"\x1b[c"


@pytest.mark.parametrize("answers, environment, expected", [
    # kitty: answers the graphics query, then DA1.
    ({DA1: b"\x1b_Gi=31;OK\x1b\\\x1b[?62;22c"}, {}, rb"\x1b_Ga=T,f=100"),
    # xterm -ti vt340, foot, mlterm: DA1 with attribute 4.
    ({DA1: b"\x1b[?63;1;2;4;6;9;15;22c"}, {}, rb"\x1bP[0-9;]*q"),
    # iTerm2 names itself in TERM_PROGRAM.
    ({DA1: b"\x1b[?62;22c"}, {"TERM_PROGRAM": "iTerm.app"}, rb"\x1b\]1337;File=inline=1"),
    # A terminal that answers nothing: half blocks, after the short timeout.
    ({}, {}, "▄".encode()),
])
def test_the_protocol_is_asked_of_the_terminal(box, tmp_path, answers, environment, expected):
    if (b"q" in expected or "▄".encode() == expected) and shutil.which("chafa") is None:
        pytest.skip("chafa is not installed")
    add_image_card(box, tmp_path, png(64, 64, RED))
    env = dict(box.env, **environment)
    env.pop("TERM_PROGRAM", None) if not environment else None
    review = PtyReview(box, env=env, answers=answers)
    review.wait_for(SHOWN)
    output = review.wait_for(expected)
    assert KITTY_QUERY in output and DA1 in output
    assert review.finish() == 0


def executable(path, text):
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def configure(box, tmp_path, lines: str):
    config = tmp_path / "config" / "leitner"
    config.mkdir(parents=True, exist_ok=True)
    (config / "leitner.conf").write_text("[Client]\n" + lines)


def open_with_viewer(review, written):
    """Presses `o` on the card shown and waits (5 s at most) for the viewer to write `written`."""
    review.wait_for(SHOWN)
    review.keys(b"o")
    review.wait_for(rb"opened with")
    for _ in range(100):
        if written.exists():
            break
        review.pump(0.05)


def test_o_opens_the_image_with_the_viewer(box, tmp_path):
    image = png(16, 16, RED)
    add_image_card(box, tmp_path, image)
    opened = tmp_path / "opened"
    viewer = executable(tmp_path / "viewer", f"#!/bin/sh\ncat \"$1\" > {opened}.part && mv {opened}.part {opened}\n")
    configure(box, tmp_path, f"Viewer={viewer}\n")
    review = PtyReview(box, "--images=none")
    open_with_viewer(review, opened)
    assert opened.read_bytes() == image
    assert review.finish() == 0


def test_the_viewer_inherits_no_descriptor_of_leitnerctl(box, tmp_path):
    """#25: a viewer started by `o` gets standard input, output and error and nothing else, so a
    pipe that leitnerctl was given is not held open by a viewer that outlives the review."""
    add_image_card(box, tmp_path, png(16, 16, RED))
    seen = tmp_path / "seen"
    viewer = executable(tmp_path / "viewer",
                        f"#!/bin/sh\nif [ -e /proc/$$/fd/57 ]; then r=inherited; else r=clean; fi\n"
                        f"echo $r > {seen}.part && mv {seen}.part {seen}\n")
    configure(box, tmp_path, f"Viewer={viewer}\n")
    read_end, write_end = os.pipe()
    os.dup2(write_end, 57)
    os.close(write_end)
    try:
        review = PtyReview(box, "--images=none", pass_fds=(57,))
    finally:
        os.close(57)
    try:
        open_with_viewer(review, seen)
        assert seen.read_text().strip() == "clean"
        assert review.finish() == 0
        # Every writer of the pipe is gone once the review is: its reader sees the end.
        assert os.read(read_end, 1) == b""
    finally:
        os.close(read_end)


def test_audio_plays_when_shown_and_r_plays_it_again(box, tmp_path):
    sound = tmp_path / "hello.wav"
    sound.write_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt ")
    box.ok("add", "--id", "hello", "--back-file", sound, "say hello")
    played = tmp_path / "played"
    player = executable(tmp_path / "player", f"#!/bin/sh\ncmp -s \"$1\" {sound} && echo played >> {played}\n")
    configure(box, tmp_path, f"Player={player}\n")
    review = PtyReview(box)
    review.wait_for(SHOWN)
    assert not played.exists()  # the front is text: nothing plays
    review.keys(b" ")
    review.wait_for(rb"r plays it again")

    def count(n):
        for _ in range(100):
            if played.exists() and played.read_text().count("played") >= n:
                return played.read_text().count("played")
            review.pump(0.05)
        return played.read_text().count("played") if played.exists() else 0
    assert count(1) == 1
    review.keys(b"r")
    assert count(2) == 2
    assert review.finish() == 0


def test_a_missing_player_is_one_line(box, tmp_path):
    sound = tmp_path / "hello.wav"
    sound.write_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt ")
    box.ok("add", "--id", "hello", "--front-file", sound, "hello")
    configure(box, tmp_path, "Player=\n")
    review = PtyReview(box)
    output = review.wait_for(SHOWN)
    assert b"no audio player: install" in output
    assert review.finish() == 0
