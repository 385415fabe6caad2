"""leitnerd's life cycle (docs/daemon.md): command line, store lock (R19), the socket and its
directory, socket activation, readiness, signals, reload, idle exit, peer credentials."""
import os
import pathlib
import pwd
import re
import grp
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time

import pytest

from daemon_fixtures import daemon, make_daemon, root  # noqa: F401 (fixtures)
from daemon_support import Connection, Daemon

BOX = "io.leitner.Box"


def run_leitnerd(bin_dir, *args, env=None, timeout=20):
    # Its own XDG_STATE_HOME, so that a daemon that got as far as drawing a device id writes
    # it there, never into the real home directory.
    with tempfile.TemporaryDirectory(prefix="ld-state-") as state:
        env = dict(os.environ if env is None else env)
        env.setdefault("XDG_STATE_HOME", state)
        return subprocess.run([str(bin_dir / "leitnerd"), *args], capture_output=True, text=True, timeout=timeout,
                              env=env)


def test_help_and_version(bin_dir):
    shown = run_leitnerd(bin_dir, "--help")
    assert shown.returncode == 0
    assert "Usage: leitnerd" in shown.stdout and "--socket" in shown.stdout
    version = run_leitnerd(bin_dir, "--version")
    assert version.returncode == 0 and version.stdout.startswith("leitnerd ")


@pytest.mark.parametrize("args, message", [
    (["--frobnicate"], "unknown option '--frobnicate'"),
    (["--store"], "option '--store' needs a value"),
    (["stray"], "unexpected argument 'stray'"),
    (["--varlink=tcp:localhost:1"], "unsupported Varlink address"),
])
def test_usage_errors_exit_64(bin_dir, args, message):
    result = run_leitnerd(bin_dir, *args)
    assert result.returncode == 64
    assert message in result.stderr
    assert "Usage: leitnerd" in result.stderr


def test_broken_configuration_names_file_and_line(bin_dir, root):
    config = root / "bad.conf"
    config.write_text("[Daemon]\nMaxConnections=0\n")
    result = run_leitnerd(bin_dir, "--config", str(config), "--store", str(root / "s"), "--socket", str(root / "s.sock"))
    assert result.returncode == 1
    assert f"{config}:2:" in result.stderr
    assert not (root / "s.sock").exists()


def test_missing_configuration_file_is_an_error(bin_dir, root):
    result = run_leitnerd(bin_dir, "--config", str(root / "none.conf"), "--store", str(root / "s"),
                          "--socket", str(root / "s.sock"))
    assert result.returncode == 1
    assert "none.conf" in result.stderr


def test_second_daemon_on_the_same_store_exits_naming_the_holder(make_daemon, root):
    first = make_daemon().start()
    second = make_daemon(socket_path=root / "run2" / "other.sock")
    second.start(wait=False)
    assert second.process.wait(20) == 1
    text = second.log_text()
    assert f"store '{first.store}" in text or "store '" in text
    assert f"is in use by process {first.process.pid}" in text
    # The first goes on serving.
    assert "today" in first.call("Status")


def test_socket_and_directory_are_private(daemon):
    mode = stat.S_IMODE(os.stat(daemon.socket).st_mode)
    assert mode == 0o600
    directory = os.stat(daemon.socket.parent)
    assert stat.S_IMODE(directory.st_mode) == 0o700
    assert directory.st_uid == os.geteuid()


def test_socket_mode_from_configuration(make_daemon):
    d = make_daemon(config="[Daemon]\nSocketMode=0660\n").start()
    assert stat.S_IMODE(os.stat(d.socket).st_mode) == 0o660


def test_sigterm_stops_cleanly_and_removes_the_socket(daemon):
    assert daemon.stop() == 0
    assert not daemon.socket.exists()
    assert "stopped" in daemon.log_text()


def test_sigint_stops_cleanly(daemon):
    daemon.signal(signal.SIGINT)
    assert daemon.process.wait(20) == 0
    assert not daemon.socket.exists()


def test_a_stale_socket_file_is_replaced(make_daemon, root):
    path = root / "run" / "leitnerd.sock"
    path.parent.mkdir(mode=0o700)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))
    stale.close()  # the file stays; nothing listens on it
    d = make_daemon().start()
    assert "today" in d.call("Status")
    assert "stale socket" in d.log_text()


def test_a_live_socket_is_never_taken_over(make_daemon, root):
    first = make_daemon().start()
    second = make_daemon(store=root / "store2")
    second.start(wait=False)
    assert second.process.wait(20) == 1
    assert "in use" in second.log_text()
    assert first.socket.exists()
    assert "today" in first.call("Status")


def test_a_file_that_is_not_a_socket_is_not_replaced(make_daemon, root):
    path = root / "run" / "leitnerd.sock"
    path.parent.mkdir(mode=0o700)
    path.write_text("precious")
    d = make_daemon()
    d.start(wait=False)
    assert d.process.wait(20) == 1
    assert "not a socket" in d.log_text()
    assert path.read_text() == "precious"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make a directory another user owns")
def test_a_socket_directory_owned_by_another_user_is_refused(make_daemon, root):
    nobody = pwd.getpwnam("nobody")
    directory = root / "run"
    directory.mkdir(mode=0o700)
    os.chown(directory, nobody.pw_uid, nobody.pw_gid)
    d = make_daemon()
    d.start(wait=False)
    assert d.process.wait(20) == 1
    assert "owned by uid" in d.log_text()


def test_varlink_activator_address(make_daemon, root):
    path = root / "va.sock"
    d = make_daemon(args=["--varlink=unix:" + str(path)])
    d.socket = path  # --varlink overrides --socket (it comes last)
    d.start()
    assert "today" in d.call("Status")


def socket_activate(path):
    """systemd-socket-activate listening on `path`. It gives its command only a few variables
    (HOME, PATH…): XDG_STATE_HOME is passed on by name, so that the device id stays under the
    test's root, not in the home directory."""
    return ["systemd-socket-activate", "-l", str(path), "-E", "XDG_STATE_HOME"]


def test_socket_activation_with_systemd_socket_activate(make_daemon, root):
    path = root / "activated.sock"
    d = make_daemon(socket_path=root / "unused" / "x.sock", prefix=socket_activate(path))
    d.start(wait=False)
    d.socket = path
    d.wait_ready()
    assert "today" in d.call("Status")
    assert "passed by systemd" in d.log_text()
    assert not (root / "unused" / "x.sock").exists()
    assert d.stop() == 0
    # The daemon removes only a socket it created itself.
    assert path.exists()


def test_exit_idle_after(make_daemon, root):
    path = root / "activated.sock"
    d = make_daemon(config="[Daemon]\nExitIdleAfter=1s\n", prefix=socket_activate(path))
    d.start(wait=False)
    d.socket = path
    d.wait_ready()
    assert d.process.wait(20) == 0
    assert "ExitIdleAfter" in d.log_text()


def receive_notifications(listener, until, timeout=20.0):
    listener.settimeout(timeout)
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = listener.recv(4096).decode()
        seen.append(data)
        if until in data:
            return seen
    raise AssertionError(f"no {until!r} in {seen}")


@pytest.mark.parametrize("abstract", [False, True])
def test_readiness_and_stopping_are_notified(make_daemon, root, abstract):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if abstract:
        name = f"leitnerd-test-{os.getpid()}-{time.monotonic_ns()}"
        listener.bind("\0" + name)
        address = "@" + name
    else:
        listener.bind(str(root / "notify"))
        address = str(root / "notify")
    d = make_daemon(env={"NOTIFY_SOCKET": address}).start(wait=False)
    ready = "".join(receive_notifications(listener, "READY=1"))
    assert "STATUS=" in ready
    assert "cards due" in ready or "completed" in ready
    d.wait_ready()
    d.signal(signal.SIGTERM)
    receive_notifications(listener, "STOPPING=1")
    assert d.process.wait(20) == 0
    listener.close()


def wait_for_log(d, text, timeout=10.0):
    deadline = time.monotonic() + timeout
    while text not in d.log_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert text in d.log_text()


def test_sighup_reloads_the_configuration(make_daemon):
    d = make_daemon(config="[Daemon]\nIdleTimeout=30s\n").start()
    d.config_path.write_text("[Daemon]\nIdleTimeout=1s\n")
    d.signal(signal.SIGHUP)
    wait_for_log(d, "configuration reloaded")
    with d.connect() as staller:
        staller.send_raw(b'{"method"')
        assert staller.at_eof(timeout=10)   # the new IdleTimeout applies


def test_sighup_with_a_broken_file_keeps_the_old_configuration(make_daemon):
    d = make_daemon(config="[Daemon]\nIdleTimeout=30s\n").start()
    d.config_path.write_text("[Daemon]\nNoSuchKey=1\n")
    d.signal(signal.SIGHUP)
    wait_for_log(d, "not reloaded")
    assert "today" in d.call("Status")


def as_nobody(*command):
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]


CLIENT = """
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(sys.argv[1])
try:
    s.sendall(b'{"method": "io.leitner.Box.Status", "parameters": {}}\\0')
    data = s.recv(65536)
except (BrokenPipeError, ConnectionResetError):
    data = b""
print("REPLY" if data else "CLOSED")
"""


def open_socket_to_everyone(d):
    os.chmod(d.root, 0o755)
    os.chmod(d.socket.parent, 0o755)
    os.chmod(d.socket, 0o666)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a client as another user")
def test_a_client_of_another_uid_is_refused(daemon):
    open_socket_to_everyone(daemon)
    result = subprocess.run(as_nobody(sys.executable, "-c", CLIENT, str(daemon.socket)), capture_output=True,
                            text=True, timeout=30)
    assert result.stdout.strip() == "CLOSED", result.stderr
    assert "refused" in daemon.log_text()
    assert "today" in daemon.call("Status")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a client as another user")
def test_allow_group_lets_its_members_in(make_daemon):
    d = make_daemon(config="[Daemon]\nAllowGroup=nogroup\n").start()
    open_socket_to_everyone(d)
    result = subprocess.run(as_nobody(sys.executable, "-c", CLIENT, str(d.socket)), capture_output=True,
                            text=True, timeout=30)
    assert result.stdout.strip() == "REPLY", result.stderr


def test_log_lines_have_priority_prefixes_under_the_journal(make_daemon, root):
    # JOURNAL_STREAM names stderr's device and inode: the daemon's stderr is the log file.
    d = make_daemon()
    d.log_path.touch()
    st = os.stat(d.log_path)
    d.env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    d.start()
    d.stop()
    lines = d.log_text().splitlines()
    assert lines and all(line.startswith("<") and line[1].isdigit() and line[2] == ">" for line in lines), lines


def test_plain_log_lines_otherwise_with_their_time_in_a_file(daemon):
    """Standard error is a file here: each line says when it was written (#25)."""
    daemon.stop()
    lines = daemon.log_text().splitlines()
    assert lines and all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d leitnerd: ", line)
                         for line in lines), lines


def test_plain_log_lines_on_a_pipe(daemon):
    """On a terminal or a pipe, the lines read like any Unix tool's (whoever reads them says when)."""
    daemon.stop()
    process = subprocess.Popen([str(daemon.bin_dir / "leitnerd"), "--store", str(daemon.store),
                                "--socket", str(daemon.socket)], env=daemon.env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 10
        while not daemon.socket.exists():
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.02)
    finally:
        process.terminate()
    lines = process.communicate(timeout=10)[1].splitlines()
    assert lines and all(line.startswith("leitnerd: ") for line in lines), lines
