#!/usr/bin/env python3
"""`leitnerctl import FILE.apkg` beside Anki's own import of the same file, in the same run
(docs/anki-import.md, "Speed"): a deck of NOTES basic notes sharing MEDIA pictures, written and
exported by Anki's library (Tests/EndToEnd/anki_decks.py), then imported
- by Anki's library into a fresh collection (`Collection.import_anki_package`, with scheduling),
- by `leitnerctl import` into a fresh box served by its own leitnerd,
beside the floor: the same cards' directories and files made plainly, then one syncfs;
each timed from the call to its end (the package read, the cards and media written durably).
Needs the `anki` package (pip install anki) and a release build (`make bench` builds one).
Usage: anki-import.py BIN_DIR [NOTES MEDIA] (default 10000 2000)."""
import ctypes
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "EndToEnd"))
try:
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
    from anki_decks import PNG, write_bench_deck
except ImportError:
    sys.exit("bench/anki-import.py: the 'anki' package is missing: pip install anki")


def anki_import(root, package):
    os.makedirs(os.path.join(root, "anki"))
    col = Collection(os.path.join(root, "anki", "collection.anki2"))
    try:
        start = time.perf_counter()
        col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False)))
        took = time.perf_counter() - start
        notes = col.note_count()
    finally:
        col.close()
    return took, notes


def floor(root, notes, media):
    """The least a store of one directory a card can do with the deck (docs/performance.md,
    "Import from Anki"): each note's card directory with its front, back and tags, each picture
    written once and hard-linked into the other cards showing it, then one syncfs."""
    libc = ctypes.CDLL(None, use_errno=True)
    level = os.path.join(root, "floor", "new")
    os.makedirs(level)
    start = time.perf_counter()
    first = {}
    for i in range(notes):
        card = os.path.join(level, f"anki-{i:08d}")
        os.mkdir(card)
        for name, text in (("front.md", f"word {i}\n"), ("back.md", f"back of *word* {i}\n\n![](picture{i % media:05d}.png)\n"),
                           ("tags", "deck:Bench\n")):
            fd = os.open(os.path.join(card, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            os.write(fd, text.encode())
            os.close(fd)
        if media:
            picture = f"picture{i % media:05d}.png"
            if picture in first:
                os.link(os.path.join(first[picture], picture), os.path.join(card, picture))
            else:
                fd = os.open(os.path.join(card, picture), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                os.write(fd, PNG + (i % media).to_bytes(4, "big"))
                os.close(fd)
                first[picture] = card
    fd = os.open(level, os.O_RDONLY | os.O_DIRECTORY)
    try:
        if libc.syncfs(fd) != 0:
            sys.exit(f"bench/anki-import.py: syncfs: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(fd)
    return time.perf_counter() - start


def leitner_import(root, package, bin_dir, voice):
    """Our import into a fresh box. With `voice` the configuration is the default one, which
    speaks each new card ahead of time with espeak-ng when it is installed (work Anki's import
    does not do); without it, `Program=` is empty."""
    root = os.path.join(root, "voice" if voice else "quiet")
    config = os.path.join(root, "config", "leitner")
    os.makedirs(config)
    if not voice:
        with open(os.path.join(config, "leitner.conf"), "w") as f:
            f.write("[Voice]\nProgram=\n")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(root, "config"), XDG_DATA_HOME=os.path.join(root, "data"),
               LEITNER_DEVICE="bench")
    store, sock = os.path.join(root, "store"), os.path.join(root, "leitnerd.sock")
    daemon = subprocess.Popen([os.path.join(bin_dir, "leitnerd"), "--store", store, "--socket", sock], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        start = time.perf_counter()
        result = subprocess.run([os.path.join(bin_dir, "leitnerctl"), "--socket", sock, "import", "--quiet", package],
                                env=env, capture_output=True, text=True)
        took = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"bench/anki-import.py: leitnerctl import failed: {result.stderr}")
        cards = sum(len(os.listdir(os.path.join(store, place))) for place in ("new", "1") if os.path.isdir(os.path.join(store, place)))
        media = sum(1 for place in ("new", "1") if os.path.isdir(os.path.join(store, place))
                    for card in os.scandir(os.path.join(store, place)) for f in os.scandir(card.path) if f.name.endswith(".png"))
    finally:
        daemon.terminate()
        daemon.wait()
    return took, cards, media, result.stdout.splitlines()[0]


def main():
    bin_dir = sys.argv[1]
    notes = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    media = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000
    root = tempfile.mkdtemp(prefix="anki-import-", dir=os.environ.get("BENCH_DIR", "/tmp"))
    try:
        package = write_bench_deck(os.path.join(root, "deck"), notes, media)
        anki_took, anki_notes = anki_import(root, package)
        floor_took = floor(root, notes, media)
        quiet_took, _, _, _ = leitner_import(root, package, bin_dir, voice=False)
        ours_took, cards, carried, summary = leitner_import(root, package, bin_dir, voice=True)
        print(f"anki:     import_anki_package of {anki_notes} notes, {media} media   {anki_took * 1000:8.1f} ms")
        print(f"floor:    {notes} card directories, their pictures linked, syncfs {floor_took * 1000:8.1f} ms"
              f"  ({floor_took / anki_took:.2f}× Anki's)")
        print(f"leitner:  import of {cards} cards, {carried} media files          {ours_took * 1000:8.1f} ms"
              f"  ({ours_took / anki_took:.2f}× Anki's, {ours_took / floor_took:.2f}× the floor)")
        print(f"          the same without the voice (Program= empty) {quiet_took * 1000:8.1f} ms"
              f"  ({quiet_took / anki_took:.2f}× Anki's, {quiet_took / floor_took:.2f}× the floor)")
        print(f"          {summary}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
