#!/usr/bin/env python3
"""Anki's import of N notes in one call, the figure `leitnerctl import` is set beside
(docs/performance.md): a fresh collection, N "Basic" notes built first, then one
`Collection.add_notes` (its Rust core adds them in one transaction, committed to SQLite in WAL
mode); only `add_notes` is timed. Needs the `anki` package, as bench/anki-answer.py says.
Usage: anki-add.py [NOTES] (default 10000)."""
import os
import shutil
import sys
import tempfile
import time

try:
    from anki.collection import AddNoteRequest, Collection
except ImportError:
    sys.exit("bench/anki-add.py: the 'anki' package is missing; see bench/anki-answer.py for how to install it")


def main():
    notes = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    root = tempfile.mkdtemp(prefix="anki-add-", dir=os.environ.get("BENCH_DIR", "/tmp"))
    try:
        collection = Collection(os.path.join(root, "collection.anki2"))
        notetype = collection.models.by_name("Basic")
        deck = collection.decks.id("Default")
        requests = []
        for i in range(notes):
            note = collection.new_note(notetype)
            note["Front"], note["Back"] = f"word {i}", f"back of word {i}"
            requests.append(AddNoteRequest(note=note, deck_id=deck))
        start = time.perf_counter()
        collection.add_notes(requests)
        took = time.perf_counter() - start
        print(f"anki: add_notes of {notes} notes in one call  {took * 1000:8.1f} ms")
        collection.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
