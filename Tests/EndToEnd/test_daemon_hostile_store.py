"""A store that changes under the daemon's feet never makes it read outside the store or hang
(docs/rules.md, R22): while one process swaps a link to a file outside the store, a FIFO and a
regular file over a card's front as fast as it can, a client reads that side in a loop and a
health probe calls Status with a short deadline. Zero outside bytes, zero missed probes."""
import base64
import os
import threading
import time

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import VarlinkError, add_text_card

SECONDS = 3.0


def swapper(card, outside, stop, counts):
    link, fifo, regular = card / ".link", card / ".fifo", card / ".regular"
    front = card / "front.txt"
    while not stop.is_set():
        for path in (link, fifo):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        os.symlink(outside, link)
        os.replace(link, front)
        os.mkfifo(fifo)
        os.replace(fifo, front)
        regular.write_text("inside")
        os.replace(regular, front)
        counts["swaps"] += 1


def test_swapping_links_and_fifos_leaks_nothing_and_hangs_nothing(make_daemon, root):  # noqa: F811
    outside = root / "secret"
    outside.write_text("OUTSIDE-SECRET")
    os.chmod(outside, 0o600)
    daemon = make_daemon().start()
    add_text_card(daemon, "inside", "back", id="race")
    card = daemon.store / "1" / "race"
    stop, counts = threading.Event(), {"swaps": 0, "reads": 0, "leaks": 0, "probes": 0, "missed": 0}
    thread = threading.Thread(target=swapper, args=(card, outside, stop, counts))
    thread.start()

    def probe():
        with daemon.connect(timeout=1.0) as c:
            while not stop.is_set():
                try:
                    c.call("Status")
                    counts["probes"] += 1
                except (TimeoutError, OSError):
                    counts["missed"] += 1
                time.sleep(0.01)

    prober = threading.Thread(target=probe)
    prober.start()
    try:
        deadline = time.monotonic() + SECONDS
        with daemon.connect(timeout=5.0) as c:
            while time.monotonic() < deadline:
                for method in ("ReadAsset", "Show"):
                    try:
                        if method == "ReadAsset":
                            data = base64.b64decode(c.call("ReadAsset", id="race", side="front")["data"])
                        else:
                            data = (c.call("Show", id="race")["card"]["front"]["text"] or "").encode()
                        if b"OUTSIDE" in data:
                            counts["leaks"] += 1
                    except VarlinkError:
                        pass
                    counts["reads"] += 1
    finally:
        stop.set()
        thread.join()
        prober.join()
    assert counts["leaks"] == 0, counts
    assert counts["missed"] == 0, counts
    assert counts["reads"] > 100 and counts["swaps"] > 100 and counts["probes"] > 20, counts
    assert daemon.stop(timeout=10) == 0
