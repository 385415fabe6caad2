"""leitnerctl review on a pseudo-terminal driven from Python: what it writes, byte for byte (the
images' escape sequences), answers to its terminal queries, and keys."""
import base64
import fcntl
import os
import random
import re
import select
import struct
import subprocess
import termios
import time
import zlib


def png(width: int, height: int, pixel=None, seed=1) -> bytes:
    """A PNG of `width` × `height` RGB pixels: all `pixel`, or random (so that it does not compress)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(height):
        if pixel is None:
            rows.append(b"\x00" + bytes(rng.randrange(256) for _ in range(3 * width)))
        else:
            rows.append(b"\x00" + bytes(pixel) * width)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


class PtyReview:
    """`leitnerctl review ARGS` on a new pseudo-terminal of `columns` × `rows`.

    `answers` maps a query the review writes (bytes) to the terminal's reply, sent once when the
    query is seen: a terminal that speaks kitty's graphics protocol, or sixel, or neither."""

    def __init__(self, box, *args, columns=80, rows=24, env=None, answers=None, pass_fds=()):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        command = [str(box.bin_dir / "leitnerctl"), "--socket", str(box.socket), "--no-autostart", "review", *args]
        self.process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env or box.env,
                                        start_new_session=True, pass_fds=pass_fds)
        os.close(slave)
        self.output = b""
        self.answers = dict(answers or {})

    def pump(self, timeout=0.05):
        """Reads what the review wrote within `timeout`; answers the queries seen."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: the review ended and the terminal is gone
                data = b""
            self.output += data
            for query in list(self.answers):
                if query in self.output:
                    os.write(self.master, self.answers.pop(query))
            return bool(data)
        return True

    def wait_for(self, pattern: bytes, timeout=10.0) -> bytes:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.output):
            assert time.monotonic() < deadline, f"{pattern!r} not in the output:\n{self.output[-3000:]!r}"
            if not self.pump() and self.process.poll() is not None:
                raise AssertionError(f"the review ended before {pattern!r}:\n{self.output[-3000:]!r}")
        return self.output

    def keys(self, data: bytes):
        os.write(self.master, data)

    def finish(self, timeout=10.0) -> int:
        """Quits (`q`), reads to the end, and returns the exit status."""
        self.keys(b"q")
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            assert time.monotonic() < deadline, "the review did not end"
            self.pump()
        while self.pump(0.05) and len(self.output) and select.select([self.master], [], [], 0)[0]:
            pass
        os.close(self.master)
        return self.process.returncode


def kitty_image(output: bytes) -> tuple[str, bytes, list[int]]:
    """The first kitty graphics command of `output`: its keys, the image it carries (the chunks'
    base64 joined and decoded), and the chunks' sizes."""
    chunks = re.findall(rb"\x1b_G([^;\x1b]*);([^\x1b]*)\x1b\\", output)
    transmitted = [(control, payload) for control, payload in chunks if control != b"a=d,q=2"]
    first = transmitted[0][0].decode()
    payload, sizes = b"", []
    for control, data in transmitted:
        payload += data
        sizes.append(len(data))
        if b"m=0" in control:
            break
    return first, base64.b64decode(payload), sizes
