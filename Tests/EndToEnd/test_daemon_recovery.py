"""The store shows a change before its reply, and a crash never undoes a person's change
(docs/rules.md: R13, R17, R18), against the real daemon.

- A client that opens `card.front.path` from a Grade or Move reply finds it there, at once.
- A property run: random grades, moves, hand `mv`s (with the daemon running, stopped with
  SIGSTOP, or down) and SIGKILLs at random instants, in the middle of requests too. After every
  restart each card is in exactly one level: the one the last acknowledged change or the last
  hand move put it in, whichever came later; the one request in flight at the kill may have
  happened or not.
"""
import os
import random
import signal
import socket
import time

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import VarlinkError, add_text_card, all_card_ids

LEVELS = ["1", "2", "3", "4", "5", "6", "7", "finished"]


def promoted(level):
    return "finished" if level in ("7", "finished") else str(int(level) + 1)


def test_a_reply_names_a_path_that_exists(make_daemon):  # noqa: F811
    daemon = make_daemon().start()
    with daemon.connect() as c:
        for n in range(60):
            add_text_card(c, f"front {n}", f"back {n}", id=f"c{n}")
        c.call("Prepare")
        seen = 0
        while True:
            card = c.call("Next")["card"]
            if card is None:
                break
            graded = c.call("Grade", id=card["id"], correct=seen % 3 != 0, answerMs=5)["card"]
            # No wait of any kind: the reply comes after the rename (R17).
            with open(graded["front"]["path"]) as f:
                assert f.read() == card["front"]["text"]
            assert os.path.isdir(os.path.join(daemon.store, graded["level"], card["id"]))
            seen += 1
        for n in range(0, 60, 7):
            moved = c.call("Move", id=f"c{n}", level="5")["card"]
            assert os.path.exists(moved["back"]["path"])
    assert seen >= 60


def where(store, card_id):
    return [level for level in LEVELS if os.path.isdir(os.path.join(store, level, card_id))]


def hand_move(store, card_id, frm, to):
    os.rename(os.path.join(store, frm, card_id), os.path.join(store, to, card_id))


def test_a_kill_never_undoes_an_acknowledged_change_or_a_hand_move(make_daemon):  # noqa: F811
    seed = int(os.environ.get("LEITNER_RECOVERY_SEED", random.randrange(1 << 32)))
    rng = random.Random(seed)
    daemon = make_daemon().start()
    store = str(daemon.store)
    ids = [f"k{n}" for n in range(16)]
    for card_id in ids:
        add_text_card(daemon, f"front {card_id}", f"back {card_id}", id=card_id)
    expected = {card_id: "1" for card_id in ids}
    kills = 0
    context = f"seed {seed} (LEITNER_RECOVERY_SEED={seed} repeats it)"
    history = []

    def check(in_flight=None):
        found = {card_id: where(store, card_id) for card_id in ids}
        for card_id in ids:
            levels = found[card_id]
            assert len(levels) == 1, f"{context}: {card_id} in {levels}"
            allowed = {expected[card_id]}
            if in_flight and in_flight[0] == card_id:
                allowed.add(in_flight[1])
            assert levels[0] in allowed, (f"{context}: {card_id} in {levels[0]}, expected {sorted(allowed)}; "
                                          f"its history: {[h for h in history if h[1] == card_id][-6:]}")
            expected[card_id] = levels[0]

    deadline = time.monotonic() + 12
    while time.monotonic() < deadline and kills < 40:
        with daemon.connect() as c:
            for _ in range(rng.randrange(1, 12)):
                choice = rng.random()
                card_id = rng.choice(ids)
                if choice < 0.45:
                    try:
                        card = c.call("Next")["card"]
                    except VarlinkError:
                        card = None
                    if card is None:
                        continue
                    try:
                        graded = c.call("Grade", id=card["id"], correct=rng.random() < 0.7, answerMs=9)["card"]
                        expected[card["id"]] = graded["level"]
                        history.append(("grade", card["id"], graded["level"]))
                    except VarlinkError as error:
                        assert error.name.endswith(("NotInTest", "TestComplete")), f"{context}: {error}"
                elif choice < 0.6:
                    level = rng.choice(LEVELS)
                    expected[card_id] = c.call("Move", id=card_id, level=level)["card"]["level"]
                    history.append(("move", card_id, level))
                elif choice < 0.8:
                    # A hand move with the daemon running, right after whatever it did last.
                    to = rng.choice([lv for lv in LEVELS if lv != expected[card_id]])
                    hand_move(store, card_id, expected[card_id], to)
                    expected[card_id] = to
                    history.append(("mv", card_id, to))
                else:
                    # A hand move while the daemon is stopped (SIGSTOP): it finds it on waking.
                    daemon.signal(signal.SIGSTOP)
                    to = rng.choice([lv for lv in LEVELS if lv != expected[card_id]])
                    hand_move(store, card_id, expected[card_id], to)
                    expected[card_id] = to
                    history.append(("mv while stopped", card_id, to))
                    daemon.signal(signal.SIGCONT)
            check()
            # The kill: sometimes between requests, sometimes with one in flight.
            in_flight = None
            if rng.random() < 0.6:
                card_id = rng.choice(ids)
                if rng.random() < 0.5:
                    level = rng.choice(LEVELS)
                    message = {"method": "io.leitner.Box.Move", "parameters": {"id": card_id, "level": level}}
                    in_flight = (card_id, level)
                else:
                    correct = rng.random() < 0.7
                    level = promoted(expected[card_id]) if correct else "1"
                    message = {"method": "io.leitner.Box.Grade",
                               "parameters": {"id": card_id, "correct": correct, "answerMs": 3}}
                    in_flight = (card_id, level)
                history.append(("in flight at the kill", card_id, in_flight[1]))
                c.send(message)
                time.sleep(rng.uniform(0, 0.003))
        daemon.kill()
        kills += 1
        history.append(("kill", "", ""))
        check(in_flight)
        # While it is down, a person moves cards; half the time the card of the last change,
        # back where it came from.
        # The request in flight may also be carried out by the restart (its journal record was
        # written before the kill): the state after it is as good as the state before (R18).
        # A hand move after it, though, is the last word (R13).
        for _ in range(rng.randrange(0, 3)):
            card_id = in_flight[0] if in_flight and rng.random() < 0.5 else rng.choice(ids)
            if in_flight and card_id == in_flight[0]:
                in_flight = None
            to = rng.choice([lv for lv in LEVELS if lv != expected[card_id]])
            hand_move(store, card_id, expected[card_id], to)
            expected[card_id] = to
            history.append(("mv while down", card_id, to))
        daemon.start()
        check(in_flight)
        status = daemon.call("Status")
        assert sum(status["counts"].values()) == len(ids), f"{context}: {status['counts']}"
    assert kills >= 5, context
    assert sorted(card_id for card_id, _ in all_card_ids(daemon.store)) == sorted(ids)
