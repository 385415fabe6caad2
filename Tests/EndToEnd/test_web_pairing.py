"""Pairing a phone with leitner-web (docs/web.md, "Using it" and "Who may use it"), as a phone is
used: Chromium with mobile emulation (touch, a phone's user agent and screen) on a profile
directory of its own. The pairing link works once and is refused the second time; the browser
stays a device across a restart of the browser (same profile); no secret is in Chromium's
history database; a revoked device is logged out. curl: a foreign Host and a POST from another
origin are refused; `[Web] ServerName=` serves a proxy's name. On a wildcard the links name every
interface and never 0.0.0.0, and the QR code leitner-web draws is decoded by zbarimg.
Screenshots of the devices page and the door at 390×844 are kept (browsers.py says where)."""
import http.client
import json
import os
import pathlib
import select
import shutil
import sqlite3
import subprocess
import time
import urllib.parse
import zlib

import pytest
from selenium.webdriver.common.by import By

from browsers import PHONE, read, start_chromium
from test_web_http import curl
from web_box import web_box, wait_until  # noqa: F401 (fixture)


def body_text(driver) -> str:
    """The page's text; empty while a click's page load replaces it."""
    return read(driver, By.TAG_NAME, "body", lambda e: e.text, "")


def test_a_phone_pairs_once_stays_paired_and_is_logged_out_when_revoked(web_box, tmp_path, artifacts):
    box = web_box
    box.ok("add", "--id", "neko", "猫", "cat")
    box.start_web()
    profile = tmp_path / "profile"
    driver = start_chromium(PHONE, profile)
    try:
        driver.get(box.url)
        assert driver.current_url == box.base + "/"
        assert "Today" in driver.title
        secret = driver.get_cookie(box.cookie_name)["value"]
        # The device is named after its browser.
        listed = box.ctl("web", "--devices")
        assert listed.returncode == 0 and listed.stdout.startswith("Chrome on Android\tpaired "), listed
        # The link opens once: the second time it is refused, and says why.
        driver.get(box.url)
        assert "used already" in body_text(driver)
        assert "Pair this browser" in driver.title
        # The device's cookie still opens the box.
        driver.get(box.base + "/devices")
        assert "Chrome on Android" in body_text(driver) and "(this browser)" in body_text(driver)
        artifacts.shoot(driver, "devices")
        # Renamed on the page.
        field = driver.find_element(By.CSS_SELECTOR, "input[name=name]")
        field.clear()
        field.send_keys("My phone")
        field.submit()
        assert wait_until(lambda: "Renamed." in body_text(driver)), body_text(driver)
    finally:
        driver.quit()
    # A restart of the browser, same profile: still let in, without a new link.
    driver = start_chromium(PHONE, profile)
    try:
        driver.get(box.base + "/")
        assert "Today" in driver.title and "Pair this browser" not in driver.title
    finally:
        driver.quit()
    # Chromium's history holds no secret: the device's secret is in no visited address, and the
    # pairing link it keeps opens nothing any more.
    history = sqlite3.connect(f"file:{profile / 'Default' / 'History'}?mode=ro", uri=True)
    urls = [row[0] for row in history.execute("SELECT url FROM urls")]
    history.close()
    assert urls and not any(secret in url for url in urls)
    assert not any("token=" in url for url in urls)
    for url in urls:
        if "/pair/" in url:
            status, _, _ = curl(url)
            assert status == 401
    # Revoked from the command line (a lost phone): the next page is the door.
    revoked = box.ctl("web", "--revoke", "My phone")
    assert revoked.returncode == 0 and "Revoked 'My phone'" in revoked.stdout
    assert box.ctl("web", "--revoke", "My phone").returncode == 1
    driver = start_chromium(PHONE, profile)
    try:
        driver.get(box.base + "/")
        assert "Pair this browser" in driver.title and "was revoked" in body_text(driver)
        assert "neko" not in driver.page_source and "猫" not in driver.page_source
        artifacts.shoot(driver, "door-revoked")
    finally:
        driver.quit()
    assert box.ctl("web", "--devices").stdout.startswith("No device is paired")


def test_a_device_revoked_from_another_devices_page_is_logged_out(web_box, tmp_path):
    box = web_box
    box.start_web()
    first, second = start_chromium(PHONE, tmp_path / "first"), start_chromium(PHONE, tmp_path / "second")
    try:
        first.get(box.url)
        second.get(box.pairing_link())
        assert second.current_url == box.base + "/"
        first.get(box.base + "/devices")
        devices = first.find_elements(By.CSS_SELECTOR, "li.device")
        assert len(devices) == 2
        assert [d.find_element(By.CSS_SELECTOR, ".device-name").text for d in devices] == ["Chrome on Android", "Chrome on Android 2"]
        devices[1].find_element(By.CSS_SELECTOR, "form[action$='/revoke'] button").click()
        assert wait_until(lambda: "Revoked." in body_text(first))
        second.get(box.base + "/")
        assert "was revoked" in body_text(second)
        # Logging out from the devices page revokes this browser.
        first.find_element(By.CSS_SELECTOR, "form[action$='/revoke'] button").click()
        assert wait_until(lambda: "Pair this browser" in first.title)
        assert first.get_cookie(box.cookie_name) is None
    finally:
        first.quit()
        second.quit()


def test_foreign_host_and_origin_are_refused(web_box):
    box = web_box
    (box.tmp / "config" / "leitner" / "leitner.conf").open("a").write("\n[Web]\nServerName=leitner.example.org\n")
    box.ok("add", "--id", "neko", "猫", "cat")
    box.start_web()
    cookie = box.login()
    card = box.base + "/cards/neko"
    for host in [f"evil.example:{box.port}", "evil.example", f"127.0.0.1.evil.example:{box.port}"]:
        status, _, body = curl("-H", f"Host: {host}", "-H", f"Cookie: {cookie}", card)
        assert status == 421 and "猫" not in body and "ServerName=" in body, host
    # The loopback names and the configured one are served.
    for host in [f"127.0.0.1:{box.port}", f"localhost:{box.port}", "leitner.example.org"]:
        status, _, body = curl("-H", f"Host: {host}", "-H", f"Cookie: {cookie}", card)
        assert status == 200 and "猫" in body, host
    _, _, page = curl("-H", f"Cookie: {cookie}", card)
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    form = ["-H", f"Cookie: {cookie}", "--data", f"csrf={csrf}&level=3", card + "/move"]
    for headers in [["Origin: http://evil.example"], [f"Origin: http://127.0.0.1:{box.port + 1}"],
                    ["Origin: null", "Sec-Fetch-Site: cross-site"], ["Sec-Fetch-Site: cross-site"], ["Sec-Fetch-Site: same-site"]]:
        status, _, body = curl(*[part for header in headers for part in ("-H", header)], *form)
        header = headers
        assert status == 403 and "another site" in body, header
    assert box.card_level("neko") == "1"
    status, _, _ = curl("-H", f"Origin: http://127.0.0.1:{box.port}", "-H", "Sec-Fetch-Site: same-origin", *form)
    assert status == 303 and box.card_level("neko") == "3"


def printed_until_quiet(stream, seconds=2.0) -> list[str]:
    """The lines an unbuffered binary `stream` gives until it is quiet for `seconds`."""
    data = b""
    while select.select([stream], [], [], seconds)[0]:
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            break
        data += chunk
    return data.decode().splitlines()


def interface_addresses() -> list[str]:
    out = subprocess.run(["ip", "-4", "-o", "addr", "show", "up"], capture_output=True, text=True).stdout
    return [line.split()[3].split("/")[0] for line in out.splitlines()]


def decode_terminal_qr(lines: list[str], tmp: pathlib.Path) -> str:
    """The half-block drawing read back into modules, written as a PGM image (8 pixels a module),
    and decoded by zbarimg."""
    assert shutil.which("zbarimg"), "install the Debian package 'zbar-tools'"
    rows = []
    for line in lines:
        rows.append([c in "█▀" for c in line])
        rows.append([c in "█▄" for c in line])
    scale = 8
    width, height = len(rows[0]) * scale, len(rows) * scale
    pixels = bytearray()
    for row in rows:
        line = bytearray()
        for dark in row:
            line += bytes([0 if dark else 255]) * scale
        pixels += bytes(line) * scale
    image = tmp / "qr.pgm"
    image.write_bytes(f"P5 {width} {height} 255\n".encode() + bytes(pixels))
    out = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_on_a_wildcard_every_address_is_printed_with_a_qr_code_that_decodes(web_box, tmp_path):
    box = web_box
    box.web_log = open(box.tmp / "leitner-web.log", "wb")
    process = subprocess.Popen([str(box.bin_dir / "leitner-web"), "--socket", str(box.socket), "--listen", "0.0.0.0:0",
                                "--print-url"], env=box.env, stdout=subprocess.PIPE, stderr=box.web_log, bufsize=0)
    try:
        lines = printed_until_quiet(process.stdout, seconds=5.0)
        links = [line for line in lines if line.startswith("http://")]
        port = urllib.parse.urlsplit(links[0]).port
        code = urllib.parse.urlsplit(links[0]).path
        hosts = [urllib.parse.urlsplit(link).hostname for link in links]
        assert hosts[0] == "127.0.0.1" and "0.0.0.0" not in hosts
        assert set(hosts) == {"127.0.0.1", *interface_addresses()}
        assert all(urllib.parse.urlsplit(link).path == code and urllib.parse.urlsplit(link).port == port for link in links)
        assert any(line.startswith("Open a link in the browser to pair (once, within 10 minutes)") for line in lines)
        drawing = [line for line in lines if line and set(line) <= set(" ▀▄█")]
        scanned = next((link for link in links if not link.startswith("http://127.")), links[0])
        assert decode_terminal_qr(drawing, tmp_path) == scanned
        # Each interface's address is a name it serves (asked on loopback, with that Host).
        cookie = None
        for host in hosts:
            status, headers, _ = curl("-H", f"Host: {host}:{port}", f"http://127.0.0.1:{port}{code}" if cookie is None
                                      else f"http://127.0.0.1:{port}/", *(["-H", f"Cookie: {cookie}"] if cookie else []))
            if cookie is None:
                assert status == 303
                cookie = headers["set-cookie"].split(";")[0]
            else:
                assert status == 200, host
    finally:
        process.terminate()
        process.wait(10)


def test_leitnerctl_web_pair_prints_a_link_for_the_running_server(web_box):
    box = web_box
    box.start_web()
    link = box.pairing_link()
    assert link.startswith(f"http://127.0.0.1:{box.port}/pair/") and link != box.url
    status, _, _ = curl(link)
    assert status == 303
    # A link past its 10 minutes opens nothing (the expiry is in the pairing file, seconds since 1970).
    late = box.pairing_link()
    pairing = box.tmp / "xdg-state" / "leitner" / "web-pairing"
    code = urllib.parse.urlsplit(late).path.split("/")[-1]
    pairing.write_text("".join(f"{line.split()[0]} {int(time.time()) - 1}\n" if line.startswith(code) else line + "\n"
                               for line in pairing.read_text().splitlines()))
    status, _, body = curl(late)
    assert status == 401 and "10 minutes are over" in body


def png_pixels(data: bytes):
    """Width, height and rows of palette indices of a paletted PNG, every chunk's CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks = 8, {}
    while position < len(data):
        length = int.from_bytes(data[position:position + 4], "big")
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        assert int.from_bytes(data[position + 8 + length:position + 12 + length], "big") == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        position += 12 + length
    width, height = int.from_bytes(chunks[b"IHDR"][:4], "big"), int.from_bytes(chunks[b"IHDR"][4:8], "big")
    assert chunks[b"IHDR"][8:10] == bytes([8, 3])
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = [raw[y * (width + 1) + 1:(y + 1) * (width + 1)] for y in range(height)]
    assert all(raw[y * (width + 1)] == 0 for y in range(height))
    palette = chunks[b"PLTE"]
    return width, height, [[tuple(palette[3 * i:3 * i + 3]) for i in row] for row in rows]


def test_the_app_installs_with_a_manifest_and_icons_of_its_own(web_box, tmp_path):
    box = web_box
    box.start_web()
    cookie = box.login()
    _, _, page = box.request("GET", "/", cookie=cookie)
    manifest_path = page.split('<link rel="manifest" href="')[1].split('"')[0]
    assert '<meta name="theme-color" content="#0969da">' in page
    status, headers, text = box.request("GET", manifest_path)
    assert status == 200 and headers["content-type"] == "application/manifest+json"
    manifest = json.loads(text)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"] == "#0969da" and manifest["name"] == "Leitner box"
    sizes = {}
    for icon in manifest["icons"]:
        connection = http.client.HTTPConnection("127.0.0.1", box.port, timeout=20)
        connection.request("GET", icon["src"])
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200 and response.getheader("Content-Type") == icon["type"]
        if icon["type"] == "image/png":
            width, height, pixels = png_pixels(body)
            assert f"{width}x{height}" == icon["sizes"]
            # The blue ground in a corner, a white compartment, the amber one, all inside the middle 80 %.
            assert pixels[0][0] == (0x09, 0x69, 0xDA)
            assert pixels[height * 70 // 100][width * 26 // 100] == (255, 255, 255)
            assert pixels[height * 70 // 100][width * 74 // 100] == (0xF2, 0xB1, 0x34)
            assert len(body) < 8 * 1024, len(body)
            sizes[icon["sizes"]] = icon["src"]
        else:
            assert body.startswith(b"<svg") and b"<script" not in body
    assert set(sizes) == {"192x192", "512x512"}
    # Chromium reads the manifest without an error and finds nothing that keeps it from installing.
    driver = start_chromium(PHONE, tmp_path / "profile")
    try:
        driver.get(box.pairing_link())
        assert wait_until(lambda: driver.current_url == box.base + "/")
        read = driver.execute_cdp_cmd("Page.getAppManifest", {})
        assert read["errors"] == [] and read["url"].endswith(manifest_path), read
        image = driver.execute_script("const i = new Image(); i.src = arguments[0]; document.body.append(i); return true", sizes["192x192"])
        assert image and wait_until(lambda: driver.execute_script("const i = document.querySelector('body > img'); return i.complete && i.naturalWidth") == 192)
        installability = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        assert [e["errorId"] for e in installability["installabilityErrors"]] == [], installability
    finally:
        driver.quit()
