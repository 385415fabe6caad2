#!/usr/bin/env python3
"""Anki's in-process durable answer on this machine: the figure docs/performance.md sets the daemon's Grade
round trip against. A collection of 100,000 notes ("Basic"), then 1,000 answers through Anki's own
Python library (Rust core, SQLite in WAL mode, one fsync per answer); only `answer_card` is timed.

Needs the `anki` package, which CI does not install (it is 40 MB and not ours to test):
    python3 -m venv /tmp/anki-venv && /tmp/anki-venv/bin/pip install anki
    /tmp/anki-venv/bin/python bench/anki-answer.py [CARDS] [ANSWERS]
bench/daemon.py runs it in the same run when ANKI_PYTHON names that interpreter."""
import os
import shutil
import sys
import tempfile
import time

try:
    from anki.collection import AddNoteRequest, Collection
    from anki.scheduler.v3 import CardAnswer
except ImportError:
    sys.exit("bench/anki-answer.py: the 'anki' package is missing; see the top of this file for how to install it")


def main():
    cards = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    answers = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000
    root = tempfile.mkdtemp(prefix="anki-bench-", dir=os.environ.get("BENCH_DIR", "/tmp"))
    try:
        collection = Collection(os.path.join(root, "collection.anki2"))
        notetype = collection.models.by_name("Basic")
        deck = collection.decks.id("Default")
        started = time.monotonic()
        requests = []
        for i in range(cards):
            note = collection.new_note(notetype)
            note["Front"], note["Back"] = f"front {i}", f"back {i}"
            requests.append(AddNoteRequest(note=note, deck_id=deck))
        collection.add_notes(requests)
        config = collection.decks.config_dict_for_deck_id(deck)
        config["new"]["perDay"] = config["rev"]["perDay"] = 9999
        collection.decks.update_config(config)
        print(f"anki: {cards} cards added in {time.monotonic() - started:.1f} s")
        times = []
        for _ in range(answers):
            card = collection.sched.getCard()
            states = collection._backend.get_scheduling_states(card.id)
            changes = collection.sched.build_answer(card=card, states=states, rating=CardAnswer.GOOD)
            start = time.perf_counter_ns()
            collection.sched.answer_card(changes)
            times.append(time.perf_counter_ns() - start)
        times.sort()
        print(f"anki: answer_card, durable ({answers})  p50 {times[len(times) // 2] / 1000:7.1f} µs  "
              f"p99 {times[int(len(times) * 0.99)] / 1000:7.1f} µs")
        collection.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
