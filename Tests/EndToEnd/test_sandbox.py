"""leitnerd.service's sandbox rebuilt without PID 1 (sandbox.py) — first checked to enforce what
the unit says, so that a program that works inside it would work under systemd."""
import os
import pathlib
import subprocess
import sys

import pytest

from units import SYSTEMD, unit_settings

HERE = pathlib.Path(__file__).parent
UNIT = SYSTEMD / "leitnerd.service"
NOBODY = "65534:65534"


def sandboxed(command: list[str], writable: list[pathlib.Path], **kwargs) -> subprocess.CompletedProcess:
    args = [sys.executable, str(HERE / "sandbox.py"), "--unit", str(UNIT), "--user", NOBODY]
    for path in writable:
        args += ["--writable", str(path)]
    return subprocess.run(args + ["--"] + command, capture_output=True, text=True, timeout=60, **kwargs)


@pytest.fixture
def writable(tmp_path) -> pathlib.Path:
    path = tmp_path / "state"
    path.mkdir()
    os.chown(path, 65534, 65534)
    return path


def test_the_unit_asks_for_what_the_harness_rebuilds():
    settings = unit_settings(UNIT)
    for key, value in [("PrivateNetwork", "yes"), ("PrivateIPC", "yes"), ("ProtectHostname", "yes"),
                       ("ProtectSystem", "strict"), ("ProtectKernelTunables", "yes"), ("PrivateTmp", "yes"),
                       ("ProtectHome", "yes"), ("PrivateDevices", "yes"), ("DynamicUser", "yes"),
                       ("CapabilityBoundingSet", ""), ("NoNewPrivileges", "yes"), ("UMask", "0077"),
                       ("SystemCallArchitectures", "native"), ("RestrictAddressFamilies", "AF_UNIX"),
                       ("MemoryDenyWriteExecute", "yes")]:
        assert settings[f"Service.{key}"] == [value], key


PROBE = """
import mmap, os, socket
def denied(call):
    try:
        call()
    except OSError as error:
        return error.errno
    return 0
print("uid", os.getuid(), "umask", oct(os.umask(0)))
print("unix", denied(lambda: socket.socket(socket.AF_UNIX)))
print("inet", denied(lambda: socket.socket(socket.AF_INET)))
print("netlink", denied(lambda: socket.socket(socket.AF_NETLINK)))
print("wx", denied(lambda: mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)))
print("setpriority", denied(lambda: os.setpriority(os.PRIO_PROCESS, 0, 5)))
print("etc", denied(lambda: open("/etc/leitner-sandbox-probe", "w")))
print("state", denied(lambda: open(os.environ["STATE"] + "/probe", "w").write("x")))
print("home", denied(lambda: os.listdir("/root")))
print("devices", " ".join(sorted(os.listdir("/dev"))))
status = dict(line.split(":\\t") for line in open("/proc/self/status").read().splitlines() if ":\\t" in line)
print("nnp", status["NoNewPrivs"], "capbnd", status["CapBnd"], "filters", status["Seccomp_filters"])
"""


def test_harness_enforces_the_sandbox(writable):
    # The system's python3: the test's own interpreter may live under a hidden home directory.
    result = sandboxed(["/usr/bin/python3", "-c", PROBE], [writable], env={"STATE": str(writable)})
    assert result.returncode == 0, result.stderr
    seen = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert seen["uid"] == "65534 umask 0o77"
    assert seen["unix"] == "0"
    assert seen["inet"] == seen["netlink"] == "97"  # EAFNOSUPPORT: RestrictAddressFamilies=AF_UNIX
    assert seen["wx"] == "1"  # MemoryDenyWriteExecute=
    assert seen["setpriority"] == "1"  # ~@resources
    assert seen["etc"] == "30"  # EROFS: ProtectSystem=strict
    assert seen["state"] == "0"
    assert seen["home"] == "13"  # ProtectHome=
    assert seen["devices"] == "full null random shm urandom zero"
    assert seen["nnp"] == "1 capbnd 0000000000000000 filters 3"
    assert (writable / "probe").read_text() == "x"
    assert not pathlib.Path("/etc/leitner-sandbox-probe").exists()


def test_the_hook_shell_runs_in_the_sandbox(writable):
    """TestReady= is run with /bin/sh -c: exec of the shell and its tools must stay allowed."""
    result = sandboxed(["/bin/sh", "-c", 'echo "$LEITNER_DUE due" > "$STATE/hook"; date +%F >> "$STATE/hook"'],
                       [writable], env={"STATE": str(writable), "LEITNER_DUE": "3", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert (writable / "hook").read_text().startswith("3 due\n")
