"""The systemd units: they verify without a warning, the system service's sandbox scores
an exposure of 1.0 or less, the timer's calendar expression is valid, and the units agree with
each other and with the configuration defaults on paths and times."""
import re
import subprocess

import pytest

from units import SYSTEMD, UNIT_NAMES, copy_units, man_tree, runtime_env, unit_settings, verify

SYSTEM_SOCKET = "/run/leitner/leitnerd.sock"
USER_SOCKET = "%t/leitner/leitnerd.sock"


@pytest.fixture
def analyze_env(tmp_path):
    return runtime_env(tmp_path, man_tree(tmp_path / "man"))


@pytest.mark.parametrize("user", [False, True], ids=["system", "user"])
def test_units_verify_without_warnings(tmp_path, bin_dir, analyze_env, user):
    source = SYSTEMD / "user" if user else SYSTEMD
    units = copy_units(source, tmp_path / "units", bin_dir)
    result = verify(units, user=user, env=analyze_env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == ""


def test_verify_catches_a_missing_binary(tmp_path, bin_dir, analyze_env):
    """The verify test can fail: a unit whose ExecStart= is missing is reported."""
    units = copy_units(SYSTEMD, tmp_path / "units", tmp_path / "nowhere")
    result = verify(units, user=False, env=analyze_env)
    assert result.returncode != 0
    assert "nowhere/leitnerd" in result.stderr


def exposure(unit) -> float:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True, text=True, timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


@pytest.mark.parametrize("name", ["leitnerd.service", "leitner-prepare.service", "leitner-web.service"])
def test_system_services_expose_at_most_1_0(name):
    assert exposure(SYSTEMD / name) <= 1.0


def test_exposure_parser_sees_an_unsandboxed_unit(tmp_path):
    plain = tmp_path / "plain.service"
    plain.write_text("[Service]\nExecStart=/bin/true\n")
    assert exposure(plain) > 5.0


@pytest.mark.parametrize("source", [SYSTEMD, SYSTEMD / "user"], ids=["system", "user"])
def test_timer_fires_daily_at_the_default_day_start(source):
    """04:00 is DayStartsAt='s default (docs/configuration.md): the test is prepared as the learning day begins;
    Persistent= catches up after a machine was off."""
    timer = unit_settings(source / "leitner-prepare.timer")
    (calendar,) = timer["Timer.OnCalendar"]
    result = subprocess.run(["systemd-analyze", "calendar", calendar], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Normalized form: *-*-* 04:00:00" in result.stdout
    assert timer["Timer.Persistent"] == ["true"]


@pytest.mark.parametrize(
    "source,socket_path", [(SYSTEMD, SYSTEM_SOCKET), (SYSTEMD / "user", USER_SOCKET)], ids=["system", "user"]
)
def test_units_agree_on_the_socket(source, socket_path):
    socket = unit_settings(source / "leitnerd.socket")
    assert socket["Socket.ListenStream"] == [socket_path]
    assert socket["Socket.RemoveOnStop"] == ["yes"]
    daemon = unit_settings(source / "leitnerd.service")
    assert daemon["Service.Type"] == ["notify"]
    assert f"--socket {socket_path}" in daemon["Service.ExecStart"][0]
    prepare = unit_settings(source / "leitner-prepare.service")
    (command,) = prepare["Service.ExecStart"]
    assert command.split()[1:] == ["--socket", socket_path, "--no-autostart", "prepare"]
    for unit in (daemon, prepare):
        assert unit["Unit.Requires"] == ["leitnerd.socket"]


def test_system_socket_is_for_the_leitner_group():
    socket = unit_settings(SYSTEMD / "leitnerd.socket")
    assert socket["Socket.SocketGroup"] == ["leitner"]
    assert socket["Socket.SocketMode"] == ["0660"]
    assert (SYSTEMD / "leitner.sysusers").read_text().split() == ["g", "leitner", "-"]


def test_system_daemon_keeps_its_store_and_leaves_the_socket_directory_alone():
    daemon = unit_settings(SYSTEMD / "leitnerd.service")
    assert daemon["Service.StateDirectory"] == ["leitner leitner-device"]
    assert "--store %S/leitner " in daemon["Service.ExecStart"][0]
    # The machine's device id (docs/sync.md) is kept outside the store, which may be synced.
    assert daemon["Service.Environment"] == ["XDG_STATE_HOME=%S/leitner-device"]
    assert "--config /etc/leitner/leitner.conf" in daemon["Service.ExecStart"][0]
    # /run/leitner is the socket unit's: as a RuntimeDirectory= it would be chowned with the
    # socket file in it at each start, and removed (socket path included) at idle exit.
    assert "Service.RuntimeDirectory" not in daemon
    assert unit_settings(SYSTEMD / "leitnerd.socket")["Socket.DirectoryMode"] == ["0755"]


def test_prepare_runs_as_the_daemons_user_with_the_socket_group():
    daemon = unit_settings(SYSTEMD / "leitnerd.service")
    prepare = unit_settings(SYSTEMD / "leitner-prepare.service")
    assert prepare["Service.DynamicUser"] == daemon["Service.DynamicUser"] == ["yes"]
    assert prepare["Service.User"] == daemon["Service.User"]
    assert prepare["Service.SupplementaryGroups"] == ["leitner"]


def test_every_unit_is_installed_in_both_sets():
    for name in UNIT_NAMES:
        assert (SYSTEMD / name).is_file() and (SYSTEMD / "user" / name).is_file()


# The template units (R29): one daemon a box, on the socket leitnerctl --box NAME looks for.
SYSTEM_BOX_SOCKET = "/run/leitner/%I.sock"
USER_BOX_SOCKET = "%t/leitner/%I.sock"


@pytest.mark.parametrize(
    "source,socket_path", [(SYSTEMD, SYSTEM_BOX_SOCKET), (SYSTEMD / "user", USER_BOX_SOCKET)], ids=["system", "user"]
)
def test_template_units_agree_on_the_boxs_socket(source, socket_path):
    socket = unit_settings(source / "leitnerd@.socket")
    assert socket["Socket.ListenStream"] == [socket_path]
    assert socket["Socket.RemoveOnStop"] == ["yes"]
    daemon = unit_settings(source / "leitnerd@.service")
    assert daemon["Service.Type"] == ["notify"]
    (command,) = daemon["Service.ExecStart"]
    # --box refuses an instance name that is no box name, and finds the user's NAME.conf.
    assert "--box %I " in command and f"--socket {socket_path}" in command
    prepare = unit_settings(source / "leitner-prepare@.service")
    (command,) = prepare["Service.ExecStart"]
    assert command.split()[-4:] == ["--socket", socket_path, "--no-autostart", "prepare"]
    for unit in (daemon, prepare):
        assert unit["Unit.Requires"] == ["leitnerd@%i.socket"]
        assert unit["Unit.After"] == ["leitnerd@%i.socket"]
    assert daemon["Install.Also"] == ["leitnerd@%i.socket"]
    timer = unit_settings(source / "leitner-prepare@.timer")
    assert timer["Timer.OnCalendar"] == unit_settings(source / "leitner-prepare.timer")["Timer.OnCalendar"]


def test_user_template_daemon_finds_the_boxs_store_by_name():
    """The user's box NAME: the store $XDG_DATA_HOME/leitner/boxes/NAME and NAME.conf when it
    exists, both found by --box, so no --store nor --config in the unit."""
    (command,) = unit_settings(SYSTEMD / "user" / "leitnerd@.service")["Service.ExecStart"]
    assert "--store" not in command and "--config" not in command


def test_system_template_daemon_keeps_each_box_in_its_own_state_directory():
    daemon = unit_settings(SYSTEMD / "leitnerd@.service")
    shared = unit_settings(SYSTEMD / "leitnerd.service")
    assert daemon["Service.StateDirectory"] == ["leitner-box-%I leitner-device"]
    (command,) = daemon["Service.ExecStart"]
    assert "--store %S/leitner-box-%I " in command and "--config /etc/leitner/%I.conf " in command
    assert daemon["Service.Environment"] == shared["Service.Environment"]
    assert daemon["Service.User"] == shared["Service.User"]
    assert "Service.RuntimeDirectory" not in daemon
    # The same sandbox as the shared box's daemon, line for line.
    sandbox = {key: value for key, value in shared.items() if key.startswith("Service.")
               and key not in ("Service.ExecStart", "Service.StateDirectory")}
    assert {key: daemon[key] for key in sandbox} == sandbox


@pytest.mark.parametrize("name", ["leitnerd@.service", "leitner-prepare@.service"])
def test_system_template_services_expose_at_most_1_0(tmp_path, name):
    # security wants an instance: the template copied under an instance's name.
    instance = tmp_path / name.replace("@.", "@kana.")
    instance.write_text((SYSTEMD / name).read_text())
    assert exposure(instance) <= 1.0
