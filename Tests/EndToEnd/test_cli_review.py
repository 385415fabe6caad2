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
from daemon_support import log_file

pytestmark = pytest.mark.skipif(subprocess.run(["which", "tmux"], capture_output=True).returncode != 0,
                                reason="tmux is not installed")


class Pane:
    """A detached tmux session (100×30 unless told) on its own tmux server, running one shell
    script; `name` tells apart several, each with a server of its own (a server being killed
    could refuse the next session)."""

    def __init__(self, tmp: pathlib.Path, script: str, env: dict, columns=100, rows=30, name="review"):
        self.tmux = ["tmux", "-S", str(tmp / f"tmux-{name}.sock")]
        self.name = name
        path = tmp / f"{name}.sh"
        path.write_text(script)
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()
                           if k in ("PATH", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "LANG",
                                    "LC_ALL"))
        subprocess.run(self.tmux + ["new-session", "-d", "-x", str(columns), "-y", str(rows), "-s", name,
                                    f"env {exports} TERM=xterm-256color sh {path}; sleep 60"], check=True)

    def text(self) -> str:
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", self.name], capture_output=True,
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

    def wait_for_any(self, needles, timeout=10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if any(needle in text for needle in needles):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"none of {needles!r} on the screen:\n{text}")
            time.sleep(0.05)

    def wait_for_redraw(self, before: str, needle: str, timeout=10.0) -> str:
        """The screen once a key has changed it from `before` and it holds `needle` and has
        settled (the same in two reads): a screen read a fixed time after the key could still be
        the old one on a loaded machine, or half drawn."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            text = self.text()
            if text != before and needle in text and text == last:
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen did not change to one with {needle!r}:\n{text}")
            last = text
            time.sleep(0.05)

    def keys(self, *keys: str):
        subprocess.run(self.tmux + ["send-keys", "-t", self.name, *keys], check=True)

    def close(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)


def review_script(box, tmp, name, after="") -> str:
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    return (f"stty -a > {tmp}/{name}.before\n"
            f"{ctl} review --images=none\n"
            f"echo \"exit=$?\" > {tmp}/{name}.exit\n"
            f"stty -a > {tmp}/{name}.after\n"
            f"{after}"
            f"echo REVIEW-ENDED\n")


def modes(path: pathlib.Path) -> str:
    """`stty -a` without the first line (speed, rows, columns)."""
    return "\n".join(path.read_text().splitlines()[1:])


def test_flip_grade_undo_quit_resume(box, tmp_path):
    box.ok("add", "--id", "a", "uno", "one")
    box.ok("add", "--id", "b", "dos", "two")
    pane = Pane(tmp_path, review_script(box, tmp_path, "first"), box.env)
    try:
        screen = pane.wait_for("0 of 2 done ·")
        assert "Space/Enter show the answer" in screen
        first = "a" if "uno" in screen else "b"
        back = {"a": "one", "b": "two"}[first]
        assert back not in screen.replace(header(screen), "")  # the back is hidden ("done" holds "one")
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
        assert "Progress kept: 0 of 2 done · 1 to repeat" in screen
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
        pane.wait_for("0 of 2 done ·")
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
    grades = [line for line in log_file(box.store).read_text().splitlines()
              if line.split("\t")[1] == "grade"]
    assert len(grades) == 1


def header(screen: str) -> str:
    """The review's header: the lines above its first rule."""
    lines = screen.splitlines()
    return "\n".join(lines[:next(i for i, line in enumerate(lines) if "───" in line)])


def test_header_never_shows_the_id_before_i(box, tmp_path):
    """An id may give the answer away (hira-ji for じ): the header shows the progress and the
    card's level, and the id only on `i`, at 100 columns and at 40×12."""
    for card_id, front, back in [("hira-ji", "じ", "ji"), ("hira-ka", "か", "ka"), ("hira-shi", "し", "shi")]:
        box.ok("add", "--id", card_id, front, back)
    for columns, rows in [(100, 30), (40, 12)]:
        pane = Pane(tmp_path, review_script(box, tmp_path, f"ids{columns}"), box.env, columns, rows,
                    name=f"ids{columns}")
        try:
            screen = pane.wait_for("show the answer")
            top = header(screen)
            assert "0 of 3 done" in top and "card: level 1" in top and "test: levels" not in top
            assert "hira-" not in screen
            assert all(len(line) <= columns for line in screen.splitlines())
            pane.keys("Space")
            screen = pane.wait_for("y/→ correct")
            assert "hira-" not in header(screen)
            pane.keys("i")
            screen = pane.wait_for("id: hira-")
            assert "id: hira-" in header(screen)
            pane.keys("n")  # wrong: the next card's screen has no id again, though the message names this one
            screen = pane.wait_for("→ level 1")
            assert "hira-" not in header(screen) and "1 to repeat" in header(screen)
            pane.keys("q")
            pane.wait_for("REVIEW-ENDED")
        finally:
            pane.close()
        box.ok("undo")


def test_long_back_scrolls_to_its_last_line(box, tmp_path):
    """A back of 60 lines at 40×12: the header and the keys stay, the body scrolls line by line and
    page by page to line 60, and back to the top."""
    box.ok("add", "--id", "long", "count to sixty", "\n".join(f"line {n}" for n in range(1, 61)))
    pane = Pane(tmp_path, review_script(box, tmp_path, "long"), box.env, 40, 12)
    try:
        pane.wait_for("show the answer")
        pane.keys("Space")
        screen = pane.wait_for("y/→ correct")
        assert "line 60" not in screen and "more" in screen
        pane.keys("j")
        pane.wait_for("↑ 1 more")
        seen = set()
        screen = pane.wait_for_redraw("", "y/→ correct")
        for _ in range(40):
            seen |= {line.strip() for line in screen.splitlines() if line.strip().startswith("line ")}
            if "line 60" in screen:
                break
            pane.keys("PageDown")
            # Each page read once drawn: two keys between reads would leave a page unseen.
            screen = pane.wait_for_redraw(screen, "y/→ correct")
        assert "line 60" in screen, screen
        assert header(screen).strip().startswith("0 of 1 done"), screen
        assert "y/→ correct" in screen
        assert all(len(line) <= 40 for line in screen.splitlines())
        assert seen == {f"line {n}" for n in range(1, 61)}  # every line was on the screen, none skipped
        pane.keys("k")
        pane.wait_for("↓ 1 more")
        pane.keys("g")
        screen = pane.wait_for("count to sixty")
        pane.keys("q")
        pane.wait_for("REVIEW-ENDED")
    finally:
        pane.close()


def test_resize_redraws_at_once(box, tmp_path):
    """SIGWINCH redraws the screen for the new size within 200 ms, without a key: the keys' line
    moves to the new last row and the rules take the new width."""
    box.ok("add", "--id", "a", "uno", "one")
    pane = Pane(tmp_path, review_script(box, tmp_path, "resize"), box.env, 100, 30)
    try:
        pane.wait_for("show the answer")
        for columns, rows in [(60, 16), (120, 40), (40, 12)]:
            # tmux holds back a pane's resize that comes within 250 ms of the one before: wait
            # that out, so that what is measured is the review's redraw.
            time.sleep(0.5)
            start = time.monotonic()
            subprocess.run(pane.tmux + ["resize-window", "-t", pane.name, "-x", str(columns), "-y", str(rows)],
                           check=True)
            while True:
                lines = pane.text().splitlines()
                rules = [line for line in lines if line.strip().startswith("─")]
                if (len(lines) == rows and "i id" in lines[-1] and rules
                        and len(rules[0].rstrip()) == columns - 2):
                    break
                assert time.monotonic() - start < 2, "\n".join(lines)
                time.sleep(0.005)
            elapsed = time.monotonic() - start
            assert elapsed < 0.2, f"redrawn for {columns}×{rows} after {elapsed * 1000:.0f} ms"
            assert header("\n".join(lines)).strip().startswith("0 of 1 done")
        pane.keys("q")
        pane.wait_for("REVIEW-ENDED")
    finally:
        pane.close()


def test_two_reviews_at_once_grade_every_card_once(box, tmp_path):
    """Two terminals review the same test: a card the other one answered first is skipped with a
    note, not an error; both end with exit status 0, and every card is graded exactly once."""
    ids = [f"c{n}" for n in range(6)]
    for card_id in ids:
        box.ok("add", "--id", card_id, f"front {card_id}", f"back {card_id}")
    panes = [Pane(tmp_path, review_script(box, tmp_path, name), box.env, name=name) for name in ("reviewA", "reviewB")]
    notes = 0
    try:
        for pane in panes:
            pane.wait_for("show the answer")
        # Both show the same first card; both flip it; the left answers first, then the right.
        for pane in panes:
            pane.keys("Space")
            pane.wait_for("y/→ correct")
        for pane in panes:
            pane.keys("y")
            time.sleep(0.3)
        ended = set()
        deadline = time.monotonic() + 60
        while len(ended) < 2:
            assert time.monotonic() < deadline
            for pane in panes:
                if pane.name in ended:
                    continue
                screen = pane.wait_for_any(["show the answer", "REVIEW-ENDED"])
                notes += "answered in another review" in screen
                if "REVIEW-ENDED" in screen:
                    ended.add(pane.name)
                    continue
                pane.keys("Space")
                pane.wait_for("y/→ correct")
                pane.keys("y")
                pane.wait_for_any(["show the answer", "REVIEW-ENDED"])
        for pane in panes:
            assert (tmp_path / f"{pane.name}.exit").read_text().strip() == "exit=0"
    finally:
        for pane in panes:
            pane.close()
    assert notes >= 1
    grades = [line.split("\t")[2] for line in log_file(box.store).read_text().splitlines()
              if line.split("\t")[1] == "grade"]
    assert sorted(grades) == ids
    assert box.json("status")["test"]["state"] == "completed"


def test_keys_typed_as_the_review_ends_do_not_reach_the_shell(box, tmp_path):
    """Keys pressed while the last grade is on its way stay in the terminal's input queue; the
    review throws them away before giving the terminal back. The daemon is stopped (SIGSTOP)
    while they are typed, so they are certainly typed before the review ends."""
    box.ok("add", "--id", "a", "uno", "one")
    # Whatever waits in the terminal's input queue when the review has ended, read within 0.5 s.
    after = (f"stty -icanon min 0 time 5; leaked=$(dd bs=64 count=1 2>/dev/null); stty icanon\n"
             f"echo \"leaked=[$leaked]\" > {tmp_path}/leak\n")
    pane = Pane(tmp_path, review_script(box, tmp_path, "drain", after=after), box.env)
    try:
        pane.wait_for("show the answer")
        pane.keys("Space")
        pane.wait_for("y/→ correct")
        box.daemon.send_signal(signal.SIGSTOP)
        try:
            pane.keys("y")
            time.sleep(0.3)
            pane.keys("-l", "echo LEAKED")
            pane.keys("Enter")
            time.sleep(0.3)
        finally:
            box.daemon.send_signal(signal.SIGCONT)
        screen = pane.wait_for("REVIEW-ENDED")
        assert "Today's test is complete" in screen
        assert "Cards: 1 · right first time: 1 · repeated: 0" in screen
        assert "Next test: " in screen and ": 1 card." in screen  # its one card passed on from level 1
        assert (tmp_path / "leak").read_text().strip() == "leaked=[]"
        assert "LEAKED" not in screen
    finally:
        pane.close()


def write_editor(tmp: pathlib.Path) -> pathlib.Path:
    """An $EDITOR that rewrites the front it is given (any extension) and leaves the back."""
    editor = tmp / "editor.sh"
    editor.write_text('#!/bin/sh\nfor f in "$@"; do case "$f" in */front.*) printf "edited front\\n" > "$f";; esac; done\n')
    editor.chmod(0o755)
    return editor


def log_lines(box) -> list[list[str]]:
    return [line.split("\t") for line in log_file(box.store).read_text().splitlines()]


def test_suspend_edit_and_move_from_the_review(box, tmp_path):
    """`s` suspends the card shown, `e` edits it in $EDITOR and shows it again, `m 4` moves it:
    each a daemon call, logged, said in the message; the store has them."""
    fronts = {"uno": "a", "dos": "b", "tres": "c"}
    for front, id in fronts.items():
        box.ok("add", "--id", id, front, front + "-back")
    editor = write_editor(tmp_path)
    script = f"export EDITOR={editor}\n" + review_script(box, tmp_path, "act")
    pane = Pane(tmp_path, script, box.env)

    def shown(screen: str, left: set) -> str:
        found = [fronts[f] for f in fronts if fronts[f] in left and f"\n  {f}" in "\n" + screen.replace("│", " ")]
        assert len(found) == 1, screen
        return found[0]
    try:
        left = set(fronts.values())
        screen = pane.wait_for("0 of 3 done ·")
        assert "s suspend" in screen and "e edit" in screen and "m move" in screen
        first = next(fronts[f] for f in fronts if f in screen)
        pane.keys("s")
        screen = pane.wait_for(f"'{first}' suspended")
        left.discard(first)
        second = next(fronts[f] for f in fronts if fronts[f] in left and f in screen)
        pane.keys("e")
        screen = pane.wait_for(f"Edited the front of '{second}'")
        assert "edited front" in screen  # shown again, as it is now
        pane.keys("m")
        pane.wait_for("move to level:")
        pane.keys("4")
        pane.keys("Enter")
        screen = pane.wait_for(f"'{second}' moved from level 1 to level 4")
        left.discard(second)
        (third,) = left
        pane.keys("q")
        screen = pane.wait_for("REVIEW-ENDED")
        assert "Cards suspended: 1, moved: 1, edited: 1." in screen
        assert (tmp_path / "act.exit").read_text().strip() == "exit=0"
        assert modes(tmp_path / "act.before") == modes(tmp_path / "act.after")
    finally:
        pane.close()
    assert (box.store / "suspended" / first).is_dir()
    assert (box.store / "4" / second).is_dir()
    assert (box.store / "1" / third).is_dir()
    fronts_now = [p.read_text() for p in (box.store / "4" / second).glob("front.*")]
    assert fronts_now == ["edited front\n"]
    events = [(line[1], line[2], line[3], line[4]) for line in log_lines(box)]
    assert ("move", first, "1", "suspended") in events
    assert ("edit", second, "1", "1") in events
    assert ("move", second, "1", "4") in events
    assert not any(event[0] == "grade" for event in events)
    # Undo takes back grades only: there is none, and the suspend stands.
    assert box.ctl("undo").returncode != 0
    assert (box.store / "suspended" / first).is_dir()


def test_plain_review_takes_s_e_and_m_level(box, tmp_path):
    """The same on lines: `s`, `e`, `m 4` (and a bad level asked again)."""
    for id, front in (("a", "uno"), ("b", "dos"), ("c", "tres")):
        box.ok("add", "--id", id, front, front + "-back")
    env = dict(box.env, EDITOR=str(write_editor(tmp_path)))
    order = [line[2] for line in log_lines(box)]  # not the queue's order: read it from the output
    result = box.ctl("review", "--plain", input="s\ne\n\ny\nm nine\nm 4\n", env=env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "suspended, out of every test" in out
    assert "Edited the front of" in out and "edited front" in out
    assert "'nine' is no level" in out
    assert "moved from level 1 to level 4" in out
    where = {id: next(level for level in ("1", "2", "4", "suspended") if (box.store / level / id).is_dir()) for id in order}
    assert sorted(where.values()) == ["2", "4", "suspended"], (where, out)
    (edited,) = [id for id in order if where[id] == "2"]  # edited, then answered correct
    assert [p.read_text() for p in (box.store / "2" / edited).glob("front.*")] == ["edited front\n"]
