"""The voice (docs/rules.md R33) with the real espeak-ng: the speech of a prepared day's cards is
made ahead of time off the box's turn, kept in .leitner/cache/voice/ as WAV files, played by the
configured player on `v` and by itself with AutoSpeak=; a missing program is one clear word."""
import shutil
import subprocess
import time

import pytest

from cli_box import box  # noqa: F401  (a fixture)
from daemon_support import PACING_OFF, Connection
from test_cli_review import Pane
from test_places import paced_box
from web_box import wait_until

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")

CARDS = [("hund", "der Hund", "dog", "lang:de"), ("cat", "the cat", "die Katze", None), ("ka", "か", "ka", "lang:ja")]


def configure(box, text):
    """Restarts the box's daemon with `text` added to its configuration."""
    box.stop()
    (box.tmp / "config" / "leitner" / "leitner.conf").write_text(PACING_OFF + text)
    box.start()


def speech(box, card_id, side, timeout=30.0):
    """The Speech reply for a side once it is no longer pending."""
    deadline = time.monotonic() + timeout
    with Connection(box.socket) as connection:
        while True:
            reply = connection.call("Speech", id=card_id, side=side)
            if not reply["pending"] or time.monotonic() > deadline:
                return reply
            time.sleep(0.1)


def add_cards(box):
    for card_id, front, back, tag in CARDS:
        box.ok("add", "--level", "1", "--id", card_id, front, back)
        if tag:
            box.ok("tag", card_id, tag)


def cache(box):
    return box.store / ".leitner" / "cache" / "voice"


def test_a_prepared_day_has_a_wav_for_each_side(box):
    add_cards(box)
    configure(box, "[Voice]\nLanguage=en\n")  # espeak-ng is the default when installed
    started = time.monotonic()
    box.ok("prepare")
    prepared = time.monotonic() - started
    # The test was prepared without waiting for the speech: six sides take espeak-ng longer.
    # Each side's reply is waited for, not a count of files: the adds, made before Language=en,
    # left speech of their own in the cache.
    paths = set()
    for card_id, *_ in CARDS:
        for side in ("front", "back"):
            reply = speech(box, card_id, side, timeout=60)
            assert reply["pending"] is False and "problem" not in reply, reply
            data = open(reply["path"], "rb").read()
            assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and len(data) > 44
            paths.add(reply["path"])
    assert len(paths) == 6 and {p.rsplit("/", 1)[0] for p in paths} == {str(cache(box))}
    assert prepared < 5
    # The cache is rebuilt when missing: a removed file is made again at the next ask.
    removed = speech(box, "cat", "front")["path"]
    (cache(box) / removed.rsplit("/", 1)[1]).unlink()
    with Connection(box.socket) as connection:
        assert connection.call("Speech", id="cat", side="front")["pending"] is True
    assert speech(box, "cat", "front")["path"] == removed


def test_v_plays_the_speech_and_autospeak_plays_the_front(box, tmp_path):
    add_cards(box)
    played = tmp_path / "played"
    player = tmp_path / "fake-player"
    player.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" >> {played}\n")
    player.chmod(0o755)
    configure(box, f"[Client]\nPlayer={player}\n[Review]\nAutoSpeak=front\n")
    box.ok("prepare")
    for card_id, *_ in CARDS:
        assert "path" in speech(box, card_id, "front") and "path" in speech(box, card_id, "back")
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    env = dict(box.env, NO_COLOR="1", LANG="C.UTF-8")
    pane = Pane(tmp_path, f"{ctl} review --images=none\necho REVIEW-ENDED\n", env)
    try:
        pane.wait_for("show the answer")
        deadline = time.monotonic() + 10
        while not played.exists() or len(played.read_text().splitlines()) < 1:
            assert time.monotonic() < deadline, "AutoSpeak=front played nothing"
            time.sleep(0.05)
        first = played.read_text().splitlines()
        assert len(first) == 1 and first[0].startswith(str(cache(box)))
        pane.keys(" ")
        pane.wait_for("correct")
        pane.keys("v")
        while len(played.read_text().splitlines()) < 2:
            assert time.monotonic() < deadline, "v played nothing"
            time.sleep(0.05)
        back = played.read_text().splitlines()[1]
        assert back != first[0] and open(back, "rb").read(4) == b"RIFF"
        pane.keys("q")
        pane.wait_for("REVIEW-ENDED")
    finally:
        pane.close()


def test_v_says_what_plays_and_why_nothing_is_heard(box, tmp_path):
    """`v` says at once that the voice plays; a player that cannot play (no sound device) ends at
    once saying why on its standard error, and the review says it: with the exit status when
    there is one, and also when it ends with 0, as ffplay does when it finds no sound device."""
    add_cards(box)
    player = tmp_path / "fake-player"
    # Says what the test put in `say` on its standard error, and ends with the status in `status`;
    # counts its runs in `ran`, so that the next run's words are written once this one read its own.
    ran = tmp_path / "ran"
    ran.write_text("")
    player.write_text(f"#!/bin/sh\ncat {tmp_path}/say >&2\nstatus=$(cat {tmp_path}/status)\necho >> {ran}\nexit $status\n")
    player.chmod(0o755)
    configure(box, f"[Client]\nPlayer={player}\n")
    box.ok("prepare")
    for card_id, *_ in CARDS:
        assert "path" in speech(box, card_id, "front")

    def press_v(say, status):
        assert wait_until(lambda: len(ran.read_text()) == len(status_seen)), "the player did not run"
        status_seen.append(status)
        (tmp_path / "say").write_text(say)
        (tmp_path / "status").write_text(f"{status}\n")
        pane.keys("v")

    status_seen = []
    ctl = f"{box.bin_dir / 'leitnerctl'} --socket {box.socket} --no-autostart"
    pane = Pane(tmp_path, f"{ctl} review --images=none\necho REVIEW-ENDED\n", dict(box.env, NO_COLOR="1", LANG="C.UTF-8"))
    try:
        pane.wait_for("show the answer")
        press_v("", 0)
        pane.wait_for("♪ the voice of the front")
        press_v("cannot open audio device: no sound card\n", 1)
        pane.wait_for("no sound: fake-player failed (exit status 1): cannot open audio device: no sound card")
        press_v("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n\n", 0)
        pane.wait_for("no sound? fake-player said: ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default")
        pane.keys("q")
        pane.wait_for("REVIEW-ENDED")
    finally:
        pane.close()


def test_a_missing_program_is_one_clear_word(box, tmp_path):
    add_cards(box)
    configure(box, "[Voice]\nProgram=/nonexistent/espeak-ng\n")
    box.ok("prepare")
    reply = speech(box, "hund", "front")
    assert reply["pending"] is False and "is not installed" in reply["problem"] and "apt install espeak-ng" in reply["problem"]
    doctor = box.ctl("doctor")
    assert doctor.returncode == 1 and "[Voice] Program=/nonexistent/espeak-ng" in doctor.stdout
    assert "apt install espeak-ng" in doctor.stdout
    # The review goes on, saying it once.
    result = box.ctl("review", "--plain", input="\ny\n\ny\n\ny\n", env=dict(box.env, NO_COLOR="1"))
    assert result.returncode == 0 and "3 of 3 done" in box.ok("status")


def test_the_speech_is_made_at_the_lowest_priority(box, tmp_path):
    """R33: the speech is background work, so its program runs at nice 19 and takes no processor
    time from a request or an import (docs/performance.md, "Import from Anki")."""
    program = tmp_path / "voice"
    # A program that says its own niceness once it is 19, or after 20 s, whatever it is then: the
    # daemon sets it after the start, when its thread next runs, which on a loaded machine came
    # later than the 0.3 s this program once waited for it.
    program.write_text(f"#!/bin/sh\nfor i in $(seq 200); do\n  nice=$(cut -d' ' -f19 /proc/$$/stat)\n"
                       f"  [ \"$nice\" = 19 ] && break\n  sleep 0.1\ndone\n"
                       f"echo \"$nice\" > {tmp_path}/nice.part\nmv {tmp_path}/nice.part {tmp_path}/nice\n")
    program.chmod(0o755)
    configure(box, f"[Voice]\nProgram={program}\n")
    box.ok("add", "--id", "hund", "der Hund", "dog")
    deadline = time.monotonic() + 30
    while not (tmp_path / "nice").exists():
        assert time.monotonic() < deadline, "the voice's program never ran"
        time.sleep(0.1)
    assert (tmp_path / "nice").read_text().strip() == "19"


def test_the_speech_is_made_under_temporary_names_that_ignore_rules_and_pruning_know(box, tmp_path):
    """While a speech is made, the cache holds it and its text as hidden `.HASH.wav.tmp` and
    `.HASH.txt.tmp`: ignored as sync tools' own temporaries are, never played, removed by the
    cache's cleanup when a crash leaves them; none is left once the WAV is in place."""
    seen = tmp_path / "seen"
    program = tmp_path / "fake-voice"
    # Records the output it is given and the cache's entries while it runs, then writes a WAV.
    program.write_text("#!/bin/sh\n"
                       "while [ \"$1\" != -w ]; do shift; done\n"
                       f"printf 'output %s\\n' \"${{2##*/}}\" >> {seen}\n"
                       f"ls -A \"${{2%/*}}\" | sed 's/^/entry /' >> {seen}\n"
                       "printf 'RIFF\\044\\0\\0\\0WAVEfmt %064d' 0 > \"$2\"\n")
    program.chmod(0o755)
    # The program set before the card is added: with espeak-ng installed, an add under the
    # default voice would make speech of its own, still under way at the end of this test.
    configure(box, f"[Voice]\nProgram={program}\n")
    box.ok("add", "--level", "1", "--id", "hund", "der Hund", "dog")
    box.ok("prepare")
    reply = speech(box, "hund", "front")
    assert reply["pending"] is False and "problem" not in reply, reply
    name = reply["path"].rsplit("/", 1)[1]
    stem = name.removesuffix(".wav")
    lines = seen.read_text().splitlines()
    outputs = [line.split(" ", 1)[1] for line in lines if line.startswith("output ")]
    entries = {line.split(" ", 1)[1] for line in lines if line.startswith("entry ")}
    assert f".{stem}.wav.tmp" in outputs, lines
    assert f".{stem}.txt.tmp" in entries, lines
    assert all(entry.endswith(".wav") or (entry.startswith(".") and entry.endswith(".tmp")) for entry in entries), lines
    speech(box, "hund", "back")
    # Every speech asked for is made by now; one queued at the add may still be finishing.
    deadline = time.monotonic() + 30
    while not all(p.name.endswith(".wav") for p in cache(box).iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(p.name.endswith(".wav") for p in cache(box).iterdir()), sorted(p.name for p in cache(box).iterdir())


def test_the_speech_of_an_imported_card_is_made_in_its_language_tags_voice(box, tmp_path):
    """R33: a card's voice is its first tag lang:XX. An import's cards carry their tags in the
    batch (AddMany), and the speech made for them as they join the open test speaks in that
    voice, not in Language=."""
    voices = tmp_path / "voices"
    program = tmp_path / "fake-voice"
    # Records the voice it is asked for (`-v VOICE -w FILE --stdin`), then writes a WAV.
    program.write_text("#!/bin/sh\n"
                       f"printf '%s\\n' \"$2\" >> {voices}\n"
                       "while [ \"$1\" != -w ]; do shift; done\n"
                       "printf 'RIFF\\044\\0\\0\\0WAVEfmt %064d' 0 > \"$2\"\n")
    program.chmod(0o755)
    configure(box, f"[Voice]\nProgram={program}\nLanguage=en\n")
    deck = tmp_path / "deck.tsv"
    deck.write_text("id\tfront\tback\ttags\nhund\tder Hund\tdog\tlang:de\n")
    # The day's test open, the card goes into level 1 (pacing is off) and joins it (R8).
    box.ok("prepare")
    box.ok("import", deck)
    deadline = time.monotonic() + 30
    while not voices.exists() or len(voices.read_text().splitlines()) < 2:
        assert time.monotonic() < deadline, "no speech was made for the imported card"
        time.sleep(0.1)
    assert voices.read_text().splitlines() == ["de", "de"]
    assert speech(box, "hund", "front")["pending"] is False


def fake_voice(tmp_path):
    """A voice program that records the texts it is given, one a line, in `texts`, and writes a WAV."""
    texts = tmp_path / "texts"
    program = tmp_path / "fake-voice"
    program.write_text("#!/bin/sh\n"
                       "while [ \"$1\" != -w ]; do shift; done\n"
                       f"cat >> {texts}\n"
                       "printf 'RIFF\\044\\0\\0\\0WAVEfmt %064d' 0 > \"$2\"\n")
    program.chmod(0o755)
    return program, texts


def test_an_import_speaks_its_cards_as_they_come_into_a_test(box, tmp_path):
    """R33: an import's cards are spoken when they come into a test, not all at the import (an
    import of 100,000 cards would be 200,000 runs of the program): those that join the open test
    at once, the others when a test that holds them opens. The speech is made in the order it is
    asked for, so a card added after the import, spoken first, shows that the import asked none."""
    program, texts = fake_voice(tmp_path)
    configure(box, f"[Voice]\nProgram={program}\n")

    def spoken(count):
        deadline = time.monotonic() + 30
        while not texts.exists() or len(texts.read_text().splitlines()) < count:
            assert time.monotonic() < deadline, texts.read_text() if texts.exists() else "nothing spoken"
            time.sleep(0.1)
        return texts.read_text().splitlines()

    deck = tmp_path / "deck.tsv"
    deck.write_text("eins\tone\nzwei\ttwo\n")
    # No test is open: the imported cards (in level 1, pacing being off) wait for one.
    box.ok("import", deck)
    box.ok("add", "--id", "drei", "drei", "three")
    assert spoken(2) == ["drei", "three"]
    # The test opens with the three cards; the imported ones are spoken now.
    box.ok("prepare")
    assert sorted(spoken(6)[2:]) == ["eins", "one", "two", "zwei"]
    # A card imported while the test is open joins it (R8) and is spoken at once.
    deck.write_text("vier\tfour\n")
    box.ok("import", deck)
    assert spoken(8)[6:] == ["vier", "four"]


# The speech of cards as they join the open test (R8, R33), however they come in: a card
# `vier` added singly is spoken at once, after whatever was queued before it (the maker speaks
# in the queue's order), so what is spoken before it shows what was asked for until then.

def spoken_until(texts, marker, timeout=30):
    """The texts spoken, once `marker` is among them."""
    deadline = time.monotonic() + timeout
    while not texts.exists() or marker not in texts.read_text().splitlines():
        assert time.monotonic() < deadline, texts.read_text() if texts.exists() else "nothing spoken"
        time.sleep(0.1)
    return texts.read_text().splitlines()


def spoken_before_vier(box, texts):
    """The texts spoken before the card `vier`, added now in level 3 (in no test of position 0)."""
    box.ok("add", "--level", "3", "--id", "vier", "vier", "four")
    spoken = spoken_until(texts, "four")
    return spoken[:spoken.index("vier")]


def spoken_after_vier(box, texts):
    """The texts spoken after `vier` and before the card `fuenf`, added now in level 3."""
    box.ok("add", "--level", "3", "--id", "fuenf", "fuenf", "five")
    spoken = spoken_until(texts, "five")
    return spoken[spoken.index("four") + 1:spoken.index("fuenf")]


def test_imported_cards_admitted_into_a_test_carried_over_are_spoken(bin_dir, tmp_path):
    """R23: a day's new cards join the test still open from a day before (R8), and are spoken
    then, though no test opens that day."""
    program, texts = fake_voice(tmp_path)
    box = paced_box(bin_dir, tmp_path, f"[Schedule]\nNewPerDay=1\n[Voice]\nProgram={program}\n")
    try:
        box.ok("add", "--level", "1", "--id", "drei", "drei", "three")
        box.ok("prepare")                      # Monday's test opens with drei; not finished
        deck = tmp_path / "deck.tsv"
        deck.write_text("eins\tone\nzwei\ttwo\n")
        box.ok("import", deck)                 # eins takes Monday's room and joins; zwei waits
        assert box.json("status")["counts"]["new"] == 1
        box.clock.write_text("@2026-01-06 10:00:00\n")
        test = box.json("prepare")["test"]     # Tuesday: zwei admitted into Monday's open test
        assert test["remaining"] == 3 and box.json("status")["counts"]["new"] == 0
        assert {"eins", "one", "zwei", "two"} <= set(spoken_before_vier(box, texts))
    finally:
        box.stop()


def test_an_imported_card_moved_into_the_open_test_is_spoken(bin_dir, tmp_path):
    """An imported card in a level outside today's test, moved into the open test (R8, R12), is
    spoken as it joins it; not at the import."""
    program, texts = fake_voice(tmp_path)
    box = paced_box(bin_dir, tmp_path, f"[Schedule]\nNewPerDay=all\n[Voice]\nProgram={program}\n")
    try:
        box.ok("add", "--level", "1", "--id", "drei", "drei", "three")
        deck = tmp_path / "deck.tsv"
        deck.write_text("eins\tone\n")
        box.ok("import", "--level", "5", deck)   # level 5 is not in test 0 (levels 2, 1)
        box.ok("prepare")
        box.ok("move", "eins", "1")                # joins the open test (R8)
        assert box.json("status")["test"]["remaining"] == 2
        assert {"eins", "one"} <= set(spoken_before_vier(box, texts))
    finally:
        box.stop()


def box_with_a_completed_test(bin_dir, tmp_path):
    """A paced box with the fake voice whose test 0 (levels 2, 1) was completed on Monday."""
    program, texts = fake_voice(tmp_path)
    box = paced_box(bin_dir, tmp_path, f"[Schedule]\nNewPerDay=all\n[Voice]\nProgram={program}\n")
    try:
        box.ok("add", "--level", "1", "--id", "drei", "drei", "three")
        box.ok("prepare")
        box.ok("grade", "drei", "correct")
    except BaseException:
        box.stop()
        raise
    return box, texts


def test_an_import_after_the_test_was_completed_speaks_nothing_until_the_test_is_open_again(bin_dir, tmp_path):
    """A test completed today still follows its levels for an undo (R15), but is no open test:
    cards imported into its levels are in no queue to review, and are not spoken (level 2's
    next test is the day after tomorrow). An undo opens the test again with them in its queue:
    they are spoken then."""
    box, texts = box_with_a_completed_test(bin_dir, tmp_path)
    try:
        assert box.json("status")["test"]["state"] == "completed"
        deck = tmp_path / "deck.tsv"
        deck.write_text("eins\tone\n")
        box.ok("import", "--level", "2", deck)     # level 2: test 0's, completed; next in test 2
        assert "eins" not in spoken_before_vier(box, texts)
        box.ok("undo")
        assert box.json("status")["test"]["remaining"] == 2
        assert {"eins", "one"} <= set(spoken_after_vier(box, texts))
    finally:
        box.stop()


def test_an_import_the_morning_after_a_completed_test_speaks_cards_of_no_test(bin_dir, tmp_path):
    """Yesterday's test completed, today's not opened yet: cards imported into yesterday's levels
    (2, 1) join none that is open, and level 2 is not in today's test (3, 1): not spoken."""
    box, texts = box_with_a_completed_test(bin_dir, tmp_path)
    try:
        box.clock.write_text("@2026-01-06 10:00:00\n")
        deck = tmp_path / "deck.tsv"
        deck.write_text("eins\tone\n")
        box.ok("import", "--level", "2", deck)
        assert "eins" not in spoken_before_vier(box, texts)
    finally:
        box.stop()


def test_a_reverse_import_speaks_the_cards_that_join_the_open_test(box, tmp_path):
    """R28: `import --reverse` adds each card and its reverse ID.rev; those in the open test's
    levels are spoken at the import, the others when one of them joins it."""
    program, texts = fake_voice(tmp_path)
    configure(box, f"[Voice]\nProgram={program}\n")
    box.ok("prepare")                             # test 0, levels 2 and 1: empty
    deck = tmp_path / "deck.tsv"
    deck.write_text("eins\tone\n")
    box.ok("import", "--reverse", "--level", "1", deck)
    deck.write_text("zwei\ttwo\n")
    box.ok("import", "--reverse", "--level", "5", deck)
    spoken = spoken_before_vier(box, texts)
    assert {"eins", "one"} <= set(spoken) and not {"zwei", "two"} & set(spoken), spoken
    box.ok("move", "zwei.rev", "1")
    assert {"zwei", "two"} <= set(spoken_after_vier(box, texts))


def test_an_add_with_its_reverse_queues_each_text_once(box, tmp_path):
    """R33, R28: `add --reverse` into the open test's levels asks for the speech of the card's two
    texts once: its reverse has the same two, and is not spoken again as a card that joined the
    test. The program here makes no WAV, so that each speech queued runs it, not only the first
    (a WAV made would be found by the second). Before, the add queued the card's texts and the
    end of its turn the reverse's, as a card that joined the open test: each text ran twice."""
    texts = tmp_path / "texts"
    program = tmp_path / "fake-voice"
    program.write_text(f"#!/bin/sh\ncat >> {texts}\n")
    program.chmod(0o755)
    configure(box, f"[Voice]\nProgram={program}\n")
    box.ok("prepare")                             # test 0, levels 2 and 1: empty
    box.ok("add", "--reverse", "--level", "1", "--id", "eins", "eins", "one")
    assert box.json("status")["test"]["remaining"] == 2
    assert spoken_before_vier(box, texts) == ["eins", "one"]


def test_a_cloze_batch_speaks_the_cards_that_join_the_open_test(box, tmp_path):
    """R30: an AddClozes batch (the Anki import's, AnkiConnect's) speaks each card as its test
    shows it, when it joins the open test: at once for a note in its levels, at a move for one
    outside them."""
    program, texts = fake_voice(tmp_path)
    configure(box, f"[Voice]\nProgram={program}\n")
    box.ok("prepare")                             # test 0, levels 2 and 1: empty
    with Connection(box.socket) as connection:
        reply = connection.call("AddClozes", notes=[{"text": "{{c1::eins}} und zwei", "id": "nah", "level": "1"},
                                                    {"text": "{{c1::neun}} und zehn", "id": "weit", "level": "5"}])
    assert sorted(card["id"] for card in reply["added"]) == ["nah.c1", "weit.c1"]
    spoken = spoken_before_vier(box, texts)
    assert "[eins] und zwei" in spoken and not any("neun" in text for text in spoken), spoken
    box.ok("move", "weit.c1", "2")
    assert "[neun] und zehn" in spoken_after_vier(box, texts)
