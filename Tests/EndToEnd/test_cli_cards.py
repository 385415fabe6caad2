"""Working with the cards through the real programs: edit, rename, empty sides, ids, list, show,
and export/import round trips (docs/leitnerctl.md). A shell script stands in for the person's
editor ($EDITOR)."""
import base64
import json
import os
import shlex
import subprocess

from cli_box import KANA, CliBox, box  # noqa: F401  (box is a fixture)
from daemon_support import Connection, VarlinkError, private_dir

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
MP3 = b"ID3\x03\x00\x00\x00\x00\x00\x00" + bytes(range(256))


def editor(box, tmp_path, body, name="editor.sh"):
    """An $EDITOR: a shell script run with the files to edit as "$@"."""
    script = tmp_path / name
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(0o755)
    env = dict(box.env)
    env.pop("VISUAL", None)
    env["EDITOR"] = str(script)
    return env


def log_events(box, card_id):
    return [(e["event"], e.get("renamedTo")) for e in box.json_lines("log") if e["id"] == card_id]


def test_edit_both_sides_keeps_level_place_and_history(box, tmp_path):
    for word in ["uno", "dos", "tres"]:
        box.ok("add", "--id", word, word, word.upper())
    box.ok("move", "dos", "2")
    box.ok("prepare")
    head = box.json("next")["card"]["id"]
    level = box.json("show", head)["card"]["level"]
    seen = tmp_path / "seen"
    env = editor(box, tmp_path, f'for f; do basename "$f" >> {seen}; printf "new %s\\n" "$(basename "$f")" > "$f"; done')
    out = box.ok("edit", head, env=env)
    assert out == f"Edited the front and back of '{head}' (level {level}).\n"
    assert seen.read_text() == "front.txt\nback.txt\n"           # copies named after the side, extension kept
    card = box.json("show", head)["card"]
    assert card["front"]["text"] == "new front.txt\n" and card["back"]["text"] == "new back.txt\n"
    assert card["level"] == level
    assert box.json("next")["card"]["id"] == head                   # its place in the queue is kept
    history = [("add", None)] + ([("move", None)] if head == "dos" else []) + [("edit", None)]
    assert log_events(box, head) == history                          # history kept, the edit logged (R16)
    # The same content again: nothing written, nothing logged.
    assert box.ok("edit", head, env=env) == f"'{head}' unchanged.\n"
    assert log_events(box, head) == history
    assert not os.listdir(private_dir(box.store) / "tmp")


def test_edit_one_side_as_markdown_and_by_file_name(box, tmp_path):
    box.ok("add", "--id", "md", "plain", "back")
    env = editor(box, tmp_path, 'for f; do printf "# Title\\n\\n*it*\\n" > "$f"; done')
    assert "Edited the front of 'md'" in box.ok("edit", "md", "--front", "--as", "md", env=env)
    card = box.json("show", "md")["card"]
    assert card["front"]["mediaType"] == "text/markdown" and card["front"]["path"].endswith("/md/front.md")
    assert card["back"]["text"] == "back"
    assert sorted(os.listdir(box.store / "1" / "md")) == ["back.txt", "front.md"]
    # An editor's "save as" under another extension changes the media type too.
    env = editor(box, tmp_path, 'for f; do d=$(dirname "$f"); printf "**bold**" > "$d/back.md"; rm "$f"; done', "saveas.sh")
    box.ok("edit", "md", "--back", env=env)
    assert box.json("show", "md")["card"]["back"]["mediaType"] == "text/markdown"
    assert sorted(os.listdir(box.store / "1" / "md")) == ["back.md", "front.md"]


def test_edit_that_changes_nothing(box, tmp_path):
    box.ok("add", "--id", "keep", "front", "back")
    empty = box.ctl("edit", "keep", "--front", env=editor(box, tmp_path, 'for f; do printf "  \\n\\t" > "$f"; done'))
    assert empty.returncode == 1 and "the front of 'keep' is empty; 'keep' not changed" in empty.stderr
    failed = box.ctl("edit", "keep", env=editor(box, tmp_path, 'for f; do echo x > "$f"; done; exit 3', "fail.sh"))
    assert failed.returncode == 1 and "exited with status 3; 'keep' not changed" in failed.stderr
    assert box.json("show", "keep")["card"]["front"]["text"] == "front"
    assert log_events(box, "keep") == [("add", None)]
    # Through the interface too: an empty side is refused, nothing written (InvalidAsset).
    with Connection(box.socket) as conn:
        try:
            conn.call("Edit", id="keep", back={"name": "back.txt", "text": " \n"})
            raise AssertionError("an empty back was taken")
        except VarlinkError as error:
            assert error.name == "io.leitner.Box.InvalidAsset"
    assert box.json("show", "keep")["card"]["back"]["text"] == "back"


def test_edit_follows_a_card_moved_meanwhile_and_fails_when_deleted(box, tmp_path):
    box.ok("add", "--id", "roam", "front", "back")
    ctl = " ".join(shlex.quote(str(p)) for p in [box.bin_dir / "leitnerctl", "--socket", box.socket, "--no-autostart"])
    env = editor(box, tmp_path, f'{ctl} move roam 5 >/dev/null; for f; do echo moved > "$f"; done')
    box.ok("edit", "roam", "--front", env=env)
    card = box.json("show", "roam")["card"]
    assert card["level"] == "5" and card["front"]["text"] == "moved\n"
    env = editor(box, tmp_path, f'{ctl} delete --yes roam >/dev/null; for f; do echo gone > "$f"; done', "delete.sh")
    gone = box.ctl("edit", "roam", env=env)
    assert gone.returncode == 1 and "no card 'roam'" in gone.stderr
    assert box.json_lines("list") == []


def test_edit_through_varlink_keeps_the_other_side(box):
    box.ok("add", "--id", "api", "front", "back")
    with Connection(box.socket) as conn:
        reply = conn.call("Edit", id="api", front={"name": "front.md", "text": "*new*"}, back=None)
        assert reply["changed"] is True and reply["card"]["front"]["mediaType"] == "text/markdown"
        assert reply["card"]["back"]["text"] == "back"
        assert conn.call("Edit", id="api", front={"name": "front.md", "text": "*new*"})["changed"] is False
        try:
            conn.call("Edit", id="nope", front={"name": "front.txt", "text": "x"})
            raise AssertionError("edited a card that is not there")
        except VarlinkError as error:
            assert (error.name, error.parameters) == ("io.leitner.Box.NoSuchCard", {"id": "nope"})


def test_an_image_side_is_replaced_from_a_file_not_an_editor(box, tmp_path):
    (tmp_path / "a.png").write_bytes(PNG)
    box.ok("add", "--id", "pic", "--front-file", tmp_path / "a.png", "a picture")
    refused = box.ctl("edit", "pic", "--front", env=editor(box, tmp_path, "exit 0"))
    assert refused.returncode == 1 and "image/png" in refused.stderr and "--front-file" in refused.stderr
    (tmp_path / "b.mp3").write_bytes(MP3)
    box.ok("edit", "pic", "--front-file", tmp_path / "b.mp3")
    card = box.json("show", "pic")["card"]
    assert card["front"]["mediaType"] == "audio/mpeg" and open(card["front"]["path"], "rb").read() == MP3


def test_edit_of_an_image_card_opens_its_text_side(box, tmp_path):
    # Without --front or --back, the caption of an image card is opened alone, with a note.
    (tmp_path / "a.png").write_bytes(PNG)
    box.ok("add", "--id", "pic", "--front-file", tmp_path / "a.png", "a picture")
    env = editor(box, tmp_path, 'for f in "$@"; do echo "$f" >> "$0.args"; printf "a red picture" > "$f"; done')
    result = box.ctl("edit", "pic", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Edited the back of 'pic' (level 1).\n"
    assert result.stderr == ("leitnerctl: the front of 'pic' is image/png, not text: only the back is opened "
                             "('edit pic --front-file FILE' replaces the front)\n")
    assert [os.path.basename(line) for line in (tmp_path / "editor.sh.args").read_text().split()] == ["back.txt"]
    card = box.json("show", "pic")["card"]
    assert card["back"]["text"] == "a red picture" and open(card["front"]["path"], "rb").read() == PNG


def test_a_hand_edit_of_an_asset_file_is_read_at_once(box):
    box.ok("add", "--id", "hand", "old front", "back")
    card_dir = box.store / "1" / "hand"
    # As an editor saves: a new file, renamed over the old one; and a backup left beside it.
    (card_dir / ".front.txt.swp").write_text("swap")
    (card_dir / "front.txt.new").write_text("new front")
    os.rename(card_dir / "front.txt.new", card_dir / "front.txt")
    (card_dir / "front.txt~").write_text("old front")
    assert box.json("show", "hand")["card"]["front"]["text"] == "new front"
    box.ok("prepare")
    assert box.json("next")["card"]["front"]["text"] == "new front"
    assert box.ctl("doctor").returncode == 0                        # the leftovers are no second front


def test_rename_keeps_level_place_and_history(box):
    box.ok("add", "--id", "old", "vieja", "old")
    box.ok("add", "--id", "other", "otra", "other")
    box.ok("prepare")
    head = box.json("next")["card"]["id"]
    box.ok("grade", "other" if head == "old" else "old", "wrong")
    assert box.ok("rename", "old", "nueva") == "Renamed 'old' to 'nueva' (level 1).\n"
    assert box.json("show", "nueva")["card"]["front"]["text"] == "vieja"
    assert box.ctl("show", "old").returncode == 1
    assert ("rename", "nueva") in log_events(box, "old")
    assert "old → nueva" in box.ok("log")
    queue = []
    while (card := box.json("next")["card"]) is not None and card["id"] not in queue:
        queue.append(card["id"])
        box.ok("grade", card["id"], "correct")
    assert "nueva" in queue and "old" not in queue
    taken = box.ctl("rename", "nueva", "other")
    assert taken.returncode == 1 and "card 'other' already exists" in taken.stderr
    bad = box.ctl("rename", "nueva", "a b")
    assert bad.returncode == 1 and "invalid card id 'a b'" in bad.stderr


def test_empty_sides_are_refused_and_ids_come_from_fronts(box, tmp_path):
    for front, back in [("", "x"), ("   ", "x"), ("x", "\t\n")]:
        refused = box.ctl("add", front, back)
        assert refused.returncode == 1 and "is empty or only white space" in refused.stderr
        side = "front" if not front.strip() else "back"
        assert refused.stderr == f"leitnerctl: the {side} is empty or only white space\n"
    (tmp_path / "empty.md").write_text("")
    assert box.ctl("add", "--front-file", tmp_path / "empty.md", "x").returncode == 1
    tsv = tmp_path / "blank.tsv"
    tsv.write_text("front\tback\nperro\tdog\n  \tnothing\n")
    result = box.ctl("import", tsv)
    # The blank line is reported as FILE:LINE and refused; the rest goes in.
    assert result.returncode == 1 and f"{tsv}:3: the front is empty" in result.stderr
    assert [card["id"] for card in box.json_lines("list")] == ["perro"]
    assert box.ok("add", "猫", "cat") == "Added '猫' to level 1.\n"
    assert box.ok("add", "--force", "猫", "neko") == "Added '猫-2' to level 1.\n"
    assert box.ok("add", "--force", "猫", "gato") == "Added '猫-3' to level 1.\n"


def test_list_and_show_read_well(box):
    box.ok("add", "--id", "multi", "line one\nline two\twith a tab", "a back " + "long " * 30)
    box.ok("add", "--id", "fin", "--level", "finished", "done", "fertig")
    lines = box.ok("list").splitlines()
    assert lines == ["1\tmulti\tline one⏎line two→with a tab\ta back " + "long " * 29 + "long ",
                     "finished\tfin\tdone\tfertig"]
    assert box.ok("list", "--sort", "id").splitlines()[0].startswith("finished\tfin\t")
    assert box.ok("list", "--sort", "added").splitlines()[0].startswith("1\tmulti\t")
    assert box.ctl("list", "--sort", "size").returncode == 64
    command = " ".join(shlex.quote(str(p)) for p in
                       [box.bin_dir / "leitnerctl", "--socket", box.socket, "--no-autostart", "list"])
    env = dict(box.env, NO_COLOR="1")
    table = subprocess.run(["script", "-qec", f"stty cols 60; {command}", "/dev/null"], capture_output=True,
                           text=True, env=env, timeout=30).stdout.replace("\r", "").splitlines()
    assert table[0].split() == ["LEVEL", "ID", "FRONT", "BACK"]
    assert table[1].startswith("1         multi") and "…" in table[1] and len(table[1]) <= 60
    assert table[2].startswith("finished  fin")
    long_table = subprocess.run(["script", "-qec", f"stty cols 60; {command} --long", "/dev/null"],
                                capture_output=True, text=True, env=env, timeout=30).stdout
    assert "long " * 29 in long_table
    empty = subprocess.run(["script", "-qec", f"stty cols 60; {command} 4; {command} finished", "/dev/null"],
                           capture_output=True, text=True, env=env, timeout=30).stdout.replace("\r", "")
    assert empty == "No cards in level 4.\n" + table[0] + "\n" + table[2] + "\n"
    assert box.ok("list", "4") == ""  # not on a terminal: no line at all
    box.ok("add", "--id", "nl", "ends with a newline\n", "back\n")
    assert box.ok("show", "nl") == "nl · level 1\nfront:\n  ends with a newline\nback:\n  back\n"


def make_mixed_box(box, tmp_path):
    box.ok("import", KANA)
    (tmp_path / "f.md").write_text("# Heading\n\n* item\twith tab\r\nand CRLF\n")
    (tmp_path / "flag.png").write_bytes(PNG)
    (tmp_path / "sound.mp3").write_bytes(MP3)
    box.ok("add", "--id", "md", "--level", "3", "--front-file", tmp_path / "f.md", "back \\ slash\n")
    box.ok("add", "--id", "img", "--level", "finished", "--front-file", tmp_path / "flag.png", "a flag")
    box.ok("add", "--id", "snd", "--front-file", tmp_path / "sound.mp3", "--back-file", tmp_path / "f.md")
    box.ok("move", "hira-a", "5")


def cards_of(box):
    """id → (level, front name, front bytes, back name, back bytes), read from the store."""
    result = {}
    for card in box.json_lines("list"):
        sides = []
        for side in ["front", "back"]:
            path = card[side]["path"]
            sides += [os.path.basename(path), open(path, "rb").read()]
        result[card["id"]] = (card["level"], *sides)
    return result


def test_export_tsv_round_trip(box, tmp_path, bin_dir):
    make_mixed_box(box, tmp_path)
    original = cards_of(box)
    exported = box.ctl("export", "--with-levels")
    assert exported.returncode == 0 and "2 cards with a side that is not text or Markdown" in exported.stderr
    assert exported.stdout.splitlines()[0] == "id\tlevel\tfront\tback\tfrontext\tbackext"
    tsv = tmp_path / "out.tsv"
    tsv.write_text(exported.stdout)
    plain = tmp_path / "plain.tsv"
    plain.write_text(box.ok("export"))
    assert plain.read_text().splitlines()[0] == "id\tfront\tback\tfrontext\tbackext"

    other = CliBox(bin_dir, tmp_path / "other")
    other.start()
    try:
        assert "209 added" in other.ok("import", "--with-levels", tsv)
        copied = cards_of(other)
        assert copied == {k: v for k, v in original.items() if k not in ("img", "snd")}
        assert copied["md"][1] == "front.md" and copied["hira-a"][0] == "5"
    finally:
        other.stop()
    third = CliBox(bin_dir, tmp_path / "third")
    third.start()
    try:
        result = third.ctl("import", tsv)
        assert result.returncode == 0 and "levels in" in result.stderr and "--with-levels" in result.stderr
        assert {v[0] for v in cards_of(third).values()} == {"1"}
        assert "0 added, 209 already present" in third.ok("import", plain)
    finally:
        third.stop()


def test_export_dir_round_trip(box, tmp_path, bin_dir):
    make_mixed_box(box, tmp_path)
    original = cards_of(box)
    flat, leveled = tmp_path / "flat", tmp_path / "leveled"
    assert box.ok("export", "--dir", flat) == f"Copied 211 cards to '{flat}'.\n"
    assert (flat / "img" / "front.png").read_bytes() == PNG
    assert box.ok("export", "--dir", leveled, "--with-levels") == f"Copied 211 cards to '{leveled}'.\n"
    assert (leveled / "finished" / "img" / "front.png").read_bytes() == PNG
    refused = box.ctl("export", "--dir", flat)
    assert refused.returncode == 1 and "is not empty" in refused.stderr and "--force" in refused.stderr
    box.ok("edit", "md", "--front-file", tmp_path / "flag.png")
    assert "Copied 211" in box.ok("export", "--dir", flat, "--force")
    assert sorted(os.listdir(flat / "md")) == ["back.txt", "front.png"]

    for source, with_levels in [(leveled, True), (flat, False)]:
        other = CliBox(bin_dir, tmp_path / f"other-{source.name}")
        other.start()
        try:
            args = ["import", source] + (["--with-levels"] if with_levels else [])
            assert "211 added" in other.ok(*args)
            copied = cards_of(other)
            if with_levels:
                assert copied == original
            else:
                assert {v[0] for v in copied.values()} == {"1"}
                assert copied["snd"][1:] == original["snd"][1:] and copied["img"][1:] == original["img"][1:]
        finally:
            other.stop()


def test_search(box, tmp_path):
    box.ok("add", "--id", "perro", "El Perro", "the dog\nline two: DOGS bark")
    box.ok("add", "--id", "gato", "--level", "3", "el gato", "the cat")
    (tmp_path / "f.md").write_text("# Hund\n\n*der* dog\n")
    box.ok("add", "--id", "hund", "--back-file", tmp_path / "f.md", "Hund")
    assert box.ok("search", "DOG") == ("1\thund\tback\t*der* dog\n1\tperro\tback\tthe dog\n"
                                       "1\tperro\tback\tline two: DOGS bark\n")
    assert box.ok("find", "dog") == box.ok("search", "DOG")
    assert box.ok("search", "--front", "el") == "1\tperro\tfront\tEl Perro\n3\tgato\tfront\tel gato\n"
    assert box.ok("search", "--level", "3", "el") == "3\tgato\tfront\tel gato\n"
    assert box.ok("search", "gat") == "3\tgato\tid\tgato\n3\tgato\tfront\tel gato\n"
    assert box.ok("search", "-l", "the") == "perro\ngato\n"
    assert box.ok("search", "-E", "^(the )?c.t$") == "3\tgato\tback\tthe cat\n"
    # --json: one SearchMatch a line (JSON Lines, as the other streamed commands).
    assert box.ok("--json", "search", "--back", "bark") == (
        '{"field":"back","id":"perro","level":"1","line":"line two: DOGS bark","mediaType":"text/plain"}\n')
    # A Markdown side's line says so, for a client that shows it without its marks.
    assert [json.loads(line)["mediaType"] for line in box.ok("--json", "search", "der").splitlines()] == ["text/markdown"]
    assert [json.loads(line)["field"] for line in box.ok("--json", "search", "gat").splitlines()] == ["id", "front"]
    nothing = box.ctl("search", "zebra")
    assert nothing.returncode == 1 and nothing.stdout == "" and nothing.stderr == ""
    bad = box.ctl("search", "-E", "(")
    # Told apart from "nothing matches" (1): a wrong command line, with the usage.
    assert bad.returncode == 64 and bad.stderr.startswith("leitnerctl: invalid search pattern '(': ")
    assert "Usage: leitnerctl search [OPTIONS] PATTERN\n" in bad.stderr
    # Hand changes are searched at once (R13): a side rewritten in place, a card made by hand,
    # one removed; and the box's own edit and rename.
    (box.store / "3" / "gato" / "back.txt").write_text("the zebra")
    assert box.ok("search", "-l", "zebra") == "gato\n"
    (box.store / "2" / "kuh").mkdir()
    (box.store / "2" / "kuh" / "front.txt").write_text("die Kuh")
    (box.store / "2" / "kuh" / "back.txt").write_text("the cow")
    assert box.ok("search", "cow") == "2\tkuh\tback\tthe cow\n"
    os.rename(box.store / "2" / "kuh", tmp_path / "kuh")
    assert box.ctl("search", "cow").returncode == 1
    box.ok("rename", "perro", "hund-2")
    box.ok("edit", "hund-2", "--front-file", tmp_path / "f.md")
    assert box.ok("search", "-l", "hund") == "hund\nhund-2\n"
    assert box.ctl("search", "--front", "perro").returncode == 1
    command = " ".join(shlex.quote(str(p)) for p in
                       [box.bin_dir / "leitnerctl", "--socket", box.socket, "--no-autostart", "search", "zEbRa"])
    shown = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True, text=True,
                           env=box.env, timeout=30).stdout
    assert "the \x1b[1m\x1b[31mzebra\x1b[0m" in shown
