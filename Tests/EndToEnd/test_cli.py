"""leitnerctl against a real leitnerd: every command's output and exit status."""
import base64
import json
import os
import re
import shlex
import shutil
import subprocess

import pytest

from cli_box import KANA, CliBox, box  # noqa: F401  (box is a fixture)

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def run_ctl(bin_dir, *args):
    return subprocess.run([str(bin_dir / "leitnerctl"), *args], capture_output=True, text=True, timeout=30)


def test_usage_errors_exit_64_with_the_usage(bin_dir):
    result = run_ctl(bin_dir, "move", "--foo")
    assert result.returncode == 64
    assert result.stderr == ("leitnerctl: unknown option '--foo'\nUsage: leitnerctl move ID LEVEL\n"
                             "See 'leitnerctl help move'.\n")
    result = run_ctl(bin_dir, "stauts")
    assert result.returncode == 64
    assert "unknown command 'stauts', did you mean 'status'?" in result.stderr
    result = run_ctl(bin_dir, "move", "a")
    assert result.returncode == 64
    assert result.stderr.startswith("leitnerctl: missing argument LEVEL\n")
    assert run_ctl(bin_dir, "add", "hola").stderr.startswith("leitnerctl: missing argument BACK\n")
    assert run_ctl(bin_dir, "grade", "a", "maybe").returncode == 64
    assert run_ctl(bin_dir, "list", "9").returncode == 64


def test_help(bin_dir):
    overview = run_ctl(bin_dir, "help")
    assert overview.returncode == 0
    for command in ["status", "review", "prepare", "add", "import", "export", "list", "show", "move", "delete",
                    "undo", "calendar", "log", "doctor", "next", "grade", "help"]:
        assert f"\n  {command} " in overview.stdout
    assert "69" in overview.stdout and "64" in overview.stdout
    assert run_ctl(bin_dir, "--help").stdout == overview.stdout
    move = run_ctl(bin_dir, "help", "move")
    assert move.returncode == 0 and move.stdout.startswith("Usage: leitnerctl move ID LEVEL\n")
    assert run_ctl(bin_dir, "move", "--help").stdout == move.stdout
    assert run_ctl(bin_dir, "--version").stdout.startswith("leitnerctl ")


def test_unreachable_without_autostart_exits_69(bin_dir, tmp_path):
    result = run_ctl(bin_dir, "--socket", tmp_path / "none.sock", "--no-autostart", "status")
    assert result.returncode == 69
    assert "systemctl --user start leitnerd.socket" in result.stderr
    assert not (tmp_path / "none.sock").exists()


def test_a_relative_socket_path_is_refused_before_anything_is_started(bin_dir, tmp_path):
    # leitnerd takes only an absolute socket path: leitnerctl says so itself, and leaves no
    # lock file or daemon log behind in the working directory.
    result = subprocess.run([str(bin_dir / "leitnerctl"), "--socket", "box.sock", "status"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 64
    assert result.stderr.startswith("leitnerctl: invalid socket path 'box.sock': expected an absolute path\n")
    # A daemon started by mistake would keep its device id in XDG_STATE_HOME: under tmp_path (and
    # seen below), never in the real home.
    env = {k: v for k, v in os.environ.items() if k != "LEITNER_SOCKET"}
    env["XDG_STATE_HOME"] = str(tmp_path / "xdg-state")
    result = subprocess.run([str(bin_dir / "leitnerctl"), "status"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=30, env={**env, "LEITNER_SOCKET": "box.sock", "XDG_CONFIG_HOME": str(tmp_path)})
    assert result.returncode == 1
    assert result.stderr == "leitnerctl: LEITNER_SOCKET 'box.sock' is not an absolute path\n"
    assert list(tmp_path.iterdir()) == []


def test_status_of_an_empty_box(box):
    out = box.ok("status")
    assert out.startswith("Today ")
    assert "Level" in out and "Cards" in out
    assert "\x1b[" not in out  # no colour when not a terminal
    reply = box.json("status")
    assert set(reply) >= {"today", "test", "counts"}
    # The places beside the levels (R23, R24) are counted with them.
    assert reply["counts"] == {level: 0 for level in ["1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"]}
    assert box.ok() == out  # status is the default command


def test_status_asks_the_daemon_once(box, tmp_path):
    """`status` shows today and its week from one Status call, not Status then Calendar (#35):
    the calls leitnerctl writes to the socket, as strace sees them."""
    assert shutil.which("strace"), "install the Debian package 'strace'"
    box.ok("add", "--id", "w1", "front", "back")
    trace = tmp_path / "trace"
    command = [str(box.bin_dir / "leitnerctl"), "--socket", str(box.socket), "--no-autostart", "status"]
    done = subprocess.run(["strace", "-f", "-qq", "-e", "trace=write,sendto,sendmsg", "-s", "120", "-o", str(trace)] + command,
                          capture_output=True, text=True, env=box.env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Mon" in done.stdout and "Sun" in done.stdout  # the week is shown
    assert re.findall(r"io\.leitner\.Box\.(\w+)", trace.read_text()) == ["Status"]


def test_status_on_a_narrow_terminal_keeps_each_day_whole(box):
    command = " ".join(shlex.quote(str(p)) for p in
                       [box.bin_dir / "leitnerctl", "--socket", box.socket, "--no-autostart", "status"])
    screen = subprocess.run(["script", "-qec", f"stty cols 40; {command}", "/dev/null"], capture_output=True,
                            text=True, env=dict(box.env, NO_COLOR="1"), timeout=30).stdout.replace("\r", "")
    lines = screen.splitlines()
    week = lines[next(i for i, line in enumerate(lines) if line.lstrip().startswith("Mon ")):]
    assert all(len(line.rstrip()) <= 40 for line in week), week
    # Four days a row: Monday to Thursday, then Friday to Sunday.
    assert week[0].split()[::2] == ["Mon", "Tue", "Wed", "Thu"], week
    assert week[3] == "" and week[4].split()[::2] == ["Fri", "Sat", "Sun"], week


def test_add_show_list_move_delete(box, tmp_path):
    assert box.ok("add", "--id", "hola", "hola", "hello") == "Added 'hola' to level 1.\n"
    duplicate = box.ctl("add", "hola", "hi")
    assert duplicate.returncode == 1 and "'hola' has the same front" in duplicate.stderr
    assert box.ok("add", "--force", "--id", "hola2", "--level", "3", "hola", "hi") == "Added 'hola2' to level 3.\n"
    exists = box.ctl("add", "--id", "hola", "x", "y")
    assert exists.returncode == 1 and "already exists" in exists.stderr
    bad_id = box.ctl("add", "--id", "-x", "a", "b")
    assert bad_id.returncode == 1 and "invalid card id '-x'" in bad_id.stderr

    shown = box.ok("show", "hola")
    assert "hola · level 1" in shown and "hello" in shown
    card = box.json("show", "hola")["card"]
    assert card["front"]["text"] == "hola" and card["front"]["mediaType"] == "text/plain"

    assert [c["id"] for c in box.json_lines("list")] == ["hola", "hola2"]
    assert "hola2" not in box.ok("list", "1") and "hola2" in box.ok("list", "3")

    assert box.ok("move", "hola", "finished") == "Moved 'hola' to finished.\n"
    assert box.ok("move", "hola", "finished") == "'hola' is in finished already: not moved.\n"
    assert box.ok("show", "hola").startswith("hola · finished\n")
    assert box.ok("rename", "hola", "hello") == "Renamed 'hola' to 'hello' (finished).\n"
    assert box.ok("rename", "hello", "hola") == "Renamed 'hello' to 'hola' (finished).\n"
    assert box.ok("rename", "hola", "hola") == "'hola' unchanged.\n"
    assert box.ctl("rename", "nope", "nope").returncode == 1
    assert box.json("status")["counts"]["finished"] == 1
    missing = box.ctl("move", "nope", "2")
    assert missing.returncode == 1 and missing.stderr == "leitnerctl: no card 'nope'\n"

    assert box.ok("delete", "hola") == "Deleted 'hola'.\n"  # not a terminal: no question
    assert box.ctl("show", "hola").returncode == 1


def test_a_side_that_starts_with_a_dash_and_a_space_needs_no_double_dash(box):
    assert box.ok("add", "--id", "list", "- uno\n- dos", "- one\n- two") == "Added 'list' to level 1.\n"
    card = box.json("show", "list")["card"]
    assert card["front"]["text"] == "- uno\n- dos" and card["back"]["text"] == "- one\n- two"


def test_add_from_a_file_that_is_missing_or_a_directory_says_so(box, tmp_path):
    missing = box.ctl("add", "--front-file", tmp_path / "nope.png", "back")
    assert missing.returncode == 1
    assert missing.stderr == f"leitnerctl: cannot read '{tmp_path / 'nope.png'}': No such file or directory\n"
    missing = box.ctl("add", "--front-file", tmp_path / "nope", "back")
    assert "cannot read" in missing.stderr and "No such file" in missing.stderr
    directory = box.ctl("add", "--front-file", tmp_path, "back")
    assert directory.returncode == 1 and "cannot read" in directory.stderr and "directory" in directory.stderr.lower()
    (tmp_path / "noext").write_text("x")
    assert "no extension" in box.ctl("add", "--front-file", tmp_path / "noext", "back").stderr


def test_add_from_files(box, tmp_path):
    (tmp_path / "f.png").write_bytes(PNG)
    (tmp_path / "b.md").write_text("# Dog\n\nA *loyal* animal.\n")
    assert box.ok("add", "--id", "dog", "--front-file", tmp_path / "f.png", "--back-file", tmp_path / "b.md")
    card = box.json("show", "dog")["card"]
    assert card["front"]["mediaType"] == "image/png" and card["front"]["text"] is None
    assert open(card["front"]["path"], "rb").read() == PNG
    assert card["back"]["mediaType"] == "text/markdown"
    shown = box.ok("show", "dog")
    assert "[image/png]" in shown and "A loyal animal." in shown and "# Dog" not in shown
    missing = box.ctl("add", "--front-file", tmp_path / "none.png", "x")
    assert missing.returncode == 1 and "cannot read" in missing.stderr


def test_import_kana_twice(box):
    first = box.ok("import", KANA)
    assert first == f"Imported '{KANA}': 208 added, 0 already present, 0 refused.\n"
    counts = box.json("status")["counts"]
    assert counts["1"] == 208
    second = box.ok("import", KANA)
    assert "0 added, 208 already present" in second
    assert len(box.json_lines("list")) == 208
    assert box.json("show", "kata-kya")["card"]["front"]["text"] == "キャ"


def test_bad_csv_line_is_reported_and_the_rest_added(box, tmp_path):
    path = tmp_path / "words.csv"
    path.write_text('front,back\nperro,dog\n"gato,cat\n')
    result = box.ctl("import", path)
    assert result.returncode == 1
    assert f"leitnerctl: {path}:3: quoted field opened on line 3 is not closed" in result.stderr
    assert result.stdout == f"Imported '{path}': 1 added, 0 already present, 1 refused.\n"
    assert [c["front"]["text"] for c in box.json_lines("list")] == ["perro"]
    path.write_text('front,back\nperro,dog\nga"to,cat\n"x, y","with ""quotes"""\n')
    result = box.ctl("import", path)
    assert result.returncode == 1 and f"{path}:3:" in result.stderr
    assert "1 added, 1 already present, 1 refused" in result.stdout
    assert {c["front"]["text"] for c in box.json_lines("list")} == {"perro", "x, y"}


def test_import_anki_and_directory(box, tmp_path):
    anki = tmp_path / "deck.txt"
    anki.write_text("#separator:tab\n#html:true\n#tags column:3\nperro<br>(noun)\tdog &amp; pet\tanimals\n")
    assert "1 added" in box.ok("import", anki)
    card = box.json_lines("list")[0]
    assert card["front"]["text"] == "perro\n(noun)" and card["back"]["text"] == "dog & pet"

    pairs = tmp_path / "pairs"
    pairs.mkdir()
    (pairs / "flag-front.png").write_bytes(PNG)
    (pairs / "flag-back.txt").write_text("a flag")
    assert "1 added" in box.ok("import", pairs)
    assert box.json("show", "flag")["card"]["front"]["mediaType"] == "image/png"
    (pairs / "lone-front.txt").write_text("alone")
    lone = box.ctl("import", pairs)
    assert lone.returncode == 1 and "lone front" in lone.stderr


def test_export_round_trip(box, tmp_path, bin_dir):
    box.ok("add", "--id", "multi", "--level", "4", "line one\nline\ttwo", "back \\ slash")
    box.ok("add", "--id", "plain", "sí", "yes")
    (tmp_path / "f.png").write_bytes(PNG)
    box.ok("add", "--id", "img", "--front-file", tmp_path / "f.png", "picture")
    exported = box.ctl("export", "--with-levels")
    assert exported.returncode == 0 and "1 card with a side that is not text" in exported.stderr
    assert exported.stdout.splitlines()[0] == "id\tlevel\tfront\tback\tfrontext\tbackext"
    tsv = tmp_path / "out.tsv"
    tsv.write_text(exported.stdout)

    other = CliBox(bin_dir, tmp_path / "other")
    other.start()
    try:
        assert "2 added" in other.ok("import", "--with-levels", tsv)
        card = other.json("show", "multi")["card"]
        assert card["level"] == "4" and card["front"]["text"] == "line one\nline\ttwo"
        assert card["back"]["text"] == "back \\ slash"
    finally:
        other.stop()

    copy = tmp_path / "copy"
    assert box.ok("export", "--dir", copy, "--with-levels") == f"Copied 3 cards to '{copy}'.\n"
    assert (copy / "1" / "img" / "front.png").read_bytes() == PNG
    assert (copy / "4" / "multi" / "back.txt").read_text() == "back \\ slash"


def test_review_by_script_next_grade_undo(box):
    box.ok("add", "--id", "a", "uno", "one")
    box.ok("add", "--id", "b", "dos", "two")
    prepared = box.json("prepare")["test"]
    assert prepared["state"] == "open" and prepared["remaining"] == 2 and "1" in prepared["levels"]
    assert "0 of 2 done" in box.ok("prepare")
    first = box.json("next")["card"]["id"]
    assert first in ("a", "b")
    graded = box.ok("grade", first, "correct", "--time", "1200")
    assert f"'{first}' → level 2" in graded
    undone = box.ok("undo")
    assert f"Undone: '{first}' is back in level 1." == undone.strip()
    assert box.json("next")["card"]["id"] == first  # R15: back at the front of the queue
    reply = box.json("grade", first, "wrong")
    assert reply["card"]["level"] == "1" and reply["test"]["failed"] == 1
    not_in_test = box.ctl("grade", "nope", "correct")
    assert not_in_test.returncode == 1
    nothing = box.ctl("undo")
    assert nothing.returncode == 0  # the wrong grade can be undone
    entries = box.json_lines("log")
    assert [e["event"] for e in entries][:2] == ["add", "add"]
    assert any(e["event"] == "grade" and e.get("answerMs") == 1200 for e in entries)
    assert len(box.json_lines("log", "--limit", "1")) == 1
    assert box.ctl("log", "--limit", "x").returncode == 64


def test_log_lines_keep_the_levels_in_one_column(box):
    box.env["NO_COLOR"] = "1"
    box.ok("add", "--id", "a", "uno", "one")
    box.ok("add", "--id", "a-longer-id", "dos", "two")
    box.ok("move", "a", "3")
    box.ok("move", "a-longer-id", "finished")
    lines = box.ok("log").splitlines()
    assert [line.index("→") for line in lines[:2]] == [lines[0].index("→")] * 2  # add: → 1
    assert lines[2].endswith(" 1 → 3") and lines[3].endswith(" 1 → finished")
    assert lines[2].index("1 → 3") == lines[3].index("1 → finished")


def test_log_since_takes_the_dates_calendar_takes(box):
    box.ok("add", "--id", "hola", "hola", "hello")
    for since in ["today", "-1", "+0"]:
        assert [e["id"] for e in box.json_lines("log", "--since", since)] == ["hola"], since
    assert box.json_lines("log", "--since", "+1") == []
    result = box.ctl("log", "--since", "yesterday")
    assert result.returncode == 64
    assert result.stderr.startswith("leitnerctl: invalid date 'yesterday': expected YYYY-MM-DD, a time such as")


def test_calendar_doctor_next_on_empty(box):
    days = box.json_lines("calendar")
    assert len(days) == 22 and sum(d["state"] == "today" for d in days) == 1
    assert len(box.json_lines("calendar", "today", "+6")) == 7
    text = box.ok("calendar", "-1", "+1")
    # Yesterday, before the box existed, is left out (#35).
    assert len(text.splitlines()) == 2 and "today" in text
    assert box.ctl("calendar", "2026-02-30").returncode == 64
    backwards = box.ctl("calendar", "+5", "-5")
    assert backwards.returncode == 64
    assert backwards.stderr.startswith("leitnerctl: invalid date range '+5 -5': TO ")
    assert " is before FROM " in backwards.stderr.splitlines()[0]
    assert box.ok("doctor") == "No problems found.\n"
    assert box.json_lines("doctor") == []
    assert box.ok("next").startswith("No card to review")
    assert box.json("next")["card"] is None


def test_a_date_of_2_63_days_from_today_is_a_usage_error(box):
    """issue #25: +N days is checked before it is added to today, and must stay within the years
    0000 to 9999; `calendar +9223372036854775807` used to overflow."""
    for argument in ["+9223372036854775807", "-9223372036854775807", "+3652425", "+3000000", "-800000"]:
        for args in (["calendar", argument], ["log", "--since", argument]):
            result = box.ctl(*args)
            assert result.returncode == 64, (args, result.stderr)
            assert result.stderr.startswith(f"leitnerctl: invalid date '{argument}'"), result.stderr
    assert len(box.json_lines("calendar", "+3000", "+3001")) == 2


def test_doctor_reports_a_damaged_card(box):
    box.ok("add", "--id", "ok", "a", "b")
    (box.store / "2" / "broken").mkdir(parents=True, exist_ok=True)
    (box.store / "2" / "broken" / "front.txt").write_text("only a front")
    result = box.ctl("doctor")
    assert result.returncode == 1 and "broken" in result.stdout and "1 problem found." in result.stdout


def test_review_in_line_mode(box):
    box.ok("add", "--id", "a", "uno", "one")
    box.ok("add", "--id", "b", "dos", "two")
    # flip, wrong; flip, correct; then the failed card again: flip, undo; quit.
    result = box.ctl("review", input="\nn\n\ny\n\nu\nq\n")
    assert result.returncode == 0, result.stderr
    # How far, in cards done (docs/rules.md, "How far you are"), and no test's levels (#35).
    assert "[0 of 2 done · card: level 1]" in result.stdout
    assert "[0 of 2 done · 1 to repeat · card: level 1]" in result.stdout  # a wrong answer leaves it done 0
    assert "test: levels" not in result.stdout
    assert "This sitting: 2 answers, 1 correct, 1 wrong, 1 undone." in result.stdout
    # The undone grade is no card's any more: one card graded, wrong first, to be repeated.
    assert "Cards: 1 · right first time: 0 · repeated: 1 · " in result.stdout
    assert "Progress kept: 0 of 2 done · 1 to repeat; review again to go on." in result.stdout
    status = box.json("status")["test"]
    assert status["passed"] == 0 and status["failed"] == 1  # the correct grade was undone
    # Resume and finish: the failed card and the undone one.
    result = box.ctl("review", input="\ny\n\ny\n")
    assert "Today's test is complete" in result.stdout
    assert box.json("status")["test"]["state"] == "completed"


def test_the_review_names_the_next_test_that_has_cards(box):
    # The one card passes to level 2: tomorrow's test (levels 3, 1) has no card, the one after
    # (levels 2, 1) has it.
    box.ok("add", "--id", "a", "uno", "one")
    result = box.ctl("review", input="\ny\n")
    assert result.returncode == 0, result.stderr
    assert "Today's test is complete" in result.stdout
    today = box.json("status")["today"]
    import datetime
    after = (datetime.date.fromisoformat(today) + datetime.timedelta(days=2))
    assert f"Next test: {after:%a} {after}: 1 card." in result.stdout, result.stdout
    box.ok("move", "a", "finished")
    # Nothing answered in this sitting: no line of zeros.
    assert box.ok("review", input="") == ("Today's test is complete: 1 of 1 done.\n"
                                          "No test to come has cards now: every card is finished or suspended.\n")


def test_the_review_of_an_empty_box_says_how_to_add_cards(box):
    assert box.ok("review", input="") == (
        "No card to review today.\n"
        "The box has no cards yet: add some with 'leitnerctl add FRONT BACK' or 'leitnerctl import FILE'.\n")


def test_ids_from_fronts_of_any_script(box):
    """R20 (docs/rules.md): an id made from a front keeps its words, in any script."""
    box.ok("add", "猫", "cat")
    assert "cat" in box.ok("show", "猫")
    assert (box.store / "1" / "猫" / "front.txt").read_text() == "猫"
    box.ok("add", "café au lait", "coffee with milk")
    assert (box.store / "1" / "café-au-lait").is_dir()
    refused = box.ctl("add", "--id", "🐱", "cat", "emoji")
    assert refused.returncode == 1 and "not a letter" in refused.stderr, refused.stderr
    assert not (box.store / "1" / "🐱").exists()


def test_an_image_front_takes_its_id_from_the_back(box, tmp_path):
    """R20 (docs/rules.md): a front with no words (an image) gives the back's words."""
    (tmp_path / "x.png").write_bytes(PNG)
    assert box.ok("add", "--front-file", tmp_path / "x.png", "A red cat") == "Added 'a-red-cat' to level 1.\n"
    assert box.ok("add", "--front-file", tmp_path / "x.png", "--back-file", tmp_path / "x.png") == "Added 'card' to level 1.\n"


def test_a_new_box_misses_no_day_before_it_existed(box):
    """Day.state none (docs/protocol.md): the days before the box's first logical date are
    neither missed nor counted, in `calendar` and in the week row of `status`."""
    box.ok("add", "uno", "one")
    calendar = box.ok("calendar", "-7", "+1")
    # The text leaves those days out (#35); --json gives them, as state none.
    assert "missed" not in calendar and "none" not in calendar and len(calendar.splitlines()) == 2, calendar
    assert "missed" not in box.ok("status")
    days = box.json_lines("calendar", "-3", "today")
    assert [d["state"] for d in days] == ["none", "none", "none", "today"], days
