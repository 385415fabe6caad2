"""Once, for real: an image card reviewed in xterm emulating a VT340 (sixel graphics), on a
virtual X server (Xvfb), screenshot with ImageMagick's `import`, and the picture's red pixels
counted. The review asks the terminal (DA1 says sixel) and draws the image with chafa."""
import os
import shutil
import subprocess
import time

import pytest

from cli_box import box  # noqa: F401  (a fixture)
from review_pty import png

pytestmark = pytest.mark.skipif(
    any(shutil.which(program) is None for program in ("Xvfb", "xterm", "import", "chafa")),
    reason="needs Xvfb, xterm, imagemagick and chafa (.ci/run installs them)")


def start_x_server(tmp_path):
    """Xvfb on the first free display number (it says which on a pipe)."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                              pass_fds=[write], stdout=subprocess.DEVNULL, stderr=open(tmp_path / "xvfb.log", "wb"))
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        assert chunk, (tmp_path / "xvfb.log").read_text()
        number += chunk
    os.close(read)
    return server, f":{number.decode().strip()}"


def red_pixels(display, path) -> int:
    """The pixels of the screen that are clearly red: only the image is (the terminal is black on
    white, and the card's text uses no red)."""
    subprocess.run(["import", "-display", display, "-window", "root", str(path)], check=True, timeout=30)
    raw = subprocess.run(["convert", str(path), "-depth", "8", "rgb:-"], capture_output=True, check=True,
                         timeout=30).stdout
    return sum(1 for i in range(0, len(raw), 3) if raw[i] > 200 and raw[i + 1] < 60 and raw[i + 2] < 60)


def test_an_image_card_in_xterm_vt340(box, tmp_path):
    picture = tmp_path / "red.png"
    picture.write_bytes(png(160, 160, (255, 0, 0)))
    box.ok("add", "--id", "red", "--front-file", picture, "red")
    server, display = start_x_server(tmp_path)
    env = dict(box.env, DISPLAY=display)
    env.pop("TERM_PROGRAM", None)
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart review"
    terminal = subprocess.Popen(
        ["xterm", "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256",
         "-geometry", "90x30+0+0", "-bg", "white", "-fg", "black", "-l", "-lf", str(tmp_path / "xterm.out"),
         "-e", "sh", "-c", f"{ctl}; echo \"exit=$?\" > {tmp_path}/exit"], env=env,
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "xterm.log", "wb"))
    try:
        deadline = time.monotonic() + 20
        count = 0
        while count < 2000:
            assert time.monotonic() < deadline, f"no image on the screen ({count} red pixels)"
            time.sleep(0.3)
            count = red_pixels(display, tmp_path / "screen.png")
    finally:
        terminal.terminate()
        terminal.wait(10)
        server.terminate()
        server.wait(10)
    # What xterm was sent (its log, -l): the queries, then sixels, chosen because DA1 said so.
    output = (tmp_path / "xterm.out").read_bytes()
    assert b"\x1b_Gi=31,s=1" in output and b"\x1b[c" in output
    assert b"\x1bP0;1;0q" in output
