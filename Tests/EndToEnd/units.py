"""Helpers shared by the unit and install tests: the repository's systemd units, read and copied
with their program paths pointed at built binaries (systemd-analyze verify wants ExecStart= to
exist)."""
import os
import pathlib
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"
UNIT_NAMES = ["leitnerd.service", "leitnerd.socket", "leitner-prepare.service", "leitner-prepare.timer",
              "leitner-web.service", "leitner-web.socket"]
# The template units of R29, one daemon a box: leitnerd@NAME.socket and so on.
TEMPLATE_NAMES = ["leitnerd@.service", "leitnerd@.socket", "leitner-prepare@.service", "leitner-prepare@.timer"]
UNIT_NAMES += TEMPLATE_NAMES
MAN_PAGES = ["leitnerd.8", "leitnerctl.1", "leitner.conf.5", "leitner-web.1"]
INSTALLED_BIN = "/usr/local/bin/"


def unit_settings(path: pathlib.Path) -> dict[str, list[str]]:
    """`Section.Key` → its values in file order (systemd keys may repeat)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


def copy_units(
    source: pathlib.Path, target: pathlib.Path, bin_dir: pathlib.Path, installed_bin: str = INSTALLED_BIN
) -> list[pathlib.Path]:
    """Copies the units of `source` into `target` with `installed_bin` replaced by bin_dir."""
    target.mkdir(parents=True, exist_ok=True)
    copies = []
    for name in UNIT_NAMES:
        text = (source / name).read_text().replace(installed_bin, f"{bin_dir.resolve()}/")
        (target / name).write_text(text)
        copies.append(target / name)
    return copies


def runtime_env(tmp: pathlib.Path, man_path: pathlib.Path) -> dict[str, str]:
    """Environment for systemd-analyze: man pages on MANPATH, a private runtime dir for the
    --user manager it builds (there may be no logged-in user, nor systemd as PID 1)."""
    runtime = tmp / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    return dict(os.environ, MANPATH=str(man_path), XDG_RUNTIME_DIR=str(runtime))


def man_tree(target: pathlib.Path) -> pathlib.Path:
    """A MANPATH directory holding the repository's man pages, for verify's Documentation= check."""
    for page in (ROOT / "man").iterdir():
        section = target / f"man{page.suffix[1:]}"
        section.mkdir(parents=True, exist_ok=True)
        shutil.copy(page, section / page.name)
    return target


def verify(units: list[pathlib.Path], *, user: bool, env: dict[str, str]) -> subprocess.CompletedProcess:
    """`systemd-analyze [--user] verify` with man page checks on."""
    args = ["systemd-analyze"] + (["--user"] if user else []) + ["verify", "--man=yes"]
    return subprocess.run(args + [str(u) for u in units], capture_output=True, text=True, env=env, timeout=120)
