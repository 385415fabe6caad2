"""A change that cannot be made fails that very request, names the path and the reason, and
leaves nothing behind (docs/rules.md: R16, R17, R21): a store made read-only under the running
daemon, and a card directory it may not read. The daemon keeps serving, and after the store is
writable again nothing acknowledged is lost.

The read-only store is an ext4 file system on a loop device that turns read-only under the
daemon, as a disk error with errors=remount-ro does (ext4's trigger_fs_error; a plain remount is
refused while the daemon holds files open for writing). This needs root, as CI runs.
The unreadable card is read by a daemon started without CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH (`setpriv`), so that root obeys file permissions as a user's daemon would."""
import os
import shutil
import subprocess

import pytest

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import VarlinkError, add_text_card, all_card_ids, log_file
from ext4_store import ext4_store  # noqa: F401  (fixture)

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a file system needs root")


def log_text(store):
    return log_file(store).read_text()


def test_a_read_only_store_fails_the_request_itself(make_daemon, ext4_store, bin_dir):  # noqa: F811
    store = ext4_store.path
    daemon = make_daemon(store=store).start()
    for n in range(4):
        add_text_card(daemon, f"front {n}", f"back {n}", id=f"c{n}")
    with daemon.connect() as c:
        c.call("Prepare")
        first = c.call("Next")["card"]["id"]
        c.call("Grade", id=first, correct=True, answerMs=5)
        before = sorted(all_card_ids(store))
        log_before = log_text(store)
        ext4_store.turn_read_only()
        card = c.call("Next")["card"]
        for method, parameters in [("Grade", {"id": card["id"], "correct": True, "answerMs": 5}),
                                   ("Move", {"id": card["id"], "level": "6"}),
                                   ("Delete", {"id": card["id"]}),
                                   ("Add", {"front": {"name": "front.txt", "text": "new"},
                                            "back": {"name": "back.txt", "text": "card"}})]:
            with pytest.raises(VarlinkError) as failure:
                c.call(method, **parameters)
            assert failure.value.name == "io.leitner.Box.StoreFailure", method
            assert failure.value.parameters["path"].startswith(str(store)), failure.value.parameters
            assert "Read-only file system" in failure.value.parameters["reason"], failure.value.parameters
            # The request itself failed; nothing changed, and the daemon goes on serving.
            assert sorted(all_card_ids(store)) == before, method
            assert log_text(store) == log_before, method
            assert c.call("Status")["test"]["passed"] == 1
        assert c.call("Show", id=card["id"])["card"]["level"] == "1"
    result = subprocess.run([str(bin_dir / "leitnerctl"), "--socket", str(daemon.socket), "move", card["id"], "3"],
                            capture_output=True, text=True, env={**daemon.env, "NO_COLOR": "1"})
    assert result.returncode == 1, result
    assert "the store is read-only: nothing was changed" in result.stderr, result.stderr
    assert str(store) in result.stderr, result.stderr
    # The disk is mended (here: mounted again): everything acknowledged is there, nothing refused is.
    daemon.kill()
    ext4_store.unmount()
    ext4_store.mount()
    daemon.start()
    assert daemon.call("Status")["test"]["passed"] == 1
    assert sorted(all_card_ids(store)) == before
    graded = daemon.call("Grade", id=card["id"], correct=True, answerMs=5)["card"]
    assert os.path.exists(graded["front"]["path"])


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv (util-linux)")
def test_an_unreadable_card_is_refused_and_never_touched(make_daemon):  # noqa: F811
    daemon = make_daemon(prefix=["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]).start()
    for card_id in ["n1", "n2"]:
        add_text_card(daemon, f"front {card_id}", "back", id=card_id)
    locked = daemon.store / "1" / "n1"
    os.chmod(locked, 0)
    try:
        log_before = log_text(daemon.store)
        for method, parameters in [("Move", {"id": "n1", "level": "3"}), ("Show", {"id": "n1"})]:
            with pytest.raises(VarlinkError) as failure:
                daemon.call(method, **parameters)
            assert failure.value.name == "io.leitner.Box.StoreFailure"
            assert failure.value.parameters["path"] == str(locked)
            assert "Permission denied" in failure.value.parameters["reason"]
        assert log_text(daemon.store) == log_before, "no move line for a move that did not happen"
        assert os.path.isdir(locked) and not os.path.exists(daemon.store / "3" / "n1")
        doctor = daemon.call("Doctor")
        assert any(p["path"] == str(locked) for p in doctor["problems"]), doctor
        assert daemon.call("Move", id="n2", level="4")["card"]["level"] == "4", "the rest is served"
    finally:
        os.chmod(locked, 0o755)
    assert daemon.call("Move", id="n1", level="3")["card"]["level"] == "3"
