"""`export` then `import` gives the same box back (docs/leitnerctl.md, "Round trips"): a box with
every kind of card — plain and Markdown cards, a card with a picture and a sound (R31), a typed
one (R32), tagged ones (R25), reverse cards with their own tags and type-answer (R28), a cloze
note with its extra, tags, media and type-answer and cards in different places (R30) — in every
place (new/, suspended/, the levels, finished/), exported and imported into a fresh box, whose
store is compared with the first file by file; a second import adds nothing."""
import os

from cli_box import CliBox, box  # noqa: F401  (a fixture)
from daemon_support import log_events

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f8d5a80000000049454e44ae426082")
MP3 = b"ID3\x03\x00\x00\x00\x00\x00\x00" + bytes(range(256))
PLACES = ["new", "suspended", "1", "2", "3", "4", "5", "6", "7", "finished"]
# No admissions: a card in new/ stays there whatever request opens the day's test (R23).
NO_ADMISSIONS = "[Schedule]\nNewPerDay=0\n"


def admit_none(box):
    """Restarts (or, not started, readies) the box's daemon with no admissions."""
    started = box.daemon is not None
    if started:
        box.stop()
    (box.tmp / "config" / "leitner" / "leitner.conf").write_text(NO_ADMISSIONS)
    box.start()


def make_box_of_every_kind(box, tmp_path):
    admit_none(box)
    (tmp_path / "katze.png").write_bytes(PNG)
    (tmp_path / "miau.mp3").write_bytes(MP3)
    box.ok("add", "--id", "hund", "--level", "3", "der Hund", "the dog\twith a tab\nand a line")
    box.ok("add", "--id", "katze", "--level", "2", "--media", tmp_path / "katze.png", "--media", tmp_path / "miau.mp3",
           "Die Katze ![eine Katze](katze.png)", "the cat [sound:miau.mp3]")
    box.ok("add", "--id", "ka", "--level", "new", "--type-answer", "か", "ka")
    box.ok("add", "--id", "maus", "--level", "finished", "die Maus", "the mouse")
    box.ok("add", "--id", "baum", "--level", "5", "der Baum", "the tree")
    box.ok("suspend", "baum")
    box.ok("tag", "hund", "de", "animals")
    box.ok("tag", "ka", "ja:kana")
    # Reverse cards: one with tags of its own and a type-answer, one beside its card in new/.
    box.ok("reverse", "hund", "--id", "dog", "--level", "1")
    box.ok("untag", "dog", "animals")
    box.ok("tag", "dog", "en")
    (box.store / "1" / "dog" / "type-answer").write_bytes(b"")
    box.ok("reverse", "ka")
    box.ok("reverse", "katze", "--level", "7")
    # A cloze note with extra, tags, media and type-answer, its cards in three places, one
    # tagged apart and one renamed.
    box.ok("add", "--cloze", "Die {{c1::Katze}} ![eine Katze](katze.png) schläft {{c2::auf dem Sofa::wo?}}, "
           "die {{c1::Katze}} und {{c3::der Hund}}.", "--extra", "Katze: cat [sound:miau.mp3]",
           "--id", "satz", "--level", "2", "--tag", "de")
    note = box.store / "notes" / "satz"
    (note / "katze.png").write_bytes(PNG)
    (note / "miau.mp3").write_bytes(MP3)
    (note / "type-answer").write_bytes(b"")
    box.ok("move", "satz.c2", "4")
    box.ok("suspend", "satz.c3")
    box.ok("tag", "satz.c1", "de:grammar")
    box.ok("rename", "satz.c3", "hund-im-satz")
    # A note without extra, its card in new/.
    box.ok("add", "--cloze", "{{c1::eins}} zwei", "--id", "zahl", "--level", "new")


def store_of(box):
    """(place, id) → {file: bytes} for every card, and note → {file: bytes}, read from the store;
    a tags file as the set of its lines (no file: none; the order tags were put on is not kept)."""
    def files(directory):
        result = {}
        for name in sorted(os.listdir(directory)):
            data = (directory / name).read_bytes()
            result[name] = data
        tags = result.pop("tags", b"")
        return result, frozenset(tags.decode().split())

    cards = {}
    for place in PLACES:
        if (box.store / place).is_dir():
            for card in os.listdir(box.store / place):
                if not card.startswith("."):
                    cards[(place, card)] = files(box.store / place / card)
    notes = {note: files(box.store / "notes" / note) for note in os.listdir(box.store / "notes")}
    return cards, notes


def imported_box(bin_dir, tmp_path, name):
    other = CliBox(bin_dir, tmp_path / name)
    admit_none(other)
    return other


def test_export_dir_with_levels_gives_the_same_box_back(box, tmp_path, bin_dir):
    make_box_of_every_kind(box, tmp_path)
    original = store_of(box)
    cards, notes = original
    # The box holds what the test means it to: every kind, in every place.
    assert cards[("1", "dog")][0] == {"reverse-of": b"hund\n", "type-answer": b""} and cards[("1", "dog")][1] == {"de", "en"}
    assert cards[("suspended", "hund-im-satz")][0] == {"cloze-of": b"satz\nc3\n"}
    assert set(notes["satz"][0]) == {"text.md", "extra.md", "katze.png", "miau.mp3", "type-answer"}
    assert {place for place, _ in cards} == {"new", "suspended", "1", "2", "3", "4", "7", "finished"}

    exported = tmp_path / "exported"
    copied = box.ok("export", "--dir", exported, "--with-levels")
    assert copied == f"Copied {len(cards)} cards and 2 notes to '{exported}'.\n"
    assert (exported / "notes" / "satz" / "katze.png").read_bytes() == PNG
    assert (exported / "2" / "katze" / "miau.mp3").read_bytes() == MP3

    other = imported_box(bin_dir, tmp_path, "other")
    try:
        result = other.ctl("import", "--with-levels", exported)
        assert result.returncode == 0, result.stderr
        assert f"{len(cards)} added, 0 already present, 0 refused" in result.stdout
        assert store_of(other) == original
        # Each card went in where it belongs, a note's cards too: none was moved after.
        assert "move" not in log_events(other.store)
        # Served as the first box serves them: a reverse as a reverse, a cloze card by its note.
        shown = other.json_lines("list")
        kinds = {card["id"]: (card.get("reverseOf"), card.get("clozeOf"), card.get("cloze")) for card in shown}
        assert kinds["dog"] == ("hund", None, None) and kinds["ka.rev"] == ("ka", None, None)
        assert kinds["hund-im-satz"] == (None, "satz", 3) and kinds["hund"] == (None, None, None)
        assert other.ctl("doctor").returncode == 0 and box.ctl("doctor").returncode == 0
        # A second import adds nothing and changes nothing.
        again = other.ok("import", "--with-levels", exported)
        assert "0 added" in again and "0 refused" in again, again
        assert store_of(other) == original
    finally:
        other.stop()


def test_export_tsv_with_levels_gives_the_same_box_back_but_media(box, tmp_path, bin_dir):
    make_box_of_every_kind(box, tmp_path)
    cards, notes = store_of(box)
    exported = box.ctl("export", "--with-levels")
    assert exported.returncode == 0, exported.stderr
    assert "cards show pictures or sounds, which TSV does not carry" in exported.stderr
    lines = exported.stdout.splitlines()
    assert lines[0] == "id\tlevel\tfront\tback\tfrontext\tbackext\ttags\ttype-answer\treverse-of\tcloze-of\tcloze"
    rows = {line.split("\t")[0]: line.split("\t") for line in lines[1:]}
    assert rows["dog"][1:3] == ["1", "the dog\\twith a tab\\nand a line"] and rows["dog"][6:9] == ["de en", "yes", "hund"]
    assert rows["hund-im-satz"][-2:] == ["satz", "3"] and rows["hund-im-satz"][1] == "suspended"
    assert rows["hund-im-satz"][2].startswith("Die {{c1::Katze}}") and rows["hund-im-satz"][3] == "Katze: cat [sound:miau.mp3]"
    tsv = tmp_path / "box.tsv"
    tsv.write_text(exported.stdout)

    other = imported_box(bin_dir, tmp_path, "other")
    try:
        result = other.ctl("import", "--with-levels", tsv)
        assert result.returncode == 0, result.stderr
        copied, copied_notes = store_of(other)
        # Everything but the pictures and sounds, which TSV leaves behind.
        media = {"katze.png", "miau.mp3"}

        def without_media(files):
            return ({name: data for name, data in files[0].items() if name not in media}, files[1])
        assert {key: without_media(value) for key, value in copied.items()} == \
            {key: without_media(value) for key, value in cards.items()}
        assert {key: without_media(value) for key, value in copied_notes.items()} == \
            {key: without_media(value) for key, value in notes.items()}
        again = other.ok("import", "--with-levels", tsv)
        assert "0 added" in again and "0 refused" in again, again
    finally:
        other.stop()


def test_import_reads_a_type_answer_column_and_refuses_a_bad_one(box, tmp_path):
    tsv = tmp_path / "typed.tsv"
    tsv.write_text("id\tfront\tback\ttype-answer\nka\tか\tka\tyes\nki\tき\tki\t\nku\tく\tku\tmaybe\n")
    result = box.ctl("import", "--level", "1", tsv)
    assert result.returncode == 1 and f"{tsv}:4: type-answer 'maybe': expected yes or no" in result.stderr
    assert "2 added" in result.stdout
    assert (box.store / "1" / "ka" / "type-answer").exists() and not (box.store / "1" / "ki" / "type-answer").exists()
