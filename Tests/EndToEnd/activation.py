"""A stand-in for what PID 1 does for leitnerd.socket and leitnerd.service, for the end-to-end
tests: hold the listening socket (mode and group as the socket unit sets them), start the daemon
on the first connection with the socket as fd 3 (LISTEN_FDS/LISTEN_PID), and listen on
NOTIFY_SOCKET for its readiness messages. After an idle exit the socket stays, and the next
connection starts a new daemon, as systemd does."""
import json
import os
import pathlib
import select
import socket
import subprocess
import time

SD_LISTEN_FDS_START = 3


def call(path, method: str, parameters: dict | None = None, timeout: float = 10) -> dict:
    """One Varlink call over a fresh connection; the reply object."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(timeout)
        client.connect(str(path))
        return exchange(client, method, parameters)


def exchange(client: socket.socket, method: str, parameters: dict | None = None) -> dict:
    client.sendall(json.dumps({"method": method, "parameters": parameters or {}}).encode() + b"\0")
    reply = b""
    while not reply.endswith(b"\0"):
        chunk = client.recv(65536)
        assert chunk, f"connection closed before the reply to {method}"
        reply += chunk
    return json.loads(reply[:-1])


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class NotifyListener:
    """The NOTIFY_SOCKET end: a datagram socket that collects sd_notify messages."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(str(path))
        os.chmod(path, 0o666)  # the daemon may run as another user
        self.messages: list[dict[str, str]] = []

    def expect(self, key: str, timeout: float = 20) -> dict[str, str]:
        """The first message (new or already received) that sets `key`."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.messages:
                if key in message:
                    return message
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {key} on NOTIFY_SOCKET within {timeout}s: {self.messages}"
            if select.select([self.socket], [], [], remaining)[0]:
                data = self.socket.recv(65536).decode()
                self.messages.append(dict(line.split("=", 1) for line in data.splitlines() if "=" in line))

    def close(self):
        self.socket.close()


class SocketUnit:
    """The listening socket of a socket unit, kept across daemon lifetimes."""

    def __init__(self, path: pathlib.Path, mode: int = 0o600, gid: int | None = None):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.bind(str(path))
        self.socket.listen(64)
        os.chmod(path, mode)
        if gid is not None:
            os.chown(path, 0, gid)

    def pending(self, timeout: float) -> bool:
        """Whether a client waits on the socket (what makes systemd start the service)."""
        return bool(select.select([self.socket], [], [], timeout)[0])

    def start(self, command: list[str], env: dict[str, str], **kwargs) -> subprocess.Popen:
        """The service, with the socket as fd 3; LISTEN_PID is the pid that runs `command`
        (the shell execs it, wrappers like sandbox.py exec in place too)."""
        fd = self.socket.fileno()

        def as_fd_3():
            os.dup2(fd, SD_LISTEN_FDS_START)
            os.set_inheritable(SD_LISTEN_FDS_START, True)

        env = dict(env, LISTEN_FDS="1", LISTEN_FDNAMES="leitnerd.socket")
        return subprocess.Popen(["/bin/sh", "-c", 'LISTEN_PID=$$ exec "$@"', "sh"] + command, env=env,
                                preexec_fn=as_fd_3, close_fds=False, **kwargs)

    def close(self):
        self.socket.close()
