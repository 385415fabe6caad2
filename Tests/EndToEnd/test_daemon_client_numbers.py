"""Numbers from clients (docs/protocol.md, "Numbers from clients"; issue #25): every integer a
call carries is refused (`InvalidParameter` naming it) or clamped before any arithmetic, and a
hostile one never stops the daemon: the call gets an answer and every other connection goes on
being served. The cases leitner-fuzz found are here by name."""
import pytest

from daemon_fixtures import daemon, make_daemon, root  # noqa: F401 (fixtures)
from daemon_support import VarlinkError, add_text_card

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
# Box.maxLimit and Box.maxAnswerMs.
MAX_LIMIT = 2**31 - 1
MAX_ANSWER_MS = 86_400_000


def invalid_parameter(daemon, method, **parameters):
    with pytest.raises(VarlinkError) as refused:
        daemon.call(method, **parameters)
    assert refused.value.name == "org.varlink.service.InvalidParameter"
    return refused.value.parameters["parameter"]


def test_log_limit_of_2_63_minus_1_gives_every_entry_and_the_daemon_lives(daemon):
    """Found by leitner-fuzz (seed 1): Log(limit: 2^63-1) computed 2 * limit and died of SIGILL."""
    with daemon.served_connection() as bystander:
        add_text_card(daemon, "uno", "one", id="uno")
        add_text_card(daemon, "dos", "two", id="dos")
        for limit in (INT64_MAX, 2**62, MAX_LIMIT + 1):
            entries = daemon.call("Log", limit=limit)["entries"]
            assert [e["id"] for e in entries] == ["uno", "dos"]
        with daemon.connect() as c:
            reply = c.call_raw("io.leitner.Box.Log", {"limit": INT64_MAX}, more=True)
            assert [e["id"] for e in reply["parameters"]["entries"]] == ["uno", "dos"]
            assert not reply.get("continues")
        assert "today" in bystander.call("Status")
    assert daemon.process.poll() is None


def test_log_limit_below_0_is_refused_naming_it(daemon):
    assert invalid_parameter(daemon, "Log", limit=-1) == "limit"
    assert invalid_parameter(daemon, "Log", limit=INT64_MIN) == "limit"


def test_search_limit_of_2_63_minus_1_finds_every_line(daemon):
    add_text_card(daemon, "gato", "cat", id="gato")
    matches = daemon.call("Search", pattern="gato", limit=INT64_MAX)["matches"]
    assert [(m["id"], m["field"]) for m in matches] == [("gato", "id"), ("gato", "front")]
    assert invalid_parameter(daemon, "Search", pattern="gato", limit=0) == "limit"
    assert invalid_parameter(daemon, "Search", pattern="gato", limit=INT64_MIN) == "limit"


def test_search_cards_gives_the_lines_of_that_many_cards(daemon):
    """docs/protocol.md: `cards` stops after the lines of that many cards (the web's page of a
    search); 2^63 - 1 is every card, below 1 refused."""
    for word in ("gato", "gata", "gatos"):
        add_text_card(daemon, word, "cat", id=word)
    matches = daemon.call("Search", pattern="gat", cards=2)["matches"]
    assert [(m["id"], m["field"]) for m in matches] == [("gata", "id"), ("gata", "front"), ("gato", "id"), ("gato", "front")]
    assert len(daemon.call("Search", pattern="gat", cards=INT64_MAX)["matches"]) == 6
    assert invalid_parameter(daemon, "Search", pattern="gat", cards=0) == "cards"
    assert invalid_parameter(daemon, "Search", pattern="gat", cards=INT64_MIN) == "cards"


def test_answer_ms_of_2_63_minus_1_is_recorded_as_a_day_and_stats_add_up(daemon):
    """Two grades of 2^63-1 ms would overflow the day's sum of answer times in Stats."""
    for name in ("a", "b"):
        add_text_card(daemon, f"front {name}", "back", id=name)
    daemon.call("Prepare")
    for name in ("a", "b"):
        daemon.call("Grade", id=name, correct=False, answerMs=INT64_MAX)
    grades = [e for e in daemon.call("Log")["entries"] if e["event"] == "grade"]
    assert [e["answerMs"] for e in grades] == [MAX_ANSWER_MS, MAX_ANSWER_MS]
    stats = daemon.call("Stats", days=1)
    assert stats["work"][-1]["answerMs"] == 2 * MAX_ANSWER_MS
    assert stats["weekAnswerMs"] == 2 * MAX_ANSWER_MS
    assert invalid_parameter(daemon, "Grade", id="a", correct=True, answerMs=-1) == "answerMs"
    assert invalid_parameter(daemon, "Grade", id="a", correct=True, answerMs=INT64_MIN) == "answerMs"


@pytest.mark.parametrize("days, leeches, named", [
    (0, None, "days"), (3661, None, "days"), (INT64_MAX, None, "days"), (INT64_MIN, None, "days"),
    (None, -1, "leeches"), (None, 1001, "leeches"), (None, INT64_MAX, "leeches"),
])
def test_stats_refuses_days_and_leeches_outside_their_range(daemon, days, leeches, named):
    parameters = {k: v for k, v in (("days", days), ("leeches", leeches)) if v is not None}
    assert invalid_parameter(daemon, "Stats", **parameters) == named


def test_a_calendar_of_millions_of_days_is_refused_at_once(daemon):
    """0001-01-01 to 9999-12-31 is 3.6 million days: refused, naming `to`, without reckoning them."""
    assert invalid_parameter(daemon, "Calendar", **{"from": "0001-01-01", "to": "9999-12-31"}) == "to"
    days = daemon.call("Calendar", **{"from": "9999-01-01", "to": "9999-12-31"})["days"]
    assert len(days) == 365 and days[-1]["date"] == "9999-12-31"
    assert len(daemon.call("Calendar", **{"from": "0000-01-01", "to": "0000-12-31"})["days"]) == 366


def test_integers_beyond_64_bits_are_refused_naming_the_parameter(daemon):
    """2^64 is no JSON integer of 64 bits: a double, so not an `int` (docs/protocol.md)."""
    with daemon.connect() as c:
        c.send_raw(b'{"method":"io.leitner.Box.Log","parameters":{"limit":18446744073709551616}}\0')
        reply = c.receive()
    assert reply["error"] == "org.varlink.service.InvalidParameter"
    assert reply["parameters"]["parameter"] == "limit"
