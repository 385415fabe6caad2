"""The AnkiConnect door (docs/web.md, "AnkiConnect"): a real leitnerd and leitner-web with
`[Web] AnkiConnect=` set, asked as Yomitan asks (ext/js/comm/anki-connect.js: a fetch POST of
JSON with `mode: 'cors'` and `credentials: 'omit'`, so no cookie, `Content-Type:
application/json`, the `key` member, `version` 2, `multi` of `findNotes`, and the CORS preflight
from the extension's origin) over http.client, and by headless Chromium from a page of another
origin, which must be refused."""
import base64
import http.client
import http.server
import json
import os
import pathlib
import socket
import stat
import subprocess
import threading

import pytest

from daemon_support import log_file
from web_box import WebBox, daemon_is_built

EXTENSION = "chrome-extension://likgccmbimhjbgkjambclfkhldnlhbnn"
# What Chromium's fetch sends with Yomitan's request, less what http.client adds itself.
YOMITAN_HEADERS = {
    "Content-Type": "application/json",
    "Origin": EXTENSION,
    "Accept": "*/*",
    "Sec-Fetch-Site": "none",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Dest": "empty",
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
}
# A PNG of one pixel, and bytes standing for an MP3 (the door keeps bytes, it does not decode them).
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000185d7e1a40000000049454e44ae426082")
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(range(256)) * 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AnkiBox(WebBox):
    """A web box whose leitner-web also serves the AnkiConnect door on a port of its own."""

    def start_door(self, origins=EXTENSION, extra_path=None):
        self.door_port = free_port()
        conf = self.tmp / "config" / "leitner" / "leitner.conf"
        conf.parent.mkdir(parents=True, exist_ok=True)
        before = conf.read_text() if conf.exists() else ""
        conf.write_text(before + f"\n[Web]\nAnkiConnect=127.0.0.1:{self.door_port}\nAnkiConnectOrigins={origins}\n")
        if extra_path:
            self.env["PATH"] = f"{extra_path}:{self.env['PATH']}"
        self.start_web()
        self.key = self.anki_key()
        return self

    def anki_key(self) -> str:
        out = subprocess.run([str(self.bin_dir / "leitner-web"), "--socket", str(self.socket), "--anki-key"],
                             env=self.env, capture_output=True, text=True, timeout=20)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    def post(self, body: bytes, headers=None, method="POST"):
        """One request to the door on a new connection: (status, headers, body bytes)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.door_port, timeout=30)
        connection.request(method, "/", body=body, headers=YOMITAN_HEADERS if headers is None else headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def invoke(self, action, params=None, key=None, version=2, headers=None):
        """Yomitan's `_invoke`: `{action, params, version}` and `key`; the reply parsed."""
        body = {"action": action, "params": params or {}, "version": version, "key": self.key if key is None else key}
        status, response_headers, data = self.post(json.dumps(body).encode(), headers)
        assert status == 200, (status, data)
        assert response_headers["access-control-allow-origin"] == EXTENSION
        return json.loads(data)

    def cards_in(self, place):
        return sorted(p.name for p in (self.store / place).iterdir() if p.is_dir()) if (self.store / place).exists() else []


@pytest.fixture
def anki_box(bin_dir, tmp_path):
    if not daemon_is_built(bin_dir):
        pytest.skip("leitnerd is not built yet")
    box = AnkiBox(bin_dir, tmp_path)
    box.start()
    yield box
    box.stop()


def yomitan_note(front, back, deck="Default", tags=("yomitan",), allow_duplicate=False, scope="collection"):
    """A note as Yomitan's `AnkiNoteBuilder` makes it."""
    return {"deckName": deck, "modelName": "Basic", "fields": {"Front": front, "Back": back}, "tags": list(tags),
            "options": {"allowDuplicate": allow_duplicate, "duplicateScope": scope,
                        "duplicateScopeOptions": {"deckName": None, "checkChildren": False, "checkAllModels": False}}}


def test_a_word_added_as_yomitan_adds_it_waits_in_new_with_its_media_and_tags(anki_box):
    anki_box.start_door()
    # The settings page: is it there, which version, which decks, models and fields.
    assert anki_box.invoke("version") == 6
    assert anki_box.invoke("requestPermission") == {"permission": "granted", "requireApikey": True, "version": 6}
    assert anki_box.invoke("apiReflect", {"scopes": ["actions"], "actions": ["canAddNotesWithErrorDetail", "guiEditNote"]}) \
        == {"scopes": ["actions"], "actions": ["canAddNotesWithErrorDetail"]}
    assert anki_box.invoke("deckNames") == ["Default"]
    assert anki_box.invoke("modelNames") == ["Basic", "Basic (and reversed card)", "Cloze"]
    assert anki_box.invoke("modelFieldNames", {"modelName": "Basic"}) == ["Front", "Back"]
    assert anki_box.invoke("modelFieldNames", {"modelName": "Cloze"}) == ["Text", "Back Extra"]

    # The pop-up: the word's sound and picture stored first, then the note naming them.
    audio = anki_box.invoke("storeMediaFile", {"filename": "yomitan_audio_食べる_たべる.mp3",
                                               "data": base64.b64encode(MP3).decode()})
    picture = anki_box.invoke("storeMediaFile", {"filename": "yomitan_dictionary_media_1.png",
                                                 "data": base64.b64encode(PNG).decode()})
    assert (audio, picture) == ("yomitan_audio_食べる_たべる.mp3", "yomitan_dictionary_media_1.png")
    front = "<ruby>食<rt>た</rt></ruby>べる"
    back = (f'<div style="text-align: left;" class="yomitan-glossary"><ol><li data-dictionary="JMdict"><i>(v1, vt)</i> '
            f'<span>to eat</span></li><li>to live on (e.g. a salary)</li></ol></div><br><img src="{picture}"> [sound:{audio}]')
    note = yomitan_note(front, back, tags=["yomitan", "ja::verb"])
    stripped = {**note, "fields": {"Front": front}}
    assert anki_box.invoke("canAddNotesWithErrorDetail", {"notes": [stripped]}) == [{"canAdd": True}]
    assert anki_box.invoke("canAddNotes", {"notes": [stripped]}) == [True]
    note_id = anki_box.invoke("addNote", {"note": note})
    assert isinstance(note_id, int) and 0 < note_id < 2 ** 53

    # In new/, its sides Markdown, its media beside them, its tags kept (Anki's :: is our :).
    [card] = anki_box.cards_in("new")
    directory = anki_box.store / "new" / card
    assert (directory / "front.md").read_text() == "食(た)べる"
    assert (directory / "back.md").read_text() == (
        "1. *(v1, vt)* to eat\n2. to live on (e.g. a salary)\n\n"
        f"![]({picture}) [sound:{audio}]")
    assert (directory / picture).read_bytes() == PNG
    assert (directory / audio).read_bytes() == MP3
    shown = anki_box.json("show", card)["card"]
    assert [m["name"] for m in shown["back"]["media"]] == [picture, audio]
    assert anki_box.json("show", card)["card"]["tags"] == ["yomitan", "ja:verb"]

    # Yomitan's duplicate check: the stripped note now cannot be added, and multi of findNotes
    # finds the note by its first field.
    assert anki_box.invoke("canAddNotesWithErrorDetail", {"notes": [stripped]}) \
        == [{"canAdd": False, "error": "cannot create note because it is a duplicate"}]
    assert anki_box.invoke("canAddNotes", {"notes": [stripped]}) == [False]
    query = f'"front:{front}"'
    assert anki_box.invoke("multi", {"actions": [{"action": "findNotes", "params": {"query": query}, "key": anki_box.key},
                                                 {"action": "findNotes", "params": {"query": '"front:飲む"'}, "key": anki_box.key}]}) \
        == [[note_id], []]
    [info] = anki_box.invoke("notesInfo", {"notes": [note_id]})
    assert info["noteId"] == note_id and info["modelName"] == "Basic"
    assert info["fields"]["Front"] == {"value": "食(た)べる", "order": 0}
    assert info["tags"] == ["yomitan", "ja:verb"] and len(info["cards"]) == 1

    # A second addNote of the same first field is refused as AnkiConnect refuses it; nothing added.
    refused = anki_box.invoke("addNote", {"note": note})
    assert refused == {"result": None, "error": "cannot create note because it is a duplicate"}
    assert anki_box.invoke("addNote", {"note": note}, version=6)["error"] == "cannot create note because it is a duplicate"
    assert anki_box.cards_in("new") == [card]


def test_a_note_naming_media_never_stored_or_not_media_is_refused_and_nothing_added(anki_box):
    anki_box.start_door()
    missing = anki_box.invoke("addNote", {"note": yomitan_note("鳥", "bird [sound:never_stored.mp3]")}, version=6)
    assert missing["error"] == ("the media file 'never_stored.mp3' was not stored: "
                                "send it with storeMediaFile before the note that names it")
    # A name with a path is no medium: kept as the text it is, nothing stored or read for it.
    assert anki_box.invoke("storeMediaFile", {"filename": "../../escape.png", "data": base64.b64encode(PNG).decode()}) \
        == "_._.._escape.png"
    pathless = anki_box.invoke("addNote", {"note": yomitan_note("魚", '<img src="../../escape.png" alt="a fish">')})
    [card] = anki_box.cards_in("new")
    assert (anki_box.store / "new" / card / "back.md").read_text() == "a fish"
    assert sorted(p.name for p in (anki_box.store / "new" / card).iterdir()) == ["back.md", "front.md", "tags"]
    assert isinstance(pathless, int)


def test_a_note_with_its_reverse_and_a_cloze_note_in_a_deck_of_their_own(anki_box):
    anki_box.start_door()
    reversed_id = anki_box.invoke("addNote", {"note": {**yomitan_note("el gato", "the cat", deck="Spanish::Animals"),
                                                       "modelName": "Basic (and reversed card)"}})
    # A cloze note's picture goes into the note's directory, with the note (R31).
    assert anki_box.invoke("storeMediaFile", {"filename": "gato.png", "data": base64.b64encode(PNG).decode()}) == "gato.png"
    cloze_id = anki_box.invoke("addNote", {"note": {"deckName": "Spanish", "modelName": "Cloze", "tags": [],
                                                    "fields": {"Text": "El {{c1::gato}} duerme.",
                                                               "Back Extra": '<b>dormir</b> <img src="gato.png">'}}}, version=6)
    assert cloze_id["error"] is None
    assert anki_box.cards_in("new") == ["el-gato", "el-gato-duerme.c1", "el-gato.rev"]
    assert (anki_box.store / "notes" / "el-gato-duerme" / "extra.md").read_text() == "**dormir** ![](gato.png)"
    assert (anki_box.store / "notes" / "el-gato-duerme" / "gato.png").read_bytes() == PNG
    assert anki_box.invoke("deckNames") == ["Default", "Spanish", "Spanish::Animals"]
    tagged = {card["id"]: card["tags"] for card in anki_box.json_lines("list", "--tag", "deck:Spanish")}
    assert tagged == {"el-gato": ["deck:Spanish:Animals", "yomitan"], "el-gato.rev": ["deck:Spanish:Animals", "yomitan"],
                      "el-gato-duerme.c1": ["deck:Spanish"]}
    infos = anki_box.invoke("notesInfo", {"notes": [reversed_id]})
    [info] = infos
    assert info["modelName"] == "Basic (and reversed card)" and len(info["cards"]) == 2
    assert "deck:Spanish:Animals" in info["tags"]
    # A duplicate is looked for in the deck asked when the scope is the deck.
    other_deck = yomitan_note("el gato", "the cat", deck="Default", scope="deck")
    assert anki_box.invoke("canAddNotes", {"notes": [other_deck]}) == [True]
    assert anki_box.invoke("findNotes", {"query": '"deck:Spanish" "front:el gato"'}) == [reversed_id]
    assert anki_box.invoke("findNotes", {"query": '"deck:Default" "front:el gato"'}) == []
    [cloze] = anki_box.invoke("notesInfo", {"notes": [cloze_id["result"]]})
    assert cloze["modelName"] == "Cloze" and cloze["fields"]["Text"]["value"] == "El {{c1::gato}} duerme."


def test_add_notes_adds_each_note_whole_in_a_few_batches_and_answers_each_in_its_place(anki_box):
    """addNotes: the notes that pass go to the daemon in batches (AddMany, AddClozes), each card
    written with its tags and media in the change that adds it, so the log holds one add a card
    and no edit; a note refused is null in its place, the others are added all the same."""
    anki_box.start_door()
    anki_box.invoke("addNote", {"note": yomitan_note("neko", "cat")})
    before = len(log_file(anki_box.store).read_text().splitlines())
    assert anki_box.invoke("storeMediaFile", {"filename": "inu.png", "data": base64.b64encode(PNG).decode()}) == "inu.png"
    notes = [yomitan_note("inu", '<img src="inu.png"> dog', tags=["yomitan", "ja::animal"]),
             yomitan_note("neko", "cat again"),
             yomitan_note("tori", "bird [sound:never_stored.mp3]"),
             {**yomitan_note("el perro", "the dog", deck="Spanish"), "modelName": "Basic (and reversed card)"},
             yomitan_note("inu", "dog, twice in one request"),
             {"deckName": "Default", "modelName": "Cloze", "tags": ["grammar"],
              "fields": {"Text": "{{c1::Inu}} wa {{c2::hoeru}}.", "Back Extra": ""}},
             yomitan_note("uma", "horse", tags=[])]
    numbers = anki_box.invoke("addNotes", {"notes": notes})
    assert [n is None for n in numbers] == [False, True, True, False, True, False, False], numbers
    assert len(set(n for n in numbers if n is not None)) == 4
    assert anki_box.cards_in("new") == ["el-perro", "el-perro.rev", "inu", "inu-wa-hoeru.c1", "inu-wa-hoeru.c2", "neko", "uma"]
    assert (anki_box.store / "new" / "inu" / "inu.png").read_bytes() == PNG
    assert (anki_box.store / "new" / "inu" / "tags").read_text() == "yomitan\nja:animal\n"
    assert (anki_box.store / "new" / "el-perro.rev" / "tags").read_text() == "deck:Spanish\nyomitan\n"
    assert (anki_box.store / "new" / "inu-wa-hoeru.c2" / "tags").read_text() == "grammar\n"
    assert not (anki_box.store / "new" / "uma" / "tags").exists()
    events = [line.split("\t")[1:3] for line in log_file(anki_box.store).read_text().splitlines()[before:]]
    assert sorted(events) == [["add", card] for card in ["el-perro", "el-perro.rev", "inu", "inu-wa-hoeru.c1",
                                                          "inu-wa-hoeru.c2", "uma"]]
    [info] = anki_box.invoke("notesInfo", {"notes": [numbers[5]]})
    assert info["modelName"] == "Cloze" and info["tags"] == ["grammar"]
    assert anki_box.invoke("findNotes", {"query": '"front:el perro"'}) == [numbers[3]]
    # A note refused alone is said in words.
    assert anki_box.invoke("addNote", {"note": notes[2]}, version=6)["error"].startswith("the media file 'never_stored.mp3'")


def test_the_preflight_and_the_requests_of_any_other_origin_are_refused_with_no_cors_headers(anki_box):
    anki_box.start_door()
    # The extension's preflight, as Chromium sends it before a fetch with a JSON body.
    preflight = {"Origin": EXTENSION, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type",
                 "Access-Control-Request-Private-Network": "true", "Sec-Fetch-Mode": "cors"}
    status, headers, _ = anki_box.post(None, preflight, method="OPTIONS")
    assert status == 204
    assert headers["access-control-allow-origin"] == EXTENSION
    assert "POST" in headers["access-control-allow-methods"]
    assert "content-type" in headers["access-control-allow-headers"].lower()
    assert headers["access-control-allow-private-network"] == "true"

    # A web page's: no CORS header on the preflight nor on the POST, and nothing done, even
    # with the right key (a page that learnt it).
    page = "https://dictionary.example"
    status, headers, _ = anki_box.post(None, {**preflight, "Origin": page}, method="OPTIONS")
    assert status == 403 and not any(h.startswith("access-control-") for h in headers)
    body = json.dumps({"action": "addNote", "version": 6, "key": anki_box.key,
                       "params": {"note": yomitan_note("猫", "cat")}}).encode()
    for origin in [page, "null", "http://127.0.0.1:8470", "moz-extension://0b8e7f6c-1a2b-4c3d-9e8f-000000000000"]:
        status, headers, data = anki_box.post(body, {**YOMITAN_HEADERS, "Origin": origin, "Sec-Fetch-Site": "cross-site"})
        assert status == 403, (origin, status, data)
        assert not any(h.startswith("access-control-") for h in headers), headers
        assert b"AnkiConnectOrigins" in data
    assert anki_box.cards_in("new") == [] and anki_box.cards_in("1") == []


def test_a_wrong_key_a_broken_body_and_a_huge_one_are_refused_and_the_door_goes_on(anki_box):
    anki_box.start_door()
    assert anki_box.invoke("addNote", {"note": yomitan_note("猫", "cat")}, key="0" * 32) \
        == {"result": None, "error": "valid api key must be provided"}
    assert anki_box.invoke("deckNames", key="") == {"result": None, "error": "valid api key must be provided"}
    assert anki_box.cards_in("new") == []

    status, _, data = anki_box.post(b'{"action": "addNote", "params": {"note": ')
    assert status == 200 and json.loads(data)["error"].startswith("the request is not JSON")
    status, _, data = anki_box.post(b'["version"]')
    assert json.loads(data) == {"result": None, "error": "the request is an array, not an object {\"action\", \"version\", \"params\", \"key\"}"}
    assert anki_box.invoke("noSuchAction") == {"result": None, "error": "unsupported action"}
    assert anki_box.invoke("findNotes", {"query": "deck:Default"})["error"].startswith("the query 'deck:Default' is not answered")
    assert "fetches nothing from the network" in anki_box.invoke(
        "storeMediaFile", {"filename": "x.mp3", "url": "https://example.com/x.mp3"})["error"]

    # 17 MiB: more than the door reads. Refused by its length, before the body is read.
    huge = b'{"action": "storeMediaFile", "params": {"data": "' + b"A" * (17 << 20) + b'"}}'
    connection = http.client.HTTPConnection("127.0.0.1", anki_box.door_port, timeout=30)
    try:
        connection.request("POST", "/", body=huge, headers=YOMITAN_HEADERS)
        response = connection.getresponse()
        assert response.status == 413 and b"body" in response.read()
    except (BrokenPipeError, ConnectionResetError):
        pass  # it answered and closed before taking the whole body
    finally:
        connection.close()
    assert anki_box.invoke("version") == 6
    # The site on its own port is untouched by the door.
    status, _, _ = anki_box.request("GET", "/static/style.css")
    assert status in (200, 404)


def test_the_key_is_made_once_kept_private_and_printed_by_leitnerctl(anki_box):
    anki_box.start_door()
    key_file = pathlib.Path(anki_box.env["XDG_STATE_HOME"]) / "leitner" / "anki-connect-key"
    assert key_file.read_text().strip() == anki_box.key and len(anki_box.key) == 32
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    out = anki_box.ctl("web", "--anki-key")
    assert out.stdout.strip() == anki_box.key
    assert anki_box.anki_key() == anki_box.key


def test_gui_browse_opens_the_cards_page_on_the_site(anki_box, tmp_path):
    opener = tmp_path / "bin"
    opener.mkdir()
    opened = tmp_path / "opened"
    (opener / "xdg-open").write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {opened}\n')
    (opener / "xdg-open").chmod(0o755)
    anki_box.start_door(extra_path=opener)
    note_id = anki_box.invoke("addNote", {"note": yomitan_note("犬", "dog")})
    cards = anki_box.invoke("guiBrowse", {"query": f"nid:{note_id}"})
    assert len(cards) == 1
    from web_box import wait_until
    assert wait_until(opened.exists)
    assert opened.read_text().strip() == f"{anki_box.base}/cards/犬".replace("犬", "%E7%8A%AC")


def test_the_door_is_off_unless_configured(anki_box):
    anki_box.start_web()
    assert "AnkiConnect" not in anki_box.log_text()


def test_a_page_of_another_origin_in_chromium_is_refused(anki_box, desktop, tmp_path):
    """A page on another origin fetches the door as Yomitan would, key and all: the browser
    gets no CORS header, so the fetch fails, and no card is added."""
    anki_box.start_door()
    page = tmp_path / "site"
    page.mkdir()
    (page / "index.html").write_text("<!doctype html><title>a page</title><p>a dictionary site</p>")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(page)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        desktop.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        script = """
            const [url, key, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
            const body = {action: 'addNote', version: 2, key,
                          params: {note: {deckName: 'Default', modelName: 'Basic', fields: {Front: 'page', Back: 'x'}, tags: []}}};
            const simple = fetch(url, {method: 'POST', mode: 'no-cors', body: JSON.stringify(body),
                                       headers: {'Content-Type': 'text/plain'}}).then(() => 'sent', e => 'failed: ' + e);
            const cors = fetch(url, {method: 'POST', mode: 'cors', cache: 'default', credentials: 'omit',
                                     headers: {'Content-Type': 'application/json'}, redirect: 'follow',
                                     referrerPolicy: 'no-referrer', body: JSON.stringify(body)})
                .then(r => r.text().then(t => 'read: ' + t), e => 'failed: ' + e);
            Promise.all([simple, cors]).then(done);
        """
        desktop.set_script_timeout(20)
        simple, cors = desktop.execute_async_script(script, f"http://127.0.0.1:{anki_box.door_port}/", anki_box.key)
        assert cors.startswith("failed: TypeError"), cors
        # A simple request needs no preflight: it reaches the door, which does nothing with it,
        # and its answer is opaque to the page, or blocked (Cross-Origin-Resource-Policy).
        assert simple in ("sent", "failed: TypeError: Failed to fetch"), simple
    finally:
        server.shutdown()
    assert anki_box.cards_in("new") == [] and anki_box.cards_in("1") == []
    assert "page" not in anki_box.ctl("list").stdout
