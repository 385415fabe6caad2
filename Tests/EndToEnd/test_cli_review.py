"""The review in a real terminal (tmux): flip, correct, wrong, undo, quit and resume; the terminal
modes are the same afterwards, also when the review is killed with SIGTERM."""
import os
import pathlib
import shlex
import signal
import subprocess
import time

import pytest

from cli_box import box  # noqa: F401  (a fixture)

pytestmark = pytest.mark.skipif(subprocess.run(["which", "tmux"], capture_output=True).returncode != 0,
                                reason="tmux is not installed")


class Pane:
    """A detached tmux session of 100×30 on its own tmux server, running one shell script."""

    def __init__(self, tmp: pathlib.Path, script: str, env: dict):
        self.tmux = ["tmux", "-S", str(tmp / "tmux.sock")]
        path = tmp / "pane.sh"
        path.write_text(script)
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()
                           if k in ("PATH", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "LANG", "LC_ALL"))
        subprocess.run(self.tmux + ["new-session", "-d", "-x", "100", "-y", "30", "-s", "review",
                                    f"env {exports} TERM=xterm-256color sh {path}; sleep 60"], check=True)

    def text(self) -> str:
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", "review"], capture_output=True,
                              text=True).stdout

    def wait_for(self, needle: str, timeout=10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if needle in text:
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} not on the screen:\n{text}")
            time.sleep(0.05)

    def keys(self, *keys: str):
        subprocess.run(self.tmux + ["send-keys", "-t", "review", *keys], check=True)

    def close(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)


def review_script(box, tmp, name) -> str:
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    return (f"stty -a > {tmp}/{name}.before\n"
            f"{ctl} review\n"
            f"echo \"exit=$?\" > {tmp}/{name}.exit\n"
            f"stty -a > {tmp}/{name}.after\n"
            f"echo REVIEW-ENDED\n")


def modes(path: pathlib.Path) -> str:
    """`stty -a` without the first line (speed, rows, columns)."""
    return "\n".join(path.read_text().splitlines()[1:])


def test_flip_grade_undo_quit_resume(box, tmp_path):
    box.ok("add", "--id", "a", "uno", "one")
    box.ok("add", "--id", "b", "dos", "two")
    pane = Pane(tmp_path, review_script(box, tmp_path, "first"), box.env)
    try:
        screen = pane.wait_for("1/2 · level")
        assert "Space/Enter show the answer" in screen
        first = "a" if "uno" in screen else "b"
        back = {"a": "one", "b": "two"}[first]
        assert back not in screen.split("level")[-1]  # the back is hidden
        pane.keys("Space")
        screen = pane.wait_for("y/→ correct")
        assert back in screen
        pane.keys("n")  # wrong: the card goes to the end of the queue
        pane.wait_for(f"'{first}' → level 1")
        pane.keys("Enter")
        pane.wait_for("y/→ correct")
        pane.keys("Right")  # correct
        pane.wait_for("→ level 2")
        pane.keys("u")  # undo the correct grade
        pane.wait_for("Undone:")
        pane.keys("q")
        screen = pane.wait_for("REVIEW-ENDED")
        assert "Progress kept: 2 cards to go" in screen
        assert (tmp_path / "first.exit").read_text().strip() == "exit=0"
        assert modes(tmp_path / "first.before") == modes(tmp_path / "first.after")
    finally:
        pane.close()
    test = box.json("status")["test"]
    assert test["failed"] == 1 and test["passed"] == 0 and test["remaining"] == 2

    pane = Pane(tmp_path, review_script(box, tmp_path, "second"), box.env)
    try:
        for _ in range(2):
            pane.wait_for("Space/Enter show the answer")
            pane.keys("Space")
            pane.wait_for("y/→ correct")
            pane.keys("y")
        screen = pane.wait_for("REVIEW-ENDED")
        assert "Today's test is complete" in screen
        assert modes(tmp_path / "second.before") == modes(tmp_path / "second.after")
    finally:
        pane.close()
    assert box.json("status")["test"]["state"] == "completed"


def review_pid(socket) -> int:
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argv[0].endswith(b"leitnerctl") and b"review" in argv and str(socket).encode() in argv:
                return int(entry.name)
    raise AssertionError("no leitnerctl review running")


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP])
def test_terminal_restored_when_killed(box, tmp_path, signal_number):
    box.ok("add", "--id", "a", "uno", "one")
    pane = Pane(tmp_path, review_script(box, tmp_path, "killed"), box.env)
    try:
        pane.wait_for("Space/Enter show the answer")
        os.kill(review_pid(box.socket), signal_number)
        pane.wait_for("REVIEW-ENDED")
        assert (tmp_path / "killed.exit").read_text().strip() == f"exit={128 + signal_number}"
        assert modes(tmp_path / "killed.before") == modes(tmp_path / "killed.after")
    finally:
        pane.close()


def test_ctrl_c_quits_keeping_progress(box, tmp_path):
    box.ok("add", "--id", "a", "uno", "one")
    pane = Pane(tmp_path, review_script(box, tmp_path, "interrupted"), box.env)
    try:
        pane.wait_for("Space/Enter show the answer")
        pane.keys("C-c")
        screen = pane.wait_for("REVIEW-ENDED")
        assert "Progress kept" in screen
        assert modes(tmp_path / "interrupted.before") == modes(tmp_path / "interrupted.after")
    finally:
        pane.close()


def test_review_goes_on_after_the_daemon_closed_its_idle_connection(box, tmp_path):
    """While the person thinks, the review's connection is idle; when 64 other clients arrive
    (MaxConnections=64) it is the one closed to make room. The next grade goes out on a new
    connection, once: the daemon had not read anything on the old one (docs/protocol.md)."""
    from daemon_support import Connection
    box.ok("add", "--id", "a", "uno", "one")
    box.ok("add", "--id", "b", "dos", "two")
    pane = Pane(tmp_path, review_script(box, tmp_path, "reconnect"), box.env)
    others = []
    try:
        pane.wait_for("1/2 · level")
        for _ in range(64):
            c = Connection(box.socket, timeout=10)
            c.call("org.varlink.service.GetInfo")
            others.append(c)
        log = tmp_path / "leitnerd.log"
        deadline = time.monotonic() + 10
        while "closed to make room" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        pane.keys("Space")
        pane.wait_for("y/→ correct")
        pane.keys("y")
        screen = pane.wait_for("→ level 2")
        assert "closed" not in screen
        pane.keys("q")
        pane.wait_for("REVIEW-ENDED")
        assert (tmp_path / "reconnect.exit").read_text().strip() == "exit=0"
    finally:
        for c in others:
            c.close()
        pane.close()
    test = box.json("status")["test"]
    assert test["passed"] == 1 and test["remaining"] == 1
    grades = [line for line in (box.store / ".leitner" / "log").read_text().splitlines()
              if line.split("\t")[1] == "grade"]
    assert len(grades) == 1
