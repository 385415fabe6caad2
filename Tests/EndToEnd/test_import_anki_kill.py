"""`leitnerctl import FILE.apkg` killed (R17, R18, docs/store-format.md, "Batches"): the daemon is
sent SIGKILL at random instants of an import of a deck written by Anki's own library, each note
showing one of a few hundred pictures that several cards share. After each restart every card in
the box is exactly the card an import without kills makes — the same files, the same bytes — the
log adds each card in the box once and nothing else, and nothing is left staged; importing again
adds exactly the cards still missing."""
import os
import random
import time

from anki_decks import write_bench_deck
from cli_box import CliBox, box, kill_during_an_import  # noqa: F401  (fixture)
from daemon_support import log_file, private_dir

PLACES = ["new", "suspended", "1", "2", "3", "4", "5", "6", "7", "finished"]


def cards(store):
    """Every card directory: id → {file name: bytes}."""
    found = {}
    for place in PLACES:
        directory = store / place
        for card in os.scandir(directory) if directory.is_dir() else []:
            assert card.name not in found, f"{card.name} is in two places"
            found[card.name] = {f.name: open(f.path, "rb").read() for f in os.scandir(card.path)}
    return found


def added_in_log(store):
    fields = [line.split("\t") for line in log_file(store).read_text().splitlines()]
    return [f[2] for f in fields if f[1] == "add"]


def test_a_kill_during_an_anki_import_leaves_every_card_whole_or_absent(bin_dir, box, tmp_path):  # noqa: F811
    seed = int(os.environ.get("LEITNER_IMPORT_KILL_SEED", random.randrange(1 << 32)))
    print(f"LEITNER_IMPORT_KILL_SEED={seed} repeats these kills' instants")
    rng = random.Random(seed)
    package = write_bench_deck(str(tmp_path / "deck"), 3000, 600)
    reference_box = CliBox(bin_dir, tmp_path / "reference")
    reference_box.start()
    try:
        began = time.monotonic()
        reference_box.ok("import", "--quiet", package)
        # The kills fall within the first quarter of the import's length, measured on this
        # machine: a fixed 0.6 s outlasted a whole import on a fast one, and no kill fell inside.
        within = min(0.6, (time.monotonic() - began) / 4)
        reference = cards(reference_box.store)
    finally:
        reference_box.stop()
    assert len(reference) == 3000
    staging = private_dir(box.store) / "tmp"
    counts = []
    for round_number in range(3):
        # At a random instant of the cards' writing, renames or sync.
        kill_during_an_import(box, package, rng, within, "--quiet")
        found = cards(box.store)
        for card, files in found.items():
            assert files == reference.get(card), f"round {round_number}: {card} is not whole"
        logged = added_in_log(box.store)
        assert sorted(logged) == sorted(found), f"round {round_number}: the log's adds and the cards differ"
        assert not os.listdir(staging), os.listdir(staging)
        assert not (private_dir(box.store) / "batch").exists()
        counts.append(len(found))
    # The kills fell inside the import, not after it.
    assert any(count < len(reference) for count in counts), counts
    report = box.json("import", package)
    assert report["added"] == len(reference) - counts[-1] and report["leftAlone"] == counts[-1], report
    assert cards(box.store) == reference
    assert sorted(added_in_log(box.store)) == sorted(reference)
