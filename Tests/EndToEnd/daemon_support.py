"""Helpers for the daemon's end-to-end tests: start the built leitnerd on a temporary store and
socket, and speak Varlink to it raw (JSON objects ended by NUL, docs/protocol.md)."""
import fcntl
import json
import os
import pathlib
import signal
import socket
import struct
import subprocess
import termios
import time

# How long a start may take before a test gives up: the first open after a kill repairs the store
# (an Anki import's batch took over 10 s on a loaded machine); a start waits for the socket, so
# a quick one is not slowed.
START_TIMEOUT = 60.0

# The device id every test's daemon runs as (docs/sync.md): kept in the device file under the
# test's own XDG_STATE_HOME (see `device_environment`), never in the real home directory.
DEVICE = "e2e"


def state_dir(store: pathlib.Path) -> pathlib.Path:
    """`.leitner/`: the store's state, shared by every device (docs/store-format.md)."""
    return pathlib.Path(store) / ".leitner"


def device_dir(store: pathlib.Path, device: str = DEVICE) -> pathlib.Path:
    """`.leitner/devices/DEVICE/`: the files only that device writes, read by every other."""
    return state_dir(store) / "devices" / device


def log_file(store: pathlib.Path, device: str = DEVICE) -> pathlib.Path:
    """`.leitner/devices/DEVICE/log`: the device's review log."""
    return device_dir(store, device) / "log"


def log_events(store: pathlib.Path, device: str = DEVICE) -> list:
    """The event of each line of the device's review log (`add`, `move`, …), in order."""
    return [fields[1] for fields in (line.split("\t") for line in log_file(store, device).read_text().splitlines()) if len(fields) > 1]


def days_file(store: pathlib.Path, device: str = DEVICE) -> pathlib.Path:
    """`.leitner/devices/DEVICE/days`: the device's day record."""
    return device_dir(store, device) / "days"


def private_dir(store: pathlib.Path, device: str = DEVICE) -> pathlib.Path:
    """`.leitner/local.DEVICE/`: the device's private state (journal, checkpoint, test, lock,
    tmp/, trash/…), never synced."""
    return state_dir(store) / f"local.{device}"


def device_environment(root: pathlib.Path, device: str = DEVICE) -> dict[str, str]:
    """`XDG_STATE_HOME` under `root`, its `leitner/device` file made holding `device` (when not
    there yet), so that a daemon started with it runs as that device and writes nothing into
    the real home directory."""
    state_home = pathlib.Path(root) / "xdg-state"
    device_file = state_home / "leitner" / "device"
    if not device_file.exists():
        device_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        device_file.write_text(device + "\n")
    return {"XDG_STATE_HOME": str(state_home)}


class VarlinkError(Exception):
    """An error reply: `name` is the qualified error, `parameters` its parameters."""

    def __init__(self, name, parameters):
        super().__init__(f"{name} {parameters}")
        self.name = name
        self.parameters = parameters


class Connection:
    """One raw Varlink connection."""

    def __init__(self, path, timeout=20.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.buffer = b""

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send_raw(self, data: bytes):
        self.sock.sendall(data)

    def send(self, message: dict):
        self.send_raw(json.dumps(message).encode() + b"\0")

    def read_by_the_daemon(self, timeout=10.0) -> bool:
        """Whether the daemon has read every byte sent (waited for up to `timeout`): a Unix
        socket's send queue (SIOCOUTQ) holds what the other end has not read yet. A message
        half sent is in flight from then on, which a fixed wait only hopes for under load."""
        deadline = time.monotonic() + timeout
        while struct.unpack("i", fcntl.ioctl(self.sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0] != 0:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def receive(self) -> dict:
        """The next reply; raises EOFError when the daemon closed the connection."""
        return json.loads(self.receive_raw())

    def receive_raw(self) -> bytes:
        """The next message's bytes, without its NUL; raises EOFError as `receive` does."""
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("connection closed by the daemon")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return message

    def at_eof(self, timeout=10.0) -> bool:
        """True when the daemon closes the connection (within `timeout`) with nothing more to read."""
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(1) == b""
        except (ConnectionResetError, BrokenPipeError):
            return True

    def call_raw(self, method: str, parameters=None, **flags) -> dict:
        message = {"method": method}
        if parameters is not None:
            message["parameters"] = parameters
        message.update(flags)
        self.send(message)
        return self.receive()

    def call(self, method: str, **parameters) -> dict:
        """Calls `io.leitner.Box.<method>` (or a qualified name); raises VarlinkError on an error."""
        name = method if "." in method else f"io.leitner.Box.{method}"
        reply = self.call_raw(name, parameters)
        if "error" in reply:
            raise VarlinkError(reply["error"], reply.get("parameters", {}))
        return reply.get("parameters", {})


# R23 (issue #28) made new cards wait in new/ and come into level 1 twenty a day. The tests of
# R2-R22 are about the levels and the test, and add cards to review them at once: their boxes
# keep pacing off (NewPerDay=all, R1), as every box was before R23. The pacing itself is tested
# with the embedded default in test_places.py, which passes pacing=True.
PACING_OFF = "[Schedule]\nNewPerDay=all\n"


def write_pacing_off(config_home: pathlib.Path):
    """Writes the user configuration `config_home/leitner/leitner.conf` with pacing off."""
    (config_home / "leitner").mkdir(parents=True, exist_ok=True)
    (config_home / "leitner" / "leitner.conf").write_text(PACING_OFF)


class Daemon:
    """A running leitnerd on a temporary store and socket."""

    def __init__(self, bin_dir, root: pathlib.Path, config: str | None = None, env=None,
                 args=(), prefix=(), socket_path=None, store=None, pacing=False):
        self.bin_dir = pathlib.Path(bin_dir)
        self.root = root
        self.store = store or root / "store"
        self.socket = socket_path or root / "run" / "leitnerd.sock"
        self.log_path = root / "leitnerd.log"
        self.config_path = None
        if config is not None:
            self.config_path = root / "leitner.conf"
            if not pacing and "NewPerDay" not in config:
                config = config.rstrip("\n") + "\n" + PACING_OFF
            self.config_path.write_text(config)
        elif not pacing:
            write_pacing_off(root / "xdg-config")
        self.env = dict(os.environ)
        self.env.update({"XDG_CONFIG_HOME": str(root / "xdg-config"), "TZ": "UTC"})
        self.env.update(device_environment(root))
        self.env.pop("LEITNER_SOCKET", None)
        self.env.pop("NOTIFY_SOCKET", None)
        self.env.pop("LISTEN_FDS", None)
        self.env.pop("LISTEN_PID", None)
        if env:
            self.env.update(env)
        self.args = list(args)
        self.prefix = list(prefix)
        self.process = None

    def command(self):
        cmd = self.prefix + [str(self.bin_dir / "leitnerd"), "--store", str(self.store), "--socket", str(self.socket)]
        if self.config_path:
            cmd += ["--config", str(self.config_path)]
        return cmd + self.args

    def start(self, wait=True):
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(self.command(), env=self.env, stdout=self.log, stderr=self.log)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self):
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"leitnerd exited with {self.process.returncode}: {self.log_text()}")
            try:
                with Connection(self.socket, timeout=5) as c:
                    c.call("org.varlink.service.GetInfo")
                return
            except (FileNotFoundError, ConnectionRefusedError):
                time.sleep(0.02)
        raise AssertionError(f"leitnerd did not answer within {START_TIMEOUT}s: {self.log_text()}")

    def connect(self, timeout=20.0) -> Connection:
        return Connection(self.socket, timeout=timeout)

    def served_connection(self, timeout=10.0) -> Connection:
        """A connection the daemon has answered once. A refusal at the connection limit is
        retried for a while: the slot of a connection just closed (the start-up probe, say) is
        freed by its own thread, a moment later."""
        deadline = time.monotonic() + timeout
        while True:
            c = self.connect()
            try:
                c.call("org.varlink.service.GetInfo")
                return c
            except (VarlinkError, EOFError, ConnectionError):
                c.close()
                assert time.monotonic() < deadline
                time.sleep(0.05)

    def call(self, method, **parameters):
        with self.connect() as c:
            return c.call(method, **parameters)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def signal(self, number):
        self.process.send_signal(number)

    def stop(self, timeout=20.0) -> int:
        """SIGTERM, then the exit status."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else 0
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        finally:
            self.log.close()

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def add_text_card(conn_or_daemon, front, back, **extra):
    """Adds a text card; returns its Card."""
    return conn_or_daemon.call("Add", front={"name": "front.txt", "text": front},
                               back={"name": "back.txt", "text": back}, **extra)["card"]


def make_store_cards(store: pathlib.Path, level: str, ids):
    """Creates cards directly in the store (the store format, docs/store-format.md)."""
    for card_id in ids:
        directory = store / level / card_id
        directory.mkdir(parents=True)
        (directory / "front.txt").write_text(f"front of {card_id}")
        (directory / "back.txt").write_text(f"back of {card_id}")


def all_card_ids(store: pathlib.Path):
    """Every card id in the store with its level, read from the directories."""
    found = []
    for level in ["1", "2", "3", "4", "5", "6", "7", "finished"]:
        directory = store / level
        if directory.is_dir():
            for entry in directory.iterdir():
                if entry.is_dir() and not entry.name.startswith("."):
                    found.append((entry.name, level))
    return found


def short_root():
    """A short temporary directory: socket paths must fit in 108 bytes."""
    import tempfile
    return pathlib.Path(tempfile.mkdtemp(prefix="ld-", dir="/tmp"))
