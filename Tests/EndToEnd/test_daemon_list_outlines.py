"""A `List` without text answered from what the daemon learned of each card (docs/performance.md,
"A listing without text"), against the real daemon: a card damaged by hand is left out of the
very next listing and reported (R21), a card moved by hand is listed in its new level (R13), a
mended one comes back, and every card listed is what `Show` gives of it, its text aside — after
hand changes made while the daemon serves and while it is killed (`kill -9`).
"""
import json
import os
import random
import shutil
import signal

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import make_store_cards

LEVEL = "2"


def listed(conn, level=None):
    parameters = {"withText": False}
    if level:
        parameters["level"] = level
    return conn.call("List", **parameters)["cards"]


def without_text(card):
    shown = dict(card)
    for side in ("front", "back"):
        shown[side] = {"path": card[side]["path"], "mediaType": card[side]["mediaType"], "text": None}
    return shown


def damage(store, card_id, how):
    """Breaks a card's directory by hand, as R21 counts it, in one of several ways."""
    directory = store / LEVEL / card_id
    if how == "back removed":
        (directory / "back.txt").unlink()
    elif how == "second front":
        (directory / "front.md").write_text("another front")
    elif how == "side made a directory":
        (directory / "back.txt").unlink()
        (directory / "back.txt").mkdir()
    elif how == "side a link out of the store":
        (directory / "front.txt").unlink()
        os.symlink("/etc/hostname", directory / "front.txt")


def mend(store, card_id):
    directory = store / LEVEL / card_id
    for name in ("front.md", "front.txt", "back.txt"):
        path = directory / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
    (directory / "front.txt").write_text(f"front of {card_id}")
    (directory / "back.txt").write_text(f"back of {card_id}")


def test_hand_changes_show_in_the_next_listing_without_text(make_daemon):  # noqa: F811
    seed = int(os.environ.get("LEITNER_OUTLINE_SEED", random.randrange(1 << 32)))
    rng = random.Random(seed)
    context = f"seed {seed} (LEITNER_OUTLINE_SEED={seed} repeats it)"
    daemon = make_daemon()
    store = daemon.store
    ids = [f"c{n:03d}" for n in range(60)]
    make_store_cards(store, LEVEL, ids)
    daemon.start()
    sound = set(ids)
    ways = ["back removed", "second front", "side made a directory", "side a link out of the store"]
    with daemon.connect() as c:
        # Learned by the first listing; the ones after answer from it.
        assert [card["id"] for card in listed(c, LEVEL)] == ids, context
        for round_number in range(40):
            card_id = rng.choice(ids)
            action = rng.choice(["damage", "damage", "move", "mend"])
            if action == "damage" and card_id in sound and (store / LEVEL / card_id).is_dir():
                damage(store, card_id, rng.choice(ways))
                sound.discard(card_id)
            elif action == "move" and (store / LEVEL / card_id).is_dir():
                # Moved by hand to level 5 and listed there; back again the next time.
                os.rename(store / LEVEL / card_id, store / "5" / card_id)
                fives = listed(c, "5")
                assert card_id in [card["id"] for card in fives] or card_id not in sound, context
                assert card_id not in [card["id"] for card in listed(c, LEVEL)], context
                for card in fives:
                    assert card["front"]["path"] == str(store / "5" / card["id"] / "front.txt"), context
                os.rename(store / "5" / card_id, store / LEVEL / card_id)
            elif action == "mend" and card_id not in sound:
                mend(store, card_id)
                sound.add(card_id)
            # Right after the change, with no pause: the listing agrees with the directories.
            cards = listed(c, LEVEL)
            assert [card["id"] for card in cards] == sorted(sound), f"{context}, round {round_number}"
            for card in rng.sample(cards, min(5, len(cards))):
                assert card == without_text(c.call("Show", id=card["id"])["card"]), context
        damaged = {problem["path"] for problem in c.call("Doctor")["problems"] if problem["kind"] == "damagedCard"}
        assert damaged == {str(store / LEVEL / card_id) for card_id in set(ids) - sound}, context
    # Killed: what is changed while it is down is found by the next start's listing.
    daemon.kill()
    victim = sorted(sound)[0]
    damage(store, victim, "back removed")
    sound.discard(victim)
    daemon.start()
    with daemon.connect() as c:
        assert [card["id"] for card in listed(c, LEVEL)] == sorted(sound), context
        mend(store, victim)
        sound.add(victim)
        assert [card["id"] for card in listed(c, LEVEL)] == sorted(sound), context


def test_a_listing_without_text_or_more_is_one_message_sent_as_it_is_written(make_daemon):  # noqa: F811
    # 4,000 cards make a reply of about 0.9 MB, fourteen pieces of the one message: the same cards,
    # in the same order, as the parts of a call with `more`, each what Show gives without text.
    daemon = make_daemon()
    store = daemon.store
    ids = [f"card-{n:05d}" for n in range(4000)]
    make_store_cards(store, LEVEL, ids)
    (store / LEVEL / ids[7] / "tags").write_text("ja\nverbs:irregular\n")
    daemon.start()
    with daemon.connect(timeout=60) as c:
        for _ in range(2):  # learned, then from what was learned
            c.send({"method": "io.leitner.Box.List", "parameters": {"level": LEVEL}})
            raw = c.receive_raw()
            assert len(raw) > 10 * 64 * 1024
            cards = json.loads(raw)["parameters"]["cards"]
            assert [card["id"] for card in cards] == ids
            c.send({"method": "io.leitner.Box.List", "parameters": {"level": LEVEL}, "more": True})
            parts = []
            while True:
                part = c.receive()
                parts += part["parameters"]["cards"]
                if not part.get("continues"):
                    break
            assert parts == cards
            assert cards[7]["tags"] == ["ja", "verbs:irregular"]
            for card in cards[:10] + cards[-3:]:
                assert card == without_text(c.call("Show", id=card["id"])["card"])


def test_a_stop_in_the_middle_of_a_listing_sent_in_pieces_closes_the_connection(make_daemon):  # noqa: F811
    # A client that stops reading in the middle of the one message: at the end of the stop's
    # wait the connection is closed, with no error put inside the message it was reading.
    daemon = make_daemon()
    ids = [f"card-{n:05d}" for n in range(6000)]
    make_store_cards(daemon.store, LEVEL, ids)
    daemon.start()
    with daemon.connect(timeout=30) as slow:
        slow.send({"method": "io.leitner.Box.List", "parameters": {"level": LEVEL}})
        first = slow.sock.recv(4096)
        assert first.startswith(b'{"parameters":{"cards":[{')
        daemon.signal(signal.SIGTERM)
        assert daemon.process.wait(timeout=20) == 0, daemon.log_text()
        received = first
        while chunk := slow.sock.recv(1 << 16):
            received += chunk
        assert b"\0" not in received and b"StoreFailure" not in received
        assert len(received) < 6000 * 200
    assert "reply not taken by the end of the shutdown" in daemon.log_text()
