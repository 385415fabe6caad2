"""`make install` / `make uninstall`: static release binaries that run with an empty
environment and no Swift runtime, units rewritten to the install prefix that still verify, an
existing /etc/leitner/leitner.conf never overwritten, and an uninstall that removes exactly what
install put there."""
import os
import pathlib
import pwd
import shutil
import signal
import subprocess

import pytest

import shell_completion
from cli_box import daemon_pids
from daemon_support import DEVICE
from units import ROOT, SYSTEMD, UNIT_NAMES, copy_units, runtime_env, verify

PREFIX = "/usr"


def make(target: str, destdir: pathlib.Path) -> subprocess.CompletedProcess:
    # The first call builds the release binaries (minutes); later ones find them built.
    result = subprocess.run(
        ["make", "-s", target, f"DESTDIR={destdir}", f"PREFIX={PREFIX}"],
        cwd=ROOT, capture_output=True, text=True, timeout=3600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def expected_files() -> set[str]:
    files = {"usr/bin/leitnerd", "usr/bin/leitnerctl", "usr/bin/leitner-web", "usr/lib/sysusers.d/leitner.conf",
             "usr/share/man/man1/leitnerctl.1", "usr/share/man/man1/leitner-web.1", "usr/share/man/man8/leitnerd.8",
             "usr/share/bash-completion/completions/leitnerctl", "usr/share/zsh/site-functions/_leitnerctl",
             "usr/share/fish/vendor_completions.d/leitnerctl.fish", "usr/share/doc/leitner/rules.md",
             "etc/leitner/leitner.conf"}
    if (ROOT / "man" / "leitner.conf.5").exists():
        files.add("usr/share/man/man5/leitner.conf.5")
    for name in UNIT_NAMES:
        files |= {f"usr/lib/systemd/system/{name}", f"usr/lib/systemd/user/{name}"}
    return files


def files_under(root: pathlib.Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir()}


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> pathlib.Path:
    destdir = tmp_path_factory.mktemp("destdir")
    make("install", destdir)
    return destdir


def test_install_puts_every_file_and_nothing_else(installed):
    assert files_under(installed) == expected_files()
    assert os.stat(installed / "usr/bin/leitnerd").st_mode & 0o777 == 0o755
    assert os.stat(installed / "usr/lib/systemd/system/leitnerd.service").st_mode & 0o777 == 0o644
    assert (installed / "etc/leitner/leitner.conf").read_bytes() == (SYSTEMD / "leitner.conf").read_bytes()


@pytest.mark.parametrize("program", ["leitnerd", "leitner-web"])
def test_installed_programs_need_no_swift_runtime(installed, program):
    path = installed / "usr/bin" / program
    linked = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=True).stdout
    assert "libswift" not in linked and "not found" not in linked, linked
    assert "libFoundation" not in linked, linked


def program_interpreter(path: pathlib.Path) -> bytes | None:
    """The dynamic loader an ELF program names (its PT_INTERP), None when it names none."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF" and data[4] == 2, "a 64-bit ELF file"
    phoff = int.from_bytes(data[32:40], "little")
    phentsize = int.from_bytes(data[54:56], "little")
    for index in range(int.from_bytes(data[56:58], "little")):
        header = data[phoff + index * phentsize:phoff + (index + 1) * phentsize]
        if int.from_bytes(header[0:4], "little") == 3:  # PT_INTERP
            offset, size = int.from_bytes(header[8:16], "little"), int.from_bytes(header[32:40], "little")
            return data[offset:offset + size].rstrip(b"\0")
    return None


def test_installed_leitnerctl_is_linked_whole_and_runs_with_nothing(installed):
    """leitnerctl starts for every command: it is linked whole, the C library too, so that no
    dynamic loader runs before its `main` (half of its start; docs/performance.md, "The warm
    listing's first line, the program linked whole"), and it runs with an empty environment."""
    path = installed / "usr/bin/leitnerctl"
    assert program_interpreter(path) is None
    assert program_interpreter(installed / "usr/bin/leitnerd") is not None
    result = subprocess.run([path, "--version"], capture_output=True, text=True, env={}, check=True)
    assert result.stdout.startswith("leitnerctl ") and result.stderr == ""
    # Without HOME the home directory comes from the password database (getpwuid_r), which a
    # program linked whole reads through the C library's own NSS: the paths it names are there.
    home = pwd.getpwuid(os.getuid()).pw_dir.rstrip("/")
    result = subprocess.run([path, "--box", "install-test-none", "status"], capture_output=True, text=True, env={})
    assert result.returncode == 1, result.stderr
    assert f"no '{home}/.config/leitner/install-test-none.conf'" in result.stderr, result.stderr


@pytest.mark.parametrize("user", [False, True], ids=["system", "user"])
def test_installed_units_name_the_installed_programs_and_verify(installed, tmp_path, user):
    units = installed / "usr/lib/systemd" / ("user" if user else "system")
    for name in UNIT_NAMES:
        text = (units / name).read_text()
        assert "/usr/local/bin" not in text
    assert "ExecStart=/usr/bin/leitnerd " in (units / "leitnerd.service").read_text()
    # verify looks for ExecStart= on the real root: point the copies into DESTDIR.
    copies = copy_units(units, tmp_path / "units", installed / "usr/bin", installed_bin="/usr/bin/")
    result = verify(copies, user=user, env=runtime_env(tmp_path, installed / "usr/share/man"))
    assert result.returncode == 0 and result.stderr == "", result.stderr


def complete(completion: pathlib.Path, *words: str) -> list[str]:
    """What bash offers for `words`, the last the one being completed."""
    return shell_completion.bash(completion, " ".join(words), dict(os.environ))


def test_installed_completion_offers_commands_levels_and_flags(installed):
    completion = installed / "usr/share/bash-completion/completions/leitnerctl"
    assert complete(completion, "leitnerctl", "") == [
        "status", "review", "practice", "prepare", "add", "import", "export", "list", "search", "find", "show",
        "edit", "rename", "move", "suspend", "unsuspend", "delete", "reverse", "undo", "calendar", "log", "doctor",
        "stats", "tag", "untag", "tags", "next", "grade", "web", "stop", "boxes", "completion", "help"]
    assert complete(completion, "leitnerctl", "list", "--sort", "") == ["id", "level", "added"]
    assert complete(completion, "leitnerctl", "--socket", "/x", "mo") == ["move"]
    assert complete(completion, "leitnerctl", "move", "card", "") == [
        "1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"]
    assert complete(completion, "leitnerctl", "grade", "card", "c") == ["correct"]
    assert complete(completion, "leitnerctl", "--n") == ["--no-autostart"]
    assert complete(completion, "leitnerctl", "add", "--l") == ["--level"]
    assert complete(completion, "leitnerctl", "add", "--r") == ["--reverse"]
    assert complete(completion, "leitnerctl", "delete", "--k") == ["--keep-reverses"]
    assert complete(completion, "leitnerctl", "reverse", "--") == [
        "--id", "--level", "--socket", "--config", "--box", "--json", "--no-autostart", "--help"]


def test_each_shells_completion_is_what_leitnerctl_prints(installed):
    """The three files are the installed leitnerctl's own `completion` output, where each shell looks."""
    ctl = installed / "usr/bin/leitnerctl"
    for shell, path in [("bash", "usr/share/bash-completion/completions/leitnerctl"),
                        ("zsh", "usr/share/zsh/site-functions/_leitnerctl"),
                        ("fish", "usr/share/fish/vendor_completions.d/leitnerctl.fish")]:
        printed = subprocess.run([ctl, "completion", shell], capture_output=True, text=True, env={}, check=True).stdout
        assert (installed / path).read_text() == printed, shell
        assert os.stat(installed / path).st_mode & 0o777 == 0o644


def test_uninstall_removes_exactly_what_install_put_there(tmp_path):
    destdir = tmp_path / "root"
    foreign = destdir / "usr/bin/other-program"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("not ours\n")
    make("install", destdir)
    assert files_under(destdir) == expected_files() | {"usr/bin/other-program"}
    make("uninstall", destdir)
    assert files_under(destdir) == {"usr/bin/other-program"}
    assert foreign.read_text() == "not ours\n"


def test_existing_configuration_is_never_overwritten_nor_removed(tmp_path):
    destdir = tmp_path / "root"
    conf = destdir / "etc/leitner/leitner.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text("[Schedule]\nDayStartsAt=05:30\n")
    make("install", destdir)
    assert conf.read_text() == "[Schedule]\nDayStartsAt=05:30\n"
    make("uninstall", destdir)
    assert files_under(destdir) == {"etc/leitner/leitner.conf"}
    assert conf.read_text() == "[Schedule]\nDayStartsAt=05:30\n"


def test_an_edited_configuration_survives_uninstall(tmp_path):
    destdir = tmp_path / "root"
    make("install", destdir)
    conf = destdir / "etc/leitner/leitner.conf"
    conf.write_text(conf.read_text() + "\n[Hooks]\nTestReady=true\n")
    make("uninstall", destdir)
    assert files_under(destdir) == {"etc/leitner/leitner.conf"}


def bare(*command: str, **kwargs) -> subprocess.CompletedProcess:
    """Runs an installed program with an empty environment (`env -i`): no PATH, no HOME, no
    LD_LIBRARY_PATH, so nothing from the Swift toolchain can be found."""
    return subprocess.run(["env", "-i", *command], capture_output=True, text=True, timeout=30, **kwargs)


def test_installed_programs_serve_a_box_with_an_empty_environment(installed, tmp_path):
    """The installed leitnerd and leitnerctl, started with `env -i`, serve a temporary
    store on a temporary socket; `status` and `add` work and the card reaches the store (R1)."""
    bin_dir = installed / "usr/bin"
    store, sock = tmp_path / "store", tmp_path / "leitnerd.sock"
    # The device id in the configuration: without HOME the daemon would keep it in the real home
    # directory (docs/sync.md).
    conf = tmp_path / "leitner.conf"
    conf.write_text(f"[Sync]\nDevice={DEVICE}\n")
    daemon = subprocess.Popen(["env", "-i", str(bin_dir / "leitnerd"), "--config", str(conf), "--store", str(store),
                               "--socket", str(sock)], stderr=subprocess.PIPE, text=True)
    ctl = [str(bin_dir / "leitnerctl"), "--no-autostart", "--socket", str(sock)]
    try:
        for _ in range(500):
            if sock.exists() or daemon.poll() is not None:
                break
            subprocess.run(["sleep", "0.02"])
        assert sock.exists(), "leitnerd did not listen"
        status = bare(*ctl, "status")
        assert status.returncode == 0, status.stderr
        added = bare(*ctl, "add", "--id", "neko", "猫", "neko")
        assert added.returncode == 0, added.stderr
        shown = bare(*ctl, "--json", "show", "neko")
        assert shown.returncode == 0 and '"neko"' in shown.stdout, shown.stdout + shown.stderr
        # A new card waits in new/ to be admitted (R1, R23).
        assert (store / "new" / "neko").is_dir()
    finally:
        daemon.terminate()
        code = daemon.wait(timeout=20)
    assert code == 0, daemon.stderr.read()


def test_installed_leitnerctl_autostarts_the_installed_daemon_with_an_empty_environment(installed, tmp_path):
    """With `env -i` there is no PATH: leitnerctl finds the leitnerd installed next to it."""
    bin_dir = installed / "usr/bin"
    conf, sock = tmp_path / "leitner.conf", tmp_path / "leitnerd.sock"
    conf.write_text(f"[Store]\nPath={tmp_path / 'store'}\n[Sync]\nDevice={DEVICE}\n")  # no device file in the real home
    # No PATH, no HOME; only where the autostarted daemon's log goes, so that it is not the
    # real home's state directory.
    state = tmp_path / "state"
    ctl = [f"XDG_STATE_HOME={state}", str(bin_dir / "leitnerctl"), "--config", str(conf), "--socket", str(sock)]
    try:
        added = bare(*ctl, "add", "--id", "inu", "犬", "inu")
        assert added.returncode == 0, added.stderr
        status = bare(*ctl, "--json", "status")
        assert status.returncode == 0, status.stderr
        assert (tmp_path / "store" / "new" / "inu").is_dir()
        assert "serving store" in (state / "leitner" / "leitnerd.log").read_text()
    finally:
        for pid in daemon_pids(sock):
            os.kill(pid, signal.SIGTERM)
