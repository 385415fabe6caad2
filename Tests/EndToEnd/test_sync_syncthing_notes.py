"""Cloze notes on two machines through real Syncthing (docs/sync.md, "Cloze notes on two
machines"; docs/rules.md R30): two leitnerd, devices `a` and `b`, on two copies of a store kept
in step by two Syncthing instances on loopback (syncthing_pair.py).

- A note edited by hand on A to gain c3: online, and with both daemons made to see the number
  before either card has crossed (both daemons stopped while Syncthing carries the text, the
  connection paused before they go on), so that both add `katze.c3`.
- A note renamed on A and carried by Syncthing in pieces: the new note's directory and the old
  note's deletion first, the cards' rewritten `cloze-of` a few seconds later (A's ignore rules
  hold them back), with requests on B meanwhile.

The state is checked, not the daemons' agreement: each card in exactly one level on both
machines and the same on both, one `add` of the new card in each machine's merged history (both
devices' logs), no card of the renamed note's own, every card's `cloze-of` naming its note, and
no conflict copy anywhere."""
import os
import signal
import time

import pytest

from daemon_fixtures import root  # noqa: F401  (fixture)
from sync_pair import LEVELS, is_sync_artifact, kept_conflicts, listed, merged_log, own_log
from syncthing_pair import FOLDER, STIGNORE, pair, slow_pair, sync_conflict_files  # noqa: F401  (fixtures)

TEXT = "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}."
TEXT_C3 = "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}} im {{c3::Wohnzimmer}}."


PLACES = LEVELS + ["new", "suspended"]


def cards_on_disk(store):
    """Every (id, level or place) pair in the store, sync tools' leftovers excepted."""
    return sorted((entry.name, level) for level in PLACES if (store / level).is_dir()
                  for entry in (store / level).iterdir() if entry.is_dir() and not is_sync_artifact(entry.name))


def assert_each_card_once(pair):
    """Each card in exactly one level or place on each machine, the same on both, and each
    daemon lists what its store holds. Returns id -> level."""
    on = {name: cards_on_disk(daemon.store) for name, daemon in pair.daemons.items()}
    for name, found in on.items():
        ids = [card for card, _ in found]
        assert len(ids) == len(set(ids)), f"a card in two places on {name}: {found}"
        assert sorted(listed(pair.daemons[name]).items()) == found, f"{name} lists other cards than it holds: {found}"
    assert on["a"] == on["b"], f"the stores differ:\nA {on['a']}\nB {on['b']}"
    return dict(on["a"])


def write_by_hand(path, text):
    """An editor's save: the new text written beside, then renamed over the old."""
    temporary = path.with_name("." + path.name + ".swp")
    temporary.write_text(text)
    os.replace(temporary, path)


def wait_for(predicate, what, timeout=60):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def cloze_of(store, level, card):
    return (store / level / card / "cloze-of").read_text().split()


def assert_clean(pair):
    """No conflict copy anywhere, none set aside, and no card damaged or doubled."""
    for name, daemon in pair.daemons.items():
        assert sync_conflict_files(daemon.store) == [], f"{name}: {sync_conflict_files(daemon.store)}"
        assert kept_conflicts(daemon.store) == [], f"{name}: {kept_conflicts(daemon.store)}"
        problems = [p for p in daemon.call("Doctor")["problems"] if p["kind"] in ("damagedCard", "duplicateCard")]
        assert problems == [], f"{name}: {problems}"


def adds_of(daemon, card):
    return [(e.get("device"), e.get("origin")) for e in merged_log(daemon) if e["event"] == "add" and e.get("id") == card]


def own_adds(store, device, card):
    """This device's own log lines adding `card`, as written."""
    path = own_log(store, device)
    lines = path.read_text().splitlines() if path.exists() else []
    return [line for line in lines if line.split("\t")[1:3] == ["add", card]]


@pytest.mark.parametrize("both_add", [False, True], ids=["online", "both-add"])
def test_a_note_edited_on_one_machine_is_one_card_and_one_add(pair, both_add):
    pair.a.call("AddCloze", text=TEXT, id="katze", level="2")
    pair.converge()
    note = pair.a.store / "notes" / "katze" / "text.md"
    if both_add:
        for daemon in pair.daemons.values():
            daemon.signal(signal.SIGSTOP)
        try:
            write_by_hand(note, TEXT_C3)
            wait_for(lambda: (pair.b.store / "notes" / "katze" / "text.md").read_text() == TEXT_C3, "the text on B")
            pair.pause()
        finally:
            for daemon in pair.daemons.values():
                daemon.signal(signal.SIGCONT)
        for name, daemon in pair.daemons.items():
            daemon.call("Status")
            assert [card for card, _ in cards_on_disk(daemon.store)].count("katze.c3") == 1, f"{name} did not add katze.c3"
            assert len(own_adds(daemon.store, name, "katze.c3")) == 1, f"{name}'s log: {own_adds(daemon.store, name, 'katze.c3')}"
        pair.resume()
    else:
        write_by_hand(note, TEXT_C3)
        pair.a.call("Status")
    pair.converge()
    levels = assert_each_card_once(pair)
    # Where a new card goes (R23: level 1 here, since these daemons admit every new card at once).
    assert sorted(levels) == ["katze.c1", "katze.c2", "katze.c3"] and levels["katze.c1"] == levels["katze.c2"] == "2", levels
    for name, daemon in pair.daemons.items():
        assert len(adds_of(daemon, "katze.c3")) == 1, f"{name}'s merged history: {adds_of(daemon, 'katze.c3')}"
        assert cloze_of(daemon.store, levels["katze.c3"], "katze.c3") == ["katze", "c3"]
        assert sorted(p.name for p in (daemon.store / levels["katze.c3"]).iterdir()) == ["katze.c3"], name
    assert_clean(pair)


def hold_back(pair, rules):
    """A's Syncthing ignores `rules` besides the documented ones: what they match and A changes
    is not sent until `let_through` (A's own change then, newer than B's copy: no conflict)."""
    pair.sa.rest("POST", f"/rest/db/ignores?folder={FOLDER}", {"ignore": STIGNORE.splitlines() + rules})
    pair.sa.rest("POST", f"/rest/db/scan?folder={FOLDER}")


def let_through(pair):
    pair.sa.rest("POST", f"/rest/db/ignores?folder={FOLDER}", {"ignore": STIGNORE.splitlines()})
    pair.sa.rest("POST", f"/rest/db/scan?folder={FOLDER}")


@pytest.mark.parametrize("how", ["rename", "mv"])
def test_a_note_renamed_on_one_machine_keeps_its_cards_on_both(slow_pair, how):
    """The renamed note reaches B before its cards' rewritten `cloze-of`: the order that gave
    the note cards of its own. (The other orders are the core's test, ClozeNoteSyncTests: held
    back here by ignoring `/notes` on A, Syncthing brings the old note back to A from B when
    the rule is lifted, which no user does.)"""
    pair = slow_pair
    pair.a.call("AddCloze", text=TEXT, id="zahl", level="2")
    pair.a.call("Move", id="zahl.c2", level="4")
    pair.converge()
    hold_back(pair, [f"/{level}" for level in PLACES])
    if how == "rename":
        pair.a.call("Rename", id="zahl", newId="nummer")
    else:
        os.rename(pair.a.store / "notes" / "zahl", pair.a.store / "notes" / "nummer")
        pair.a.call("Status")
    for level, card in (("2", "zahl.c1"), ("4", "zahl.c2")):
        assert cloze_of(pair.a.store, level, card) == ["nummer", card[-2:]]
    # The note arrives on B, which looks several times while the cards are held back.
    wait_for(lambda: (pair.b.store / "notes" / "nummer" / "text.md").exists()
             and not (pair.b.store / "notes" / "zahl").exists(), "the renamed note on B")
    for _ in range(6):
        pair.b.call("Status")
        found = cards_on_disk(pair.b.store)
        assert found == [("zahl.c1", "2"), ("zahl.c2", "4")], f"B holds {found} with the note delivered alone"
        time.sleep(0.5)
    let_through(pair)
    pair.converge()
    levels = assert_each_card_once(pair)
    assert levels == {"zahl.c1": "2", "zahl.c2": "4"}, levels
    for name, daemon in pair.daemons.items():
        assert sorted(p.name for p in (daemon.store / "notes").iterdir()) == ["nummer"], name
        for card, level in levels.items():
            assert cloze_of(daemon.store, level, card) == ["nummer", card[-2:]], f"{name}: {card}"
        added = {e["id"] for e in merged_log(daemon) if e["event"] == "add"}
        assert added == {"zahl.c1", "zahl.c2"}, f"{name}'s merged history adds {added}"
    assert cards_on_disk(pair.a.store) == cards_on_disk(pair.b.store)
    assert_clean(pair)
