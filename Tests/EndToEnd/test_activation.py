"""leitnerd as the units run it: socket activation through the real
systemd-socket-activate with the user unit's socket path and command line; readiness on
NOTIFY_SOCKET; the system unit's command line, configuration and socket (mode 0660, group
leitner) inside the service's sandbox (sandbox.py) with group members let in and strangers
refused; and ExitIdleAfter= idle exit with re-activation by the next connection.

The three cases that failed against an early copy of the daemon (hook never started, a
supplementary `leitner` member refused, no idle exit) pass against the daemon on main: it reads
its configuration file (TestReady=, AllowGroup=, ExitIdleAfter=) and checks SO_PEERGROUPS."""
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

import pytest

from activation import NotifyListener, SocketUnit, call, exchange, wait_for
from units import INSTALLED_BIN, SYSTEMD, unit_settings

HERE = pathlib.Path(__file__).parent
NOBODY = 65534


def exec_start(unit: pathlib.Path, bin_dir: pathlib.Path, replace: dict[str, str]) -> list[str]:
    """The unit's ExecStart= with the program in bin_dir and the given words replaced."""
    command = unit_settings(unit)["Service.ExecStart"][0].replace(INSTALLED_BIN, f"{bin_dir.resolve()}/")
    for old, new in replace.items():
        command = command.replace(old, new)
    return command.split()


def user_environment(tmp_path: pathlib.Path) -> dict[str, str]:
    """What a user manager gives its services: HOME, the XDG directories, a runtime dir. The
    state directory is the test's own: the daemon draws its device id there on its first start
    (docs/sync.md), never in the real home."""
    home = tmp_path / "home"
    runtime = tmp_path / "runtime"
    for path in (home, runtime):
        path.mkdir(mode=0o700)
    return {"HOME": str(home), "XDG_RUNTIME_DIR": str(runtime), "PATH": "/usr/bin:/bin",
            "XDG_DATA_HOME": str(home / ".local/share"), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_STATE_HOME": str(home / ".local/state")}


def stop(process: subprocess.Popen) -> int:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    return process.wait(timeout=20)


def test_user_units_socket_activation_through_systemd_socket_activate(tmp_path, bin_dir):
    env = user_environment(tmp_path)
    runtime = env["XDG_RUNTIME_DIR"]
    (listen,) = unit_settings(SYSTEMD / "user/leitnerd.socket")["Socket.ListenStream"]
    path = pathlib.Path(listen.replace("%t", runtime))
    path.parent.mkdir(mode=0o700)
    command = exec_start(SYSTEMD / "user/leitnerd.service", bin_dir, {"%t": runtime})
    setenv = [f"--setenv={key}={value}" for key, value in env.items()]
    activator = subprocess.Popen(["systemd-socket-activate", "--listen", str(path)] + setenv + command,
                                 stderr=subprocess.PIPE, text=True)
    try:
        wait_for(path.exists, 10, "systemd-socket-activate to listen")
        inode = path.stat().st_ino
        reply = call(path, "io.leitner.Box.Status")
        assert "error" not in reply, reply
        assert reply["parameters"]["counts"]["1"] == 0
        # The daemon served the socket it was handed, in place, and the user unit's default
        # store (no --store) is the user's data directory.
        assert path.stat().st_ino == inode
        assert (pathlib.Path(env["XDG_DATA_HOME"]) / "leitner" / "1").is_dir()
        # Its device id was drawn at this first start, in the user's state directory (docs/sync.md).
        assert (pathlib.Path(env["XDG_STATE_HOME"]) / "leitner" / "device").read_text().strip()
        assert activator.poll() is None
    finally:
        code = stop(activator)
    assert code == 0, activator.stderr.read()


def test_readiness_and_stopping_on_notify_socket(tmp_path, bin_dir):
    env = user_environment(tmp_path)
    notify = NotifyListener(tmp_path / "notify")
    path = tmp_path / "leitnerd.sock"
    daemon = subprocess.Popen([str(bin_dir / "leitnerd"), "--store", str(tmp_path / "store"), "--socket", str(path)],
                              env=dict(env, NOTIFY_SOCKET=str(notify.path)), stderr=subprocess.PIPE, text=True)
    try:
        ready = notify.expect("READY")
        assert ready["READY"] == "1" and ready.get("STATUS"), ready
        # Ready means serving: no wait, no retry.
        assert "parameters" in call(path, "io.leitner.Box.Status")
        daemon.send_signal(signal.SIGTERM)
        assert notify.expect("STOPPING")["STOPPING"] == "1"
        assert daemon.wait(timeout=20) == 0, daemon.stderr.read()
    finally:
        stop(daemon)
        notify.close()


@pytest.fixture
def shared_box(tmp_path, bin_dir):
    """The system unit's daemon in its sandbox, socket-activated on a root:leitner 0660 socket
    like leitnerd.socket's, with the shipped /etc/leitner/leitner.conf plus a TestReady= hook."""
    public = pathlib.Path(tempfile.mkdtemp(prefix="leitner-shared-"))  # reachable by other uids
    public.chmod(0o755)
    # %S (/var/lib): the unit's two state directories, the store and the device id's.
    lib, hook, conf_dir, notify_dir = public / "lib", public / "hook", public / "conf", public / "notify"
    lib.mkdir()
    state, device_state = lib / "leitner", lib / "leitner-device"
    for path in (state, device_state, hook, conf_dir, notify_dir):
        path.mkdir()
        os.chown(path, NOBODY, NOBODY)
    gid = 64999
    groups = tmp_path / "group"
    groups.write_text("".join(line + "\n" for line in pathlib.Path("/etc/group").read_text().splitlines()
                              if not line.startswith("leitner:")) + f"leitner:x:{gid}:\n")
    conf = conf_dir / "leitner.conf"
    conf.write_text((SYSTEMD / "leitner.conf").read_text()
                    + f'TestReady=echo "$LEITNER_DATE $LEITNER_DUE $LEITNER_LEVELS" > {hook}/ready\n')
    conf.chmod(0o644)
    settings = unit_settings(SYSTEMD / "leitnerd.socket")
    unit = SocketUnit(public / "run/leitnerd.sock", mode=int(settings["Socket.SocketMode"][0], 8), gid=gid)
    (public / "run").chmod(0o755)
    notify = NotifyListener(notify_dir / "socket")
    service = SYSTEMD / "leitnerd.service"
    command = exec_start(service, bin_dir, {
        "/etc/leitner/leitner.conf": str(conf), "%S": str(lib), "/run/leitner/leitnerd.sock": str(unit.path)})
    # The unit's Environment= (the device id's XDG_STATE_HOME), as systemd passes it.
    environment = dict(assignment.replace("%S", str(lib)).split("=", 1)
                       for line in unit_settings(service).get("Service.Environment", []) for assignment in line.split())
    sandbox = [sys.executable, str(HERE / "sandbox.py"), "--unit", str(service),
               "--user", f"{NOBODY}:{NOBODY}", "--writable", str(state), "--writable", str(device_state),
               "--writable", str(hook), "--writable", str(conf_dir), "--writable", str(notify_dir),
               "--bind", f"{groups}:/etc/group", "--"]
    daemon = unit.start(sandbox + command, {"PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": str(notify.path), **environment},
                        stderr=subprocess.PIPE, text=True)
    try:
        try:
            notify.expect("READY")
        except AssertionError:
            stop(daemon)
            raise AssertionError(daemon.stderr.read())
        # The device id drawn at the first start, in the unit's own state directory, not in the store.
        assert (device_state / "leitner" / "device").is_file()
        yield unit, daemon, hook, gid
    finally:
        code = stop(daemon)
        unit.close()
        notify.close()
        shutil.rmtree(public)
    log = daemon.stderr.read()
    print(log)  # shown with a failing test
    assert code == 0, log


def test_daemon_serves_and_runs_its_hook_inside_the_system_sandbox(shared_box):
    unit, daemon, hook, _ = shared_box
    added = call(unit.path, "io.leitner.Box.Add", {"front": {"name": "front.txt", "text": "猫"},
                                                  "back": {"name": "back.txt", "text": "neko"}, "id": "neko"})
    # The shipped configuration paces new cards (R23, NewPerDay=20 by default): the card waits
    # in new/ and the day's Prepare admits it into level 1, so the test has it.
    assert added["parameters"]["card"]["level"] == "new", added
    test = call(unit.path, "io.leitner.Box.Prepare")["parameters"]["test"]
    assert test["remaining"] == 1
    assert (pathlib.Path(added["parameters"]["card"]["front"]["path"]).parents[2] / "1" / "neko").is_dir()
    try:
        ready = wait_for(lambda: (hook / "ready").exists() and (hook / "ready").read_text(), 10, "the hook")
    except AssertionError:
        stop(daemon)
        raise AssertionError("TestReady= did not run: " + daemon.stderr.read())
    date, due, *levels = ready.split()
    assert (date, due, levels) == (test["date"], "1", test["levels"])
    assert daemon.poll() is None


CLIENT = """
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
try:
    s.connect(sys.argv[1])
    s.sendall(b'{"method":"io.leitner.Box.Status","parameters":{}}\\0')
    reply = s.recv(65536)
except OSError as error:
    print("refused", error.errno)
else:
    print("answered" if b'"parameters"' in reply else "refused " + repr(reply))
"""


@pytest.mark.parametrize("groups,expected", [("member", "answered"), ("stranger", "refused")])
def test_only_the_leitner_group_reaches_the_shared_box(shared_box, groups, expected):
    """The socket file (0660, group leitner) and the daemon's AllowGroup= check (SO_PEERGROUPS)
    together: a learner in the group as a supplementary group gets in, anyone else does not."""
    unit, daemon, _, gid = shared_box
    extra = str(gid) if groups == "member" else "12345"
    result = subprocess.run(["setpriv", "--reuid=12345", "--regid=12345", f"--groups={extra}",
                             "/usr/bin/python3", "-c", CLIENT, str(unit.path)],
                            capture_output=True, text=True, timeout=30)
    assert result.stdout.split()[0] == expected, result.stdout + result.stderr
    assert daemon.poll() is None


def test_idle_exit_and_reactivation_by_the_next_client(tmp_path, bin_dir):
    """ExitIdleAfter=: the activated daemon exits when idle, leaves the socket to its owner, and
    the next connection — queued on the socket while no daemon runs — starts it again."""
    conf = tmp_path / "leitner.conf"
    conf.write_text("[Daemon]\nExitIdleAfter=1s\n")
    unit = SocketUnit(tmp_path / "leitnerd.sock")
    command = [str(bin_dir / "leitnerd"), "--config", str(conf), "--store", str(tmp_path / "store"),
               "--socket", str(unit.path)]
    env = user_environment(tmp_path)
    try:
        for round, method, parameters in [
            (1, "io.leitner.Box.Add", {"front": {"name": "front.txt", "text": "犬"},
                                       "back": {"name": "back.txt", "text": "inu"}, "id": "inu"}),
            (2, "io.leitner.Box.Show", {"id": "inu"}),
        ]:
            with socket.socket(socket.AF_UNIX) as client:
                client.settimeout(20)
                client.connect(str(unit.path))  # accepted by the backlog: no daemon yet
                assert unit.pending(5), "a waiting client must make the socket readable"
                daemon = unit.start(command, env, stderr=subprocess.PIPE, text=True)
                reply = exchange(client, method, parameters)
                assert reply["parameters"]["card"]["id"] == "inu", (round, reply)
            assert daemon.wait(timeout=15) == 0, daemon.stderr.read()
            assert unit.path.exists(), "the daemon removed a socket it did not create"
            assert not unit.pending(0), "no client left waiting"
    finally:
        unit.close()
