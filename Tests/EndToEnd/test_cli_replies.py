"""leitnerctl decodes each reply into the interface's types where it arrives: a reply that does not
have the interface's shape is one clear error naming the member (exit status 1), never a crash or
a blank, and --json prints the reply as the daemon sent it."""
import json
import socket
import subprocess
import threading

import pytest


class OneReplyDaemon:
    """A socket that answers every call with the same reply, as a daemon of another version
    of the interface might."""

    def __init__(self, path, parameters):
        self.reply = json.dumps({"parameters": parameters}).encode() + b"\0"
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(4)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                data = b""
                while True:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                    while b"\0" in data:
                        _, data = data.split(b"\0", 1)
                        connection.sendall(self.reply)

    def close(self):
        self.listener.close()


@pytest.fixture
def answering(tmp_path):
    daemons = []

    def start(parameters):
        daemon = OneReplyDaemon(tmp_path / f"box{len(daemons)}.sock", parameters)
        daemons.append(daemon)
        return daemon.listener.getsockname()

    yield start
    for daemon in daemons:
        daemon.close()


def run_ctl(bin_dir, socket_path, *args):
    return subprocess.run([str(bin_dir / "leitnerctl"), "--socket", socket_path, "--no-autostart", *args],
                          capture_output=True, text=True, timeout=30)


SIDE = {"path": "/s/1/a/front.txt", "mediaType": "text/plain", "text": "hola"}


def test_a_member_of_another_shape_is_named(bin_dir, answering):
    path = answering({"card": {"id": "a", "level": "8", "front": SIDE, "back": SIDE}})
    result = run_ctl(bin_dir, path, "show", "a")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == "leitnerctl: the daemon's answer to Show cannot be read: field 'card.level' '8' is not a level\n"


def test_a_missing_member_is_named(bin_dir, answering):
    path = answering({"card": {"id": "a", "level": "2", "front": SIDE}})
    result = run_ctl(bin_dir, path, "move", "a", "2")
    assert result.returncode == 1
    assert "the daemon's answer to Move cannot be read: field 'card.back' is missing" in result.stderr


def test_json_prints_the_reply_as_it_came(bin_dir, answering):
    # Members the interface does not have pass through --json unchanged.
    reply = {"card": {"id": "a", "level": "2", "front": SIDE, "back": SIDE, "later": [1, 2]}}
    path = answering(reply)
    result = run_ctl(bin_dir, path, "--json", "show", "a")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == reply
