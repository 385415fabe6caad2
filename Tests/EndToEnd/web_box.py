"""A real leitnerd and a real leitner-web on temporary stores, sockets and ports, for the web
tests (docs/web.md): the box as `CliBox` makes it, and leitner-web started on 127.0.0.1 with a
port the kernel picks, its first line a pairing link."""
import http.client
import pathlib
import subprocess
import threading
import time
import urllib.parse

import pytest

from cli_box import CliBox, daemon_is_built


class WebBox(CliBox):
    """A `CliBox` with leitner-web in front of its daemon."""

    def __init__(self, bin_dir: pathlib.Path, tmp: pathlib.Path, pacing=False):
        super().__init__(bin_dir, tmp, pacing=pacing)
        self.web = None
        self.url = None

    def start_web(self, *args):
        self.web_log = open(self.tmp / "leitner-web.log", "wb")
        self.web = subprocess.Popen(
            [str(self.bin_dir / "leitner-web"), "--socket", str(self.socket), "--listen", "127.0.0.1:0", "--print-url", *args],
            env=self.env, stdout=subprocess.PIPE, stderr=self.web_log, text=True)
        self.url = self.web.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), (self.tmp / "leitner-web.log").read_text()
        parts = urllib.parse.urlsplit(self.url)
        assert parts.path.startswith("/pair/"), self.url
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.port = parts.port
        # The rest of what it printed (the QR code), read as it comes so that the pipe never fills.
        self.printed = [self.url]
        self.reader = threading.Thread(target=lambda: self.printed.extend(self.web.stdout), daemon=True)
        self.reader.start()
        return self

    def pairing_link(self) -> str:
        """A new pairing link for the running server, as `leitnerctl web --pair` prints it."""
        out = subprocess.run([str(self.bin_dir / "leitner-web"), "--socket", str(self.socket), "--listen", f"127.0.0.1:{self.port}",
                              "--pair"], env=self.env, capture_output=True, text=True, timeout=20)
        assert out.returncode == 0, out.stderr
        return out.stdout.splitlines()[0]

    @property
    def cookie_name(self) -> str:
        return f"leitner_default_{self.port}"

    def stop(self):
        if self.web and self.web.poll() is None:
            self.web.terminate()
            self.web.wait(10)
        super().stop()

    def stop_daemon(self):
        """Stops the daemon only; leitner-web goes on."""
        super().stop()

    def log_text(self) -> str:
        return (self.tmp / "leitner-web.log").read_text(errors="replace")

    def request(self, method, path, body=None, headers=None, cookie=None):
        """One request on a new connection: (status, headers as a dict of lower-case names, body text)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        all_headers = dict(headers or {})
        if cookie:
            all_headers["Cookie"] = cookie
        if body is not None and "Content-Type" not in all_headers:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def login(self) -> str:
        """Opens a new pairing link as a browser would and returns the device's cookie ("name=value")."""
        path = urllib.parse.urlsplit(self.pairing_link()).path
        status, headers, _ = self.request("GET", path)
        assert status == 303 and headers["location"] == "/", (status, headers)
        return headers["set-cookie"].split(";")[0]

    def card_level(self, card_id) -> str:
        return self.json("show", card_id)["card"]["level"]


def started_web_box(bin_dir, tmp_path, pacing):
    if not daemon_is_built(bin_dir):
        pytest.skip("leitnerd is not built yet (placeholder)")
    assert (bin_dir / "leitner-web").exists(), f"no leitner-web in {bin_dir}: run 'swift build' first"
    box = WebBox(bin_dir, tmp_path, pacing=pacing)
    box.start()
    return box


@pytest.fixture
def web_box(bin_dir, tmp_path):
    box = started_web_box(bin_dir, tmp_path, pacing=False)
    yield box
    box.stop()


@pytest.fixture
def paced_web_box(bin_dir, tmp_path):
    """A web box whose daemon paces new cards (the embedded NewPerDay=20, R23): added cards wait
    in new/ until a test admits them."""
    box = started_web_box(bin_dir, tmp_path, pacing=True)
    yield box
    box.stop()


def wait_until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
