"""A tag edited on one machine and a grade on the other both survive a sync (R25, docs/sync.md):
the real unison between two running daemons. B's grade moves the card 1→2; A's tag edit changed
the card's `tags` in level 1. After the sync A holds both copies; the grade is the newer event,
so level 2 is kept, and the newer `tags` file is taken into it before the copies are compared,
so nothing is set aside and both machines end with the card in level 2, tagged."""
import pytest

from daemon_fixtures import root  # noqa: F401  (fixture)
from sync_pair import SyncPair, listed, wait_next_second


@pytest.fixture
def pair(bin_dir, root):  # noqa: F811
    made = SyncPair(bin_dir, root)
    yield made.start()
    made.stop()


def test_a_tag_edit_and_a_grade_on_the_other_machine_both_survive(pair):
    pair.a.call("Add", front={"name": "front.txt", "text": "neko"}, back={"name": "back.txt", "text": "cat"}, id="neko")
    pair.sync()
    pair.settle()
    pair.a.call("Tag", id="neko", tags=["ja"])
    wait_next_second()
    pair.b.call("Prepare")
    assert pair.b.call("Grade", id="neko", correct=True)["card"]["level"] == "2"
    # The tag edit (level 1) meets the grade's move (1 → 2): unison leaves that one conflict.
    pair.sync(clean=False)
    pair.settle()
    pair.sync()
    pair.settle()
    pair.sync()
    for daemon in (pair.a, pair.b):
        card = daemon.call("Show", id="neko")["card"]
        assert (card["level"], card.get("tags")) == ("2", ["ja"]), daemon
        assert listed(daemon) == {"neko": "2"}
        assert daemon.call("Doctor")["problems"] == []
