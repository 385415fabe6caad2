"""`leitnerctl import FILE.apkg|.colpkg` (R34, docs/anki-import.md) against packages written by
Anki's own library (anki_decks.py): each of the current format, the legacy one and a whole
collection is imported, and the box is checked card by card against what the library says the
deck holds — kinds, sides as text, tags, places, levels under --keep-progress — and what is not
carried is reported; a second import adds nothing."""
import html
import json
import pathlib
import re

import pytest

from anki_decks import write_cloze_decks, write_decks
from cli_box import CliBox, box  # noqa: F401  (fixture)
from daemon_support import log_events, log_file

PLACES = ["new", "suspended", "1", "2", "3", "4", "5", "6", "7", "finished"]
# docs/anki-import.md, "Progress": the level of each interval of anki_decks.INTERVALS.
LEVEL_OF_INTERVAL = {1: "1", 2: "2", 3: "3", 5: "3", 9: "4", 20: "5", 40: "6", 64: "7", 100: "finished", 400: "finished"}


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    return write_decks(str(tmp_path_factory.mktemp("anki")))


def card_id(guid):
    """The id the import gives a note's first card: `anki-` and the guid, `_XX` for what no id holds."""
    return "anki-" + "".join(c if c.isascii() and (c.isalnum() or c in "-.") else f"_{ord(c):02X}" for c in guid)


def text_of_html(markup):
    """What a reader sees of Anki's rendered HTML: no style, no tags, references decoded, one space."""
    markup = re.sub(r"(?s)<style>.*?</style>|<script.*?</script>", "", markup)
    markup = re.sub(r"<img[^>]*>|\[sound:[^\]]*\]|\[anki:play:[^\]]*\]", "", markup)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def text_of_markdown(markdown):
    """What a reader sees of one of our sides: no emphasis marks, no media references."""
    markdown = re.sub(r"!\[[^\]]*\]\([^)]*\)|\[sound:[^\]]*\]", "", markdown)
    return " ".join(markdown.replace("**", "").replace("\\*", "*").split())


def in_box(store):
    """Every card directory: id → (place, directory)."""
    found = {}
    for place in PLACES:
        for directory in (store / place).glob("*") if (store / place).is_dir() else []:
            assert directory.name not in found, f"{directory.name} is in two places"
            found[directory.name] = (place, directory)
    return found


def expected_place(card, keep_progress):
    if card["queue"] == -1:
        return "suspended"
    if not keep_progress or card["type"] == 0:
        return "new"
    return LEVEL_OF_INTERVAL[card["ivl"]] if card["type"] == 2 else "1"


@pytest.mark.parametrize("name,keep_progress", [("current.apkg", True), ("legacy.apkg", True), ("current.apkg", False),
                                                ("whole.colpkg", True)])
def test_each_anki_card_becomes_a_card_as_the_library_says(box, decks, name, keep_progress):  # noqa: F811
    args = ["import", "--json", decks["files"][name]] + (["--keep-progress"] if keep_progress else [])
    report = box.json(*args)
    expected = decks["whole"] if name.endswith(".colpkg") else decks["cards"]
    cards = in_box(box.store)
    carried = [c for c in expected if c["notetype"] != "Image Occlusion"]
    # Kinds: every Anki card but image occlusion's is one card, of its kind.
    assert report["added"] == len(carried) == len(cards), (report, sorted(cards))
    assert report["kinds"] == {"basic": sum(1 for c in carried if c["ord"] == 0 and not c["cloze"]) - 1, "typed": 1,
                               "reverse": 2, "cloze": 3}
    assert report["clozeNotes"] == 1
    assert report["media"] == 2
    assert any(item["what"] == "note type 'Image Occlusion'" and "image occlusion" in item["reason"]
               for item in report["notCarried"])
    for card in carried:
        base = card_id(card["guid"])
        if card["cloze"]:
            cid = f"{base}.c{card['ord'] + 1}"
            place, directory = cards[cid]
            assert (directory / "cloze-of").read_text().split() == [base, f"c{card['ord'] + 1}"]
            note = box.store / "notes" / base
            assert text_of_markdown((note / "text.md").read_text()) == text_of_html(card["fields"]["Text"])
            assert "{{c2::auf dem Sofa::wo?}}" in (note / "text.md").read_text()
            assert text_of_markdown((note / "extra.md").read_text()) == text_of_html(card["fields"]["Back Extra"])
        else:
            cid = base + (".rev" if card["ord"] == 1 else "")
            place, directory = cards[cid]
            # The library leaves [[type:Field]] for the app's input box; on the answer the app
            # shows the expected text there, as the card's back does.
            question = text_of_html(re.sub(r"\[\[type:[^\]]*\]\]", "", card["question"]))
            answer = text_of_html(re.sub(r"\[\[type:([^\]]*)\]\]", lambda m: card["fields"][m.group(1)],
                                         card["answer"].split("<hr id=answer>", 1)[1]))
            if card["ord"] == 1:
                # The reverse card shows its card's sides swapped (R28).
                assert (directory / "reverse-of").read_text().strip() == base
                forward = cards[base][1]
                assert text_of_markdown((forward / "back.md").read_text()) == question
                assert text_of_markdown((forward / "front.md").read_text()) == answer
            else:
                assert text_of_markdown((directory / "front.md").read_text()) == question, cid
                assert text_of_markdown((directory / "back.md").read_text()) == answer, cid
                # Media: each one a side names is a file of the card's directory, its bytes the library's (R31).
                named = re.findall(r'<img src="([^"]+)"|\[sound:([^\]]+)\]', card["fields"]["Front"] + card["fields"]["Back"])
                for medium in [a or b for a, b in named]:
                    assert (directory / medium).read_bytes().hex() == decks["media"][medium], (cid, medium)
                    assert f"![](cat.png)" in (directory / "front.md").read_text() or medium != "cat.png"
                    assert f"[sound:{medium}]" in (directory / "back.md").read_text() or medium != "miau.mp3"
                if named:
                    assert {p.name for p in directory.iterdir()} == {"front.md", "back.md", "tags", "cat.png", "miau.mp3"}
                # A type-in template's card asks for its answer typed (R32).
                assert (directory / "type-answer").exists() == ("{{type:" in card["question"] or "[[type:" in card["question"]), cid
        assert place == expected_place(card, keep_progress), (cid, card)
        tags = (directory / "tags").read_text().split() if (directory / "tags").exists() else []
        if card["cloze"]:
            tags = (box.store / "notes" / base / "tags").read_text().split()
        assert set(tags) == {t.replace("::", ":") for t in card["tags"]} | {"deck:" + card["deck"]}, cid

    # Every card was added where it belongs, in the change that made it: none moved after, not
    # even a cloze note's cards in three places.
    events = log_events(box.store)
    assert events.count("add") == len(cards) and "move" not in events, events

    # A second import adds nothing, and says so in cards, as the first counted what it added:
    # reverse and cloze cards too, where it counted a card with its reverse once and a cloze
    # note's three cards as one.
    again = box.json(*args)
    assert again["added"] == 0 and again["leftAlone"] == len(cards), again
    assert in_box(box.store).keys() == cards.keys()


def test_new_cards_wait_in_ankis_order_and_a_deck_is_taken_alone(box, decks):  # noqa: F811
    box.ok("import", decks["files"]["whole.colpkg"], "--deck", "Other")
    cards = in_box(box.store)
    assert list(cards) == [card_id(c["guid"]) for c in decks["whole"] if c["fields"].get("Front") == "elsewhere"]
    missing = box.ctl("import", decks["files"]["whole.colpkg"], "--deck", "Nowhere")
    assert missing.returncode == 1
    assert "it has no deck 'Nowhere'; its decks are 'Default', 'Languages', 'Other'" in missing.stderr
    box.ok("import", decks["files"]["current.apkg"])
    added = [line.split("\t")[2] for line in log_file(box.store).read_text().splitlines() if line.split("\t")[1:2] == ["add"]]
    new = [c for c in decks["cards"] if c["type"] == 0 and c["queue"] != -1 and c["ord"] == 0 and not c["cloze"]
           and c["notetype"] != "Image Occlusion"]
    order = [card_id(c["guid"]) for c in sorted(new, key=lambda c: c["due"])]
    assert [a for a in added if a in order] == order


def test_a_package_that_is_not_one_is_refused_with_its_reason(box, tmp_path):  # noqa: F811
    """A file that is no zip, and a package cut short (a download that stopped), are said so,
    where both were "'unzip' failed to unpack …: exited with status 9"."""
    bad, cut = tmp_path / "bad.apkg", tmp_path / "cut.apkg"
    bad.write_bytes(b"not a zip")
    decks = write_cloze_decks(str(tmp_path / "anki"))
    whole = pathlib.Path(decks["files"]["cloze.apkg"]).read_bytes()
    cut.write_bytes(whole[:len(whole) // 2])
    for path, reason in [(bad, "it is not a zip file, as every .apkg and .colpkg is"),
                         (cut, "it is cut short (its zip directory is missing): a download that stopped? Fetch it again")]:
        result = box.ctl("import", path)
        assert (result.returncode, result.stderr) == (1, f"leitnerctl: cannot import '{path}': not a package Anki wrote: {reason}\n")
    assert in_box(box.store) == {}


@pytest.mark.parametrize("name", ["cloze.apkg", "cloze-legacy.apkg"])
def test_a_cloze_notes_media_and_typed_answer_go_into_its_note(box, tmp_path, name):  # noqa: F811
    """R30, R31, R32: a cloze note whose fields show a picture and play a sound carries them into
    the note's directory, where each of its cards finds them; a type-in cloze note type
    (`{{type:cloze:Text}}`) gives the note its type-answer file, and a plain one does not."""
    decks = write_cloze_decks(str(tmp_path / "anki"))
    report = box.json("import", decks["files"][name])
    assert report["clozeNotes"] == 2 and report["kinds"] == {"cloze": 3}, report
    assert report["media"] == 2 and report["notCarried"] == [], report
    cards = in_box(box.store)
    for note in decks["notes"]:
        base = card_id(note["guid"])
        directory = box.store / "notes" / base
        assert sorted(c for c in cards if c.startswith(base + ".c")) == [f"{base}.c{n}" for n in note["cards"]]
        named = re.findall(r'<img src="([^"]+)"|\[sound:([^\]]+)\]', note["fields"]["Text"] + note["fields"]["Back Extra"])
        for medium in [a or b for a, b in named]:
            assert (directory / medium).read_bytes().hex() == decks["media"][medium], (base, medium)
        if named:
            text = (directory / "text.md").read_text() + (directory / "extra.md").read_text()
            assert "![](katze.png)" in text and "[sound:schnurren.mp3]" in text, text
        assert (directory / "type-answer").exists() == (note["notetype"] == "Cloze (type in the answer)"), base
    # Each card of the note shows the picture its note holds (R31).
    [pictured] = [card_id(n["guid"]) for n in decks["notes"] if "<img" in n["fields"]["Text"]]
    shown = box.json("show", pictured + ".c1")["card"]
    assert [m["name"] for m in shown["front"]["media"]] == ["katze.png"], shown
