"""Decks written by Anki's own library (PyPI `anki`, the core Anki's desktop app runs on), for
the tests of `leitnerctl import FILE.apkg|.colpkg` (R34) and its benchmark.

`write_decks(directory)` builds one collection holding every kind of note the import maps —
basic, basic and reversed, optional reverse, type-in, cloze (several numbers, a hint, one
number twice), image occlusion (to be reported) — with a PNG and an MP3 in fields, tags with
`::`, and cards suspended, new, learning and reviewed at intervals from 1 to 400 days (a cloze
note's cards in three of those places); it
exports the "Languages" deck in the current format and in the legacy one ("support older Anki
versions"), and the whole collection as a `.colpkg`. It returns what the library says the deck
holds, card by card, for the tests to check the box against. `write_cloze_decks(directory)`
writes cloze notes with media and a type-in cloze note type in a collection of their own.

Run as a script, `anki_decks.py DIRECTORY [NOTES MEDIA]` writes those files, or with NOTES a
deck of that many basic notes sharing MEDIA media files (the benchmark's)."""
import base64
import json
import os
import sys

from anki.collection import Collection, DeckIdLimit, ExportAnkiPackageOptions

# A 1×1 PNG and the smallest MPEG audio frame header with silence: real files of their kind,
# as a user's deck holds, not text with an image's name.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
MP3 = bytes([0xFF, 0xFB, 0x90, 0x64]) + bytes(413)

# Interval in days of each reviewed card, and the level `--keep-progress` gives it
# (docs/import-anki.md: level k is seen every 2^(k-1) days; the nearest on a log scale).
INTERVALS = [1, 2, 3, 5, 9, 20, 40, 64, 100, 400]


def note(col, notetype, deck, fields, tags=()):
    n = col.new_note(col.models.by_name(notetype))
    for name, value in fields.items():
        n[name] = value
    n.tags = list(tags)
    col.add_note(n, deck)
    return n


def build(col):
    deck = col.decks.id("Languages")
    other = col.decks.id("Other")
    png = col.media.write_data("cat.png", PNG)
    mp3 = col.media.write_data("miau.mp3", MP3)
    basics = [note(col, "Basic", deck, {"Front": f"Hund {i}", "Back": f"<b>dog</b> {i}"}, ["de::animals", "noun"])
              for i in range(len(INTERVALS) + 4)]
    note(col, "Basic", deck, {"Front": f'Katze <img src="{png}">', "Back": f"cat [sound:{mp3}]"}, ["de::animals"])
    note(col, "Basic (and reversed card)", deck, {"Front": "Haus", "Back": "house<br>building"})
    note(col, "Basic (optional reversed card)", deck, {"Front": "Baum", "Back": "tree", "Add Reverse": "y"})
    note(col, "Basic (optional reversed card)", deck, {"Front": "Blatt", "Back": "leaf", "Add Reverse": ""})
    note(col, "Basic (type in the answer)", deck, {"Front": "Maus", "Back": "mouse"})
    cloze = note(col, "Cloze", deck, {"Text": "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}, {{c1::die Katze}} "
                                              "träumt {{c3::lange}}.", "Back Extra": "Katzen schlafen viel."}, ["de::grammar"])
    note(col, "Basic", other, {"Front": "elsewhere", "Back": "not in Languages"})
    col.add_image_occlusion_notetype()
    io = col.models.by_name("Image Occlusion")
    image = os.path.join(col.media.dir(), png)
    col.decks.select(deck)
    col.add_image_occlusion_note(io["id"], image, "{{c1::image-occlusion:rect:left=.1:top=.1:width=.3:height=.3}}",
                                 "header", "", [])
    col.set_deck([c for n in col.find_notes(f"mid:{io['id']}") for c in col.get_note(n).card_ids()], deck)
    # Places and progress: the basics' first cards, in order: reviewed at INTERVALS, then
    # learning, suspended, and the rest new.
    cards = [n.cards()[0] for n in basics]
    for card, interval in zip(cards, INTERVALS):
        col.db.execute("update cards set type=2, queue=2, ivl=?, due=? where id=?", interval,
                       col.sched.today + interval, card.id)
    learning, suspended = cards[len(INTERVALS)], cards[len(INTERVALS) + 1]
    col.db.execute("update cards set type=1, queue=1, ivl=0, due=? where id=?", 1_700_000_000, learning.id)
    col.sched.suspend_cards([suspended.id])
    # A cloze note's cards in three places: new, reviewed at 20 days, suspended.
    _, reviewed, put_aside = sorted(cloze.cards(), key=lambda c: c.ord)
    col.db.execute("update cards set type=2, queue=2, ivl=20, due=? where id=?", col.sched.today + 20, reviewed.id)
    col.sched.suspend_cards([put_aside.id])
    return deck


def describe(col, deck):
    """Every card of the deck as the library says it: the note's guid, kind, template, sides
    rendered (HTML), tags, deck, place and interval."""
    described = []
    for cid in col.find_cards(f"did:{deck}" if deck else "", order="c.id"):
        card = col.get_card(cid)
        n = card.note()
        notetype = n.note_type()
        described.append({
            "guid": n.guid, "notetype": notetype["name"], "ord": card.ord,
            "template": notetype["tmpls"][card.ord]["name"] if notetype["type"] == 0 else None,
            "cloze": notetype["type"] == 1,
            "question": card.question(), "answer": card.answer(), "tags": n.tags,
            "queue": card.queue, "type": card.type, "ivl": card.ivl, "due": card.due, "deck": col.decks.name(card.did),
            "fields": dict(n.items()),
        })
    return described


def media_bytes(col):
    """Each media file of the collection: name → its bytes in hex."""
    return {name: open(os.path.join(col.media.dir(), name), "rb").read().hex() for name in os.listdir(col.media.dir())}


def export_deck(col, deck, directory, current, legacy):
    """The deck exported with its scheduling and media, in the current format as `current` and
    with "support older Anki versions" as `legacy`; their paths by those names."""
    files = {}
    for name, old in ((current, False), (legacy, True)):
        files[name] = os.path.join(directory, name)
        col.export_anki_package(out_path=files[name], limit=DeckIdLimit(deck), options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False, with_media=True, legacy=old))
    return files


def write_decks(directory):
    os.makedirs(directory, exist_ok=True)
    col = Collection(os.path.join(directory, "collection.anki2"))
    try:
        deck = build(col)
        expected = describe(col, deck)
        media = media_bytes(col)
        files = export_deck(col, deck, directory, "current.apkg", "legacy.apkg")
        whole = describe(col, None)
        path = os.path.join(directory, "whole.colpkg")
        # Exporting a whole collection closes it.
        col.export_collection_package(path, include_media=True, legacy=False)
        files["whole.colpkg"] = path
        return {"files": files, "cards": expected, "media": media, "whole": whole}
    finally:
        if col.db:
            col.close()


def write_cloze_decks(directory):
    """A deck of two cloze notes as Anki's library writes them: one whose fields show a picture
    and play a sound, and one of a type-in cloze note type (`{{type:cloze:Text}}`, as Anki's
    manual makes it); exported in the current format and the legacy one. Returns the files,
    each note's guid, fields and note type, and the media's bytes (hex)."""
    os.makedirs(directory, exist_ok=True)
    col = Collection(os.path.join(directory, "cloze.anki2"))
    try:
        deck = col.decks.id("Cloze media")
        png = col.media.write_data("katze.png", PNG)
        mp3 = col.media.write_data("schnurren.mp3", MP3)
        typed = col.models.copy(col.models.by_name("Cloze"), add=False)
        typed["name"] = "Cloze (type in the answer)"
        typed["tmpls"][0]["qfmt"] = "{{cloze:Text}}\n{{type:cloze:Text}}"
        typed["tmpls"][0]["afmt"] = "{{cloze:Text}}\n{{type:cloze:Text}}<br>\n{{Back Extra}}"
        col.models.add(typed)
        note(col, "Cloze", deck, {"Text": f'Die {{{{c1::Katze}}}} <img src="{png}"> {{{{c2::schnurrt}}}}.',
                                  "Back Extra": f"[sound:{mp3}]"}, ["de::media"])
        note(col, "Cloze (type in the answer)", deck, {"Text": "Der {{c1::Hund}} bellt.", "Back Extra": ""})
        notes = [{"guid": n.guid, "notetype": n.note_type()["name"], "fields": dict(n.items()),
                  "cards": sorted(c.ord + 1 for c in n.cards())}
                 for n in (col.get_note(i) for i in col.find_notes(f"did:{deck}"))]
        return {"files": export_deck(col, deck, directory, "cloze.apkg", "cloze-legacy.apkg"), "notes": notes,
                "media": media_bytes(col)}
    finally:
        col.close()


def write_bench_deck(directory, notes, media_files):
    """A deck of `notes` basic notes, every fifth with one of `media_files` PNGs, exported in
    the current format; returns its path."""
    os.makedirs(directory, exist_ok=True)
    col = Collection(os.path.join(directory, "bench.anki2"))
    try:
        deck = col.decks.id("Bench")
        names = [col.media.write_data(f"picture{m:05d}.png", PNG + m.to_bytes(4, "big")) for m in range(media_files)]
        notetype = col.models.by_name("Basic")
        from anki.collection import AddNoteRequest
        requests = []
        for i in range(notes):
            n = col.new_note(notetype)
            n["Front"] = f"word {i}"
            n["Back"] = f"back of <i>word</i> {i}" + (f' <img src="{names[i % media_files]}">' if media_files else "")
            requests.append(AddNoteRequest(note=n, deck_id=deck))
        col.add_notes(requests)
        path = os.path.join(directory, "bench.apkg")
        col.export_anki_package(out_path=path, limit=DeckIdLimit(deck), options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False, with_media=True, legacy=False))
        return path
    finally:
        col.close()


if __name__ == "__main__":
    if len(sys.argv) > 2:
        print(write_bench_deck(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
    else:
        print(json.dumps(write_decks(sys.argv[1]), indent=1, ensure_ascii=False))
