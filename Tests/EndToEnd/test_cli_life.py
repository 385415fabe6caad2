"""The daemon's life as a person sees it through leitnerctl (docs/leitnerctl.md, docs/daemon.md):
`leitnerctl stop`; an autostarted daemon that goes away by itself (ExitIdleAfter=); a clock set
back, named by `status`; a mistyped configuration key with the nearest one; the log's origin of
each change; and `make try`, whose last line is a command that works as printed."""
import datetime
import http.client
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse

import pytest

from cli_box import REPO, CliBox, answers, box, daemon_is_built, daemon_pids  # noqa: F401 (box: a fixture)
from daemon_fixtures import make_daemon, root  # noqa: F401 (fixtures)
from daemon_support import device_environment
from test_daemon_days import LIBFAKETIME
from test_daemon_lifecycle import as_nobody, open_socket_to_everyone


@pytest.fixture
def quiet_box(bin_dir, tmp_path):
    """A CliBox whose daemon is not started: leitnerctl starts it (autostart)."""
    if not daemon_is_built(bin_dir):
        pytest.skip("leitnerd is not built yet (placeholder)")
    b = CliBox(bin_dir, tmp_path)
    yield b
    for pid in daemon_pids(b.socket):
        os.kill(pid, signal.SIGTERM)


def gone(pid: int) -> bool:
    """True when the process has exited (a zombie waiting for a parent that never reaps counts)."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z"
    except OSError:
        return True


def wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def autostarted_log(b: CliBox) -> str:
    """The log of the daemon leitnerctl started: in the state directory, named after the socket
    (docs/leitnerctl.md, "Autostart"), never in /tmp or beside the socket."""
    assert not (b.socket.parent / "leitnerd.log").exists()
    return (pathlib.Path(b.env["XDG_STATE_HOME"]) / "leitner" / (b.socket.stem + ".log")).read_text()


# --- leitnerctl stop ---------------------------------------------------------------------------

def test_stop_ends_an_autostarted_daemon_and_starts_none(quiet_box):
    b = quiet_box
    b.ok("add", "--id", "hola", "hola", "hello", autostart=True)
    [pid] = daemon_pids(b.socket)
    result = b.ctl("stop")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"Stopped leitnerd (pid {pid}).\n"
    # `stop` returns once the daemon is gone: no wait here.
    assert gone(pid)
    assert not b.socket.exists()
    log = autostarted_log(b)
    assert "Stop() called by pid" in log and log.rstrip().endswith("leitnerd: stopped")
    # Nothing to stop: said, exit 0, and no daemon is started for it, even with autostart on.
    again = b.ctl("stop", autostart=True)
    assert again.returncode == 0
    assert "not running" in again.stdout
    assert daemon_pids(b.socket) == []
    # The card is kept, and the next command starts a daemon again.
    assert "hola" in b.ok("list", autostart=True)
    assert len(daemon_pids(b.socket)) == 1


def test_stop_ends_a_daemon_started_by_hand_with_exit_status_0(box):
    box.ok("add", "--id", "perro", "perro", "dog")
    result = box.ctl("stop")
    assert result.returncode == 0, result.stderr
    assert box.daemon.wait(10) == 0
    assert not box.socket.exists()
    assert "Stop() called by pid" in (box.tmp / "leitnerd.log").read_text()


def test_stop_is_a_method_of_the_interface(box):
    """Any Varlink client may call it; the reply comes first, then the daemon stops."""
    import varlink
    with varlink.Client.new_with_address(f"unix:{box.socket}") as client:
        with client.open("io.leitner.Box") as remote:
            assert remote.Stop() == {}
    assert box.daemon.wait(10) == 0


STOP_CLIENT = """
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall(b'{"method": "io.leitner.Box.Stop", "parameters": {}}\\0')
data = b""
while not data.endswith(b"\\0"):
    chunk = s.recv(65536)
    if not chunk:
        break
    data += chunk
print(json.loads(data[:-1]).get("error"))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a client as another user")
def test_only_the_daemons_user_may_stop_it(make_daemon):
    """A member of AllowGroup= may use the box, not end it for everyone."""
    d = make_daemon(config="[Daemon]\nAllowGroup=nogroup\n").start()
    open_socket_to_everyone(d)
    result = subprocess.run(as_nobody(sys.executable, "-c", STOP_CLIENT, str(d.socket)), capture_output=True,
                            text=True, timeout=30)
    assert result.stdout.strip() == "org.varlink.service.PermissionDenied", result.stderr
    assert "today" in d.call("Status")
    assert "refused: not the daemon's user or root" in d.log_text()
    assert d.call("Stop") == {}
    assert d.process.wait(10) == 0


# --- ExitIdleAfter= ----------------------------------------------------------------------------

def test_an_autostarted_daemon_exits_after_ten_idle_minutes_by_default(quiet_box):
    b = quiet_box
    b.ok("status", autostart=True)
    [pid] = daemon_pids(b.socket)
    argv = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert b"--autostarted" in argv
    log = autostarted_log(b)
    # Said of the future, with the time each line was written (#25).
    assert "will exit after 600 s without a client (ExitIdleAfter=, started by leitnerctl)" in log
    assert all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d leitnerd: ", line) for line in log.splitlines()), log


def test_a_daemon_started_by_hand_has_no_idle_exit_by_default(box):
    box.ok("status")
    time.sleep(0.2)
    assert "ExitIdleAfter" not in (box.tmp / "leitnerd.log").read_text()


def test_an_autostarted_daemon_goes_away_by_itself(quiet_box, tmp_path):
    b = quiet_box
    conf = tmp_path / "idle.conf"
    conf.write_text("[Daemon]\nExitIdleAfter=1s\n")
    b.ok("--config", conf, "status", autostart=True)
    [pid] = daemon_pids(b.socket)
    assert wait_until(lambda: gone(pid), 10), "the autostarted daemon did not exit when idle"
    assert "no connection for 1 s (ExitIdleAfter=), stopping" in autostarted_log(b)
    assert not answers(b.socket)


def test_exit_idle_after_0_keeps_an_autostarted_daemon(quiet_box, tmp_path):
    b = quiet_box
    conf = tmp_path / "never.conf"
    conf.write_text("[Daemon]\nExitIdleAfter=0\n")
    b.ok("--config", conf, "status", autostart=True)
    assert daemon_pids(b.socket)
    assert "ExitIdleAfter" not in autostarted_log(b)


# --- a clock set back --------------------------------------------------------------------------

@pytest.mark.skipif(LIBFAKETIME is None, reason="libfaketime not found: install the Debian package 'faketime'")
def test_status_says_when_the_clock_is_earlier_than_the_last_change(bin_dir, tmp_path):
    b = CliBox(bin_dir, tmp_path)
    clock = tmp_path / "faketime"
    clock.write_text("@2026-01-05 10:00:00\n")
    b.env.update({"TZ": "UTC", "NO_COLOR": "1"})
    # Only the daemon runs on the faked clock: leitnerctl prints what the daemon says.
    plain = dict(b.env)
    b.env.update({"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(clock), "FAKETIME_NO_CACHE": "1",
                  "DONT_FAKE_MONOTONIC": "1"})
    b.start()
    b.env = plain
    try:
        b.ok("add", "--id", "uno", "uno", "one")
        assert "clock" not in b.ok("status")
        assert b.json("status")["clockBehind"] is None

        clock.write_text("@2026-01-03 09:00:00\n")
        out = b.ok("status")
        assert out.startswith("Today 2026-01-03")
        assert "the clock is earlier than the last change: 2026-01-05T10:00:00+00:00" in out
        assert b.json("status")["clockBehind"] == "2026-01-05T10:00:00+00:00"

        clock.write_text("@2026-01-05 10:00:05\n")
        assert "clock" not in b.ok("status")
    finally:
        b.stop()


# --- configuration typos -----------------------------------------------------------------------

def test_a_mistyped_key_gets_the_nearest_one(quiet_box, tmp_path):
    b = quiet_box
    conf = tmp_path / "typo.conf"
    conf.write_text("[Schedule]\nDayStartAt=05:00\n")
    result = b.ctl("--config", conf, "status")
    assert result.returncode == 1
    assert result.stderr == (f"leitnerctl: {conf}:2: unknown key 'DayStartAt' in section [Schedule], "
                             "did you mean 'DayStartsAt'?\n")
    daemon = subprocess.run([str(b.bin_dir / "leitnerd"), "--config", str(conf), "--socket", str(b.socket)],
                            capture_output=True, text=True, timeout=30, env=b.env)
    assert daemon.returncode == 1
    assert "did you mean 'DayStartsAt'?" in daemon.stderr


# --- the log's origin --------------------------------------------------------------------------

def test_log_shows_a_card_made_by_hand_as_added_by_hand(box):
    box.env["NO_COLOR"] = "1"
    box.ok("add", "--id", "hola", "hola", "hello")
    box.ok("prepare")
    card = box.store / "1" / "mano"
    card.mkdir()
    (card / "front.txt").write_text("mano")
    (card / "back.txt").write_text("hand")
    lines = box.ok("log").splitlines()
    assert lines[0].split()[1:] == ["add", "hola", "→", "1"]
    assert lines[1].split()[1:] == ["add", "(by", "hand)", "mano", "→", "1"]
    # Made while no daemon ran, in a level of the open test: the same words after a restart.
    box.stop()
    card = box.store / "1" / "pie"
    card.mkdir()
    (card / "front.txt").write_text("pie")
    (card / "back.txt").write_text("foot")
    box.start()
    lines = box.ok("log").splitlines()
    assert lines[-1].split()[1:] == ["add", "(by", "hand)", "pie", "→", "1"]
    assert not any("–" in line for line in lines)
    entries = box.json_lines("log")
    assert [e["origin"] for e in entries] == [None, "hand", "hand"]


# --- make try ----------------------------------------------------------------------------------

def test_make_try_ends_with_a_command_that_works_as_printed(bin_dir, tmp_path):
    if os.environ.get("LEITNER_BIN") and pathlib.Path(os.environ["LEITNER_BIN"]).resolve() != (REPO / ".build/debug").resolve():
        pytest.skip("make try runs the debug build, and LEITNER_BIN names another")
    try_dir, sock = tmp_path / "try", tmp_path / "try.sock"
    env = {k: v for k, v in os.environ.items() if k != "LEITNER_SOCKET"}
    env["LEITNER_SOCKET"] = str(tmp_path / "not-this-one.sock")  # the wrapper must not use it
    env.update(device_environment(tmp_path))  # the trial daemon's device id, not in the real home
    made = subprocess.run(["make", "-s", "try", f"TRY_DIR={try_dir}", f"TRY_SOCKET={sock}", "TRY_IDLE=2s"],
                          cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600, env=env)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Imported 'samples/kana.tsv': 208 added" in made.stdout
    last = made.stdout.rstrip("\n").splitlines()[-1]
    assert last == f"  {try_dir}/leitnerctl review"
    # The web's link as leitner-web prints it: a pairing link (an old `/?token=` link answers 410).
    assert "(http://127.0.0.1:8470/pair/…)" in made.stdout and "?token=" not in made.stdout, made.stdout
    # How to drill the kana deck by typing (R32).
    assert f"run '{try_dir}/leitnerctl review --type'" in made.stdout, made.stdout
    # No line sends the newcomer to a 'leitnerctl' that is not on PATH (#35).
    assert "'leitnerctl review'" not in made.stdout, made.stdout
    # The wrapper's --config would hide another box's configuration: --box is refused, not
    # ignored, and nothing is added to the trial box (#35).
    other_box = subprocess.run([str(try_dir / "leitnerctl"), "--box", "german", "add", "Hund", "dog"], cwd=tmp_path,
                               stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, env=env)
    assert other_box.returncode == 64, other_box
    assert "--box is refused" in other_box.stderr and "/leitnerctl --box NAME" in other_box.stderr
    assert not list(try_dir.glob("leitner/*/hund")) and not list(try_dir.glob("leitner/*/Hund"))
    # As printed, from another directory, with LEITNER_SOCKET pointing elsewhere.
    again = subprocess.run(shlex.split(last), cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=60, env=env)
    assert again.returncode == 0, again.stderr
    # R23: the 208 kana wait in new/ and the first test holds NewPerDay=20 of them (issue #28).
    assert "[0 of 20 done · " in again.stdout
    status = json.loads(subprocess.run([str(try_dir / "leitnerctl"), "--json", "status"], capture_output=True,
                                       text=True, timeout=60, env=env, check=True).stdout)
    assert sum(status["counts"].values()) == 208
    assert not (tmp_path / "not-this-one.sock").exists()
    # Its daemon goes away by itself.
    [pid] = daemon_pids(sock)
    assert wait_until(lambda: gone(pid), 15), "the trial's daemon did not exit when idle"
    # The trial keeps its state in its own directory, leitner-web's paired devices among it: the
    # user's state directory holds what it held (leitner-web keeps devices by box name, and the
    # trial's box has the real box's name, so a phone paired with the trial was let into the
    # real box too).
    web = subprocess.Popen([str(try_dir / "leitnerctl"), "web", "--listen", "127.0.0.1:0"], cwd=tmp_path,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        link = urllib.parse.urlsplit(web.stdout.readline().strip())
        connection = http.client.HTTPConnection(link.hostname, link.port, timeout=20)
        connection.request("GET", link.path)
        assert connection.getresponse().status == 303  # paired
        connection.close()
    finally:
        web.terminate()
        web.wait(10)
    assert sorted(p.name for p in (pathlib.Path(env["XDG_STATE_HOME"]) / "leitner").iterdir()) == ["device"]
    # The README's tomorrow for the trial box: its leitnerd under faketime a day on, the same box
    # and the same device (no second device's log appears in the store).
    assert shutil.which("faketime"), "install the Debian package 'faketime'"
    subprocess.run([str(try_dir / "leitnerctl"), "stop"], cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True,
                   timeout=60, env=env, check=True)  # the one web started, on today's clock
    tomorrow = subprocess.Popen(["faketime", "-f", "+1d", str(try_dir / "leitnerd")], cwd=tmp_path,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        assert wait_until(lambda: answers(sock), 15), tomorrow.stderr.read() if tomorrow.poll() is not None else ""
        later = json.loads(subprocess.run([str(try_dir / "leitnerctl"), "--json", "status"], capture_output=True,
                                          text=True, timeout=60, env=env, check=True).stdout)
        assert datetime.date.fromisoformat(later["today"]) == datetime.date.fromisoformat(status["today"]) + datetime.timedelta(days=1)
        assert len(list((try_dir / "leitner" / ".leitner" / "devices").iterdir())) == 1
    finally:
        tomorrow.terminate()
        tomorrow.wait(10)
