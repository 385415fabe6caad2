"""A real leitnerd on a temporary store and socket, and a way to run leitnerctl against it."""
import fcntl
import json
import os
import pathlib
import pty
import select
import signal
import socket
import struct
import subprocess
import termios
import time

import pytest

from daemon_support import START_TIMEOUT, device_environment, log_file, private_dir, write_pacing_off


def answers(path) -> bool:
    """True when something accepts connections on the Unix socket `path`."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        s.close()


def daemon_pids(socket_path) -> list[int]:
    """The pids of the leitnerd processes started for `socket_path` (by their command line)."""
    pids = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().split(") ")[1][0]
        except OSError:
            continue
        if state != "Z" and argv and argv[0].endswith(b"leitnerd") and str(socket_path).encode() in argv:
            pids.append(int(entry.name))
    return pids


class CliBox:
    """A store, a socket, a running daemon, and `ctl` to run leitnerctl."""

    def __init__(self, bin_dir: pathlib.Path, tmp: pathlib.Path, pacing=False):
        self.bin_dir = bin_dir
        self.tmp = tmp
        self.store = tmp / "store"
        self.socket = tmp / "run" / "leitnerd.sock"
        self.socket.parent.mkdir(mode=0o700, parents=True)
        self.env = dict(os.environ)
        self.env["XDG_CONFIG_HOME"] = str(tmp / "config")  # no user configuration but pacing's
        if not pacing:
            write_pacing_off(tmp / "config")  # see daemon_support.PACING_OFF
        self.env["XDG_DATA_HOME"] = str(tmp / "data")
        self.env.update(device_environment(tmp))  # the device id, not in the real home
        self.env.pop("NO_COLOR", None)
        self.env.pop("LEITNER_SOCKET", None)
        self.daemon = None

    def start(self):
        self.daemon = subprocess.Popen(
            [str(self.bin_dir / "leitnerd"), "--store", str(self.store), "--socket", str(self.socket)],
            env=self.env, stdout=subprocess.DEVNULL, stderr=open(self.tmp / "leitnerd.log", "wb"))
        deadline = time.monotonic() + START_TIMEOUT
        while not answers(self.socket):
            assert self.daemon.poll() is None, (self.tmp / "leitnerd.log").read_text()
            assert time.monotonic() < deadline, f"leitnerd did not answer within {START_TIMEOUT} s"
            time.sleep(0.02)

    def stop(self):
        if self.daemon and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            self.daemon.wait(10)

    def ctl(self, *args, input=None, autostart=False, env=None):
        """Runs leitnerctl with this box's socket; returns the CompletedProcess (text)."""
        command = [str(self.bin_dir / "leitnerctl"), "--socket", str(self.socket)]
        if not autostart:
            command.append("--no-autostart")
        return subprocess.run(command + [str(a) for a in args], input=input, capture_output=True, text=True,
                              env=env or self.env, timeout=60)

    def ok(self, *args, **kwargs):
        """Runs leitnerctl and expects success; returns standard output."""
        result = self.ctl(*args, **kwargs)
        assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def json(self, *args):
        return json.loads(self.ok("--json", *args))

    def json_lines(self, *args):
        """The `--json` output of a streamed command: one JSON object a line (docs/leitnerctl.md)."""
        return [json.loads(line) for line in self.ok("--json", *args).splitlines()]


def on_terminal(box, *args, columns=100, rows=40, env=None):
    """leitnerctl ARGS on `box` with a pseudo-terminal of `columns` × `rows` for its input and
    output: (exit status, what it wrote, line ends as written)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    process = subprocess.Popen([str(box.bin_dir / "leitnerctl"), "--socket", str(box.socket), "--no-autostart", *args],
                               stdin=follower, stdout=follower, stderr=follower, env=env or box.env)
    os.close(follower)
    output = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the program ended and the terminal is gone
            break
        if not chunk:
            break
        output += chunk
    status = process.wait(10)
    os.close(leader)
    return status, output.decode()


def kill_during_an_import(box: CliBox, source, rng, within: float, *options):
    """The import kill tests' one sequence (R17, R18): `leitnerctl import OPTIONS SOURCE` on `box`,
    its daemon sent SIGKILL at a random instant up to `within` seconds after the import has begun
    to write (a batch staged in the store's tmp/, or the log grown), then started again, and a
    first request made, so that its open has repaired the store. leitnerctl ends when its
    connection is cut; should the import end before it began to write (nothing left to add),
    the kill comes after it."""
    staging, log = private_dir(box.store) / "tmp", log_file(box.store)

    def size():
        return log.stat().st_size if log.exists() else 0

    logged = size()
    importer = subprocess.Popen([str(box.bin_dir / "leitnerctl"), "--socket", str(box.socket), "--no-autostart",
                                 "import", *map(str, options), str(source)], env=box.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (staging.is_dir() and os.listdir(staging)) and size() == logged and importer.poll() is None:
        assert time.monotonic() < deadline, f"the import of {source} wrote nothing in 120 s"
        time.sleep(0.005)
    time.sleep(rng.uniform(0, within))
    box.daemon.send_signal(signal.SIGKILL)
    box.daemon.wait(10)
    importer.wait(60)
    box.start()
    box.ok("status")


def daemon_is_built(bin_dir) -> bool:
    """False while leitnerd is the package skeleton's placeholder (before the daemon lands)."""
    result = subprocess.run([str(bin_dir / "leitnerd"), "--help"], capture_output=True, text=True, timeout=10)
    return "not yet built" not in result.stdout


@pytest.fixture
def box(bin_dir, tmp_path):
    if not daemon_is_built(bin_dir):
        pytest.skip("leitnerd is not built yet (placeholder)")
    b = CliBox(bin_dir, tmp_path)
    b.start()
    yield b
    b.stop()


REPO = pathlib.Path(__file__).resolve().parents[2]
KANA = REPO / "samples" / "kana.tsv"
