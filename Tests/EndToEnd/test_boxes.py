"""Several boxes (R29, docs/leitnerctl.md "Several boxes"): a kana box and a German box side by
side, selected with --box and LEITNER_BOX, each autostarted with its own store, socket and log;
`boxes` lists them with their counts; bad and unknown names; the template units verify and
listen where leitnerctl --box looks."""
import json
import os
import pathlib
import shutil
import signal
import subprocess

import pytest

from cli_box import KANA, daemon_pids
from daemon_support import device_environment, short_root
from units import SYSTEMD, TEMPLATE_NAMES, copy_units, man_tree, runtime_env, unit_settings, verify


class Boxes:
    """A home of temporary XDG directories (short, for the sockets' 108 bytes) where leitnerctl
    autostarts the daemons of several boxes; `ctl` runs the built leitnerctl there."""

    def __init__(self, bin_dir: pathlib.Path, root: pathlib.Path):
        self.bin_dir = bin_dir
        self.root = root
        self.config = root / "config" / "leitner"
        self.data = root / "data" / "leitner"
        self.runtime = root / "run"
        self.runtime.mkdir(mode=0o700)
        self.env = {k: v for k, v in os.environ.items() if k not in ("LEITNER_SOCKET", "LEITNER_BOX", "NO_COLOR")}
        self.env.update(XDG_CONFIG_HOME=str(root / "config"), XDG_DATA_HOME=str(root / "data"),
                        XDG_RUNTIME_DIR=str(self.runtime))
        self.env.update(device_environment(root))  # the device id and the daemons' logs, not in the real home
        self.state = pathlib.Path(self.env["XDG_STATE_HOME"]) / "leitner"

    def store(self, name):
        return self.data / "boxes" / name

    def socket(self, name):
        return self.runtime / "leitner" / f"{name}.sock"

    def ctl(self, *args, box=None, env=None):
        command = [str(self.bin_dir / "leitnerctl")] + ([f"--box={box}"] if box else []) + [str(a) for a in args]
        return subprocess.run(command, capture_output=True, text=True, env=dict(self.env, **(env or {})), timeout=60)

    def ok(self, *args, **kwargs):
        result = self.ctl(*args, **kwargs)
        assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def json_lines(self, *args, **kwargs):
        return [json.loads(line) for line in self.ok("--json", *args, **kwargs).splitlines()]

    def daemons(self):
        """The pids of the daemons started for any socket under this home."""
        return [pid for path in (self.runtime / "leitner").glob("*.sock") for pid in daemon_pids(path)]

    def card_directory(self, store: pathlib.Path, card: str):
        """Where card `card` is in `store`, in whatever level or place; None when nowhere."""
        found = [p for p in store.glob(f"*/{card}") if p.is_dir() and not p.parent.name.startswith(".")]
        return found[0] if found else None


# The kana sample's cards: its lines but the two comments and the header.
KANA_IDS = [line.split("\t")[0] for line in KANA.read_text().splitlines()[3:]]


@pytest.fixture
def boxes(bin_dir):
    root = short_root()
    home = Boxes(bin_dir, root)
    yield home
    for pid in home.daemons():
        os.kill(pid, signal.SIGTERM)
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def kana_and_german(boxes):
    """The kana sample in box kana (by --box), two German words in box german (by LEITNER_BOX)."""
    boxes.ok("import", "--quiet", KANA, box="kana")
    boxes.ok("add", "--id", "hund", "Hund", "dog", env={"LEITNER_BOX": "german"})
    boxes.ok("add", "--id", "katze", "Katze", "cat", env={"LEITNER_BOX": "german"})
    return boxes


def test_a_kana_box_and_a_german_box_are_kept_apart(kana_and_german):
    b = kana_and_german
    # Each card is in its own box's store, and the default box was never made: its directory
    # holds only the other boxes.
    assert b.card_directory(b.store("german"), "hund") and b.card_directory(b.store("german"), "katze")
    assert b.card_directory(b.store("kana"), "hund") is None
    assert b.card_directory(b.store("kana"), KANA_IDS[0]) is not None
    assert sorted(p.name for p in b.data.iterdir()) == ["boxes"]
    # One socket and one daemon a box, nothing on the default box's socket.
    assert b.socket("kana").exists() and b.socket("german").exists()
    assert not (b.runtime / "leitner" / "leitnerd.sock").exists()
    kana_pids, german_pids = daemon_pids(b.socket("kana")), daemon_pids(b.socket("german"))
    assert len(kana_pids) == 1 and len(german_pids) == 1 and kana_pids != german_pids
    # Each autostarted daemon logs to its box's file, serving its box's store.
    assert f"serving store '{b.store('kana')}'" in (b.state / "kana.log").read_text()
    assert f"serving store '{b.store('german')}'" in (b.state / "german.log").read_text()
    assert "kana" not in (b.state / "german.log").read_text()
    # Reading through either selection sees only that box's cards.
    german_ids = {card["id"] for card in b.json_lines("list", box="german")}
    assert german_ids == {"hund", "katze"}
    kana_ids = {card["id"] for card in b.json_lines("list", env={"LEITNER_BOX": "kana"})}
    assert "hund" not in kana_ids and kana_ids == set(KANA_IDS)
    # --box wins over LEITNER_BOX; LEITNER_SOCKET is the default box's and leaves a box alone.
    assert "Hund" in b.ok("show", "hund", box="german", env={"LEITNER_BOX": "kana"})
    assert "Hund" in b.ok("show", "hund", env={"LEITNER_BOX": "german", "LEITNER_SOCKET": str(b.root / "x.sock")})


def test_boxes_lists_each_box_with_its_counts(kana_and_german):
    b = kana_and_german
    listed = b.json_lines("boxes", env={"LEITNER_BOX": "german"})
    assert [line["box"] for line in listed] == ["german", "kana"]
    for line in listed:
        status = json.loads(b.ok("--json", "status", box=line["box"]))
        assert line["running"] is True and line["error"] is None
        assert line["cards"] == sum(status["counts"].values())
        assert line["remaining"] == status["test"]["remaining"]
        assert line["today"] == status["today"]
        assert line["store"] == str(b.store(line["box"])) and line["socket"] == str(b.socket(line["box"]))
        assert line["selected"] == (line["box"] == "german")
        # Cards in level 1 are due at least every other day.
        assert line["nextDue"] is not None and line["nextDue"] >= line["today"]
        if line["remaining"] > 0:
            assert line["nextDue"] == line["today"]
    assert listed[0]["cards"] == 2 and listed[1]["cards"] == len(KANA_IDS)
    # Piped: the same, tab-separated, without the header.
    rows = [line.split("\t") for line in b.ok("boxes").splitlines()]
    assert [row[0] for row in rows] == ["german", "kana"]
    assert rows[0][1] == "2" and rows[0][2] == str(listed[0]["remaining"]) and rows[0][3] == listed[0]["nextDue"]
    # A card in the default box makes it a box too, listed first and selected when none is named.
    b.ok("add", "--id", "neko", "猫", "cat")
    listed = b.json_lines("boxes")
    assert [(line["box"], line["selected"], line["cards"]) for line in listed] == [
        (None, True, 1), ("german", False, 2), ("kana", False, listed[2]["cards"])]


def test_boxes_with_autostart_off_lists_a_stopped_box_as_not_running(kana_and_german):
    b = kana_and_german
    assert "Stopped" in b.ok("stop", box="kana")
    assert daemon_pids(b.socket("kana")) == []
    listed = {line["box"]: line for line in b.json_lines("--no-autostart", "boxes")}
    assert listed["kana"]["running"] is False and listed["kana"]["cards"] is None and listed["kana"]["error"] is None
    assert listed["german"]["running"] is True
    assert daemon_pids(b.socket("kana")) == []  # nothing was started
    assert "kana\t-\t-\tnot running" in b.ok("--no-autostart", "boxes").splitlines()
    # Without --no-autostart the listing starts it again, as any command would.
    listed = {line["box"]: line for line in b.json_lines("boxes")}
    assert listed["kana"]["running"] is True and len(daemon_pids(b.socket("kana"))) == 1


def test_a_box_made_by_its_configuration_file(boxes):
    """NAME.conf alone makes a box: it is listed, and its daemon reads that file."""
    boxes.config.mkdir(parents=True)
    (boxes.config / "french.conf").write_text("[Schedule]\nDayStartsAt=00:00\n")
    listed = boxes.json_lines("boxes")
    assert [line["box"] for line in listed] == ["french"]
    assert listed[0]["running"] is True and listed[0]["cards"] == 0
    assert boxes.store("french").is_dir()
    # A broken file is that box's error; the listing goes on and exits 1.
    (boxes.config / "broken.conf").write_text("[Nonsense]\nKey=1\n")
    result = boxes.ctl("--json", "boxes")
    assert result.returncode == 1
    lines = {line["box"]: line for line in map(json.loads, result.stdout.splitlines())}
    assert "broken.conf" in lines["broken"]["error"] and lines["french"]["running"] is True


@pytest.mark.parametrize("selection", [
    {"args": ["--box", "a/b"]},
    {"args": ["--box", ".hidden"]},
    {"args": ["--box", "my box"]},
    {"args": ["--box", "leitnerd"]},
    {"args": ["--box="]},
    {"env": {"LEITNER_BOX": "../kana"}},
    {"env": {"LEITNER_BOX": "leitner"}},
], ids=["slash", "dot", "space", "reserved-leitnerd", "empty", "env-dotdot", "env-reserved-leitner"])
def test_an_invalid_box_name_is_a_usage_error(boxes, selection):
    for command in (["status"], ["add", "x", "y"], ["boxes"]):
        result = boxes.ctl(*selection.get("args", []), *command, env=selection.get("env"))
        assert result.returncode == 64, result.stderr
        assert "invalid box name" in result.stderr and "Usage: leitnerctl" in result.stderr
    assert not boxes.data.exists() and boxes.daemons() == []


def test_leitnerd_refuses_an_invalid_box_name(bin_dir):
    result = subprocess.run([str(bin_dir / "leitnerd"), "--box", "a/b"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 64
    assert "invalid box name 'a/b'" in result.stderr


def test_an_unknown_box_is_refused_and_not_made(kana_and_german):
    b = kana_and_german
    for command in (["status"], ["review"], ["list"], ["prepare"]):
        result = b.ctl(*command, box="germna")
        assert result.returncode == 1, result.stderr
        assert "no box 'germna'" in result.stderr and "--box germna add" in result.stderr, result.stderr
        assert str(b.store("germna")) in result.stderr
    assert not b.store("germna").exists() and not b.socket("germna").exists()
    assert daemon_pids(b.socket("germna")) == []
    # stop starts nothing either; add makes the box.
    assert "not running" in b.ok("stop", box="germna")
    b.ok("add", "Haus", "house", box="germna")
    assert b.store("germna").is_dir() and len(daemon_pids(b.socket("germna"))) == 1


@pytest.mark.parametrize("user", [False, True], ids=["system", "user"])
def test_template_units_verify(tmp_path, bin_dir, user):
    source = SYSTEMD / "user" if user else SYSTEMD
    units = [unit for unit in copy_units(source, tmp_path / "units", bin_dir) if unit.name in TEMPLATE_NAMES]
    assert sorted(unit.name for unit in units) == sorted(TEMPLATE_NAMES)
    result = verify(units, user=user, env=runtime_env(tmp_path, man_tree(tmp_path / "man")))
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_user_template_socket_is_where_leitnerctl_looks(kana_and_german):
    """leitnerd@kana.socket's ListenStream=, %t and %I filled in as the user manager does, is
    the socket leitnerctl --box kana uses."""
    (listen,) = unit_settings(SYSTEMD / "user" / "leitnerd@.socket")["Socket.ListenStream"]
    expected = listen.replace("%t", str(kana_and_german.runtime)).replace("%I", "kana")
    listed = {line["box"]: line for line in kana_and_german.json_lines("boxes")}
    assert listed["kana"]["socket"] == expected
