"""leitnerd speaks Varlink (docs/protocol.md): org.varlink.service, the standard errors, and messages that
are wrong in every way a client can make them wrong; the daemon answers or drops that client and
keeps serving the others."""
import json
import subprocess
import sys
import threading
import time

import pytest

from daemon_fixtures import daemon, make_daemon, root  # noqa: F401 (fixtures)
from daemon_support import Connection, VarlinkError

BOX = "io.leitner.Box"


def varlink_cli(*args, timeout=20):
    return subprocess.run([sys.executable, "-m", "varlink.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_get_info_names_the_service_and_its_interfaces(daemon):
    info = daemon.call("org.varlink.service.GetInfo")
    assert info["product"] == "leitnerd"
    assert info["vendor"] and info["version"] and info["url"]
    assert info["interfaces"] == ["org.varlink.service", BOX]


def test_interface_description_is_the_contract(daemon):
    text = daemon.call("org.varlink.service.GetInterfaceDescription", interface=BOX)["description"]
    assert "interface io.leitner.Box" in text
    for name in ["Status", "Prepare", "Next", "Grade", "Undo", "Add", "Move", "Delete", "Show", "List",
                 "ReadAsset", "Calendar", "Log"]:
        assert f"method {name}(" in text
    for error in ["NoSuchCard", "InvalidCardId", "InvalidLevel", "CardExists", "NotInTest", "TestComplete",
                  "NothingToUndo", "InvalidAsset", "StoreFailure"]:
        assert f"error {error} (" in text


def test_unknown_interface_description(daemon):
    with pytest.raises(VarlinkError) as error:
        daemon.call("org.varlink.service.GetInterfaceDescription", interface="org.example.Nothing")
    assert error.value.name == "org.varlink.service.InterfaceNotFound"
    assert error.value.parameters == {"interface": "org.example.Nothing"}


def test_python_varlink_cli_reads_info_and_interface(daemon):
    address = f"unix:{daemon.socket}"
    info = varlink_cli("info", address)
    assert info.returncode == 0, info.stderr
    assert "leitnerd" in info.stdout and BOX in info.stdout
    described = varlink_cli("help", f"{address}/{BOX}")
    assert described.returncode == 0, described.stderr
    assert "method Grade(" in described.stdout


def test_python_varlink_cli_calls_status(daemon):
    result = varlink_cli("call", f"unix:{daemon.socket}/{BOX}.Status", "{}")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert set(status["counts"]) == {"1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"}


def test_unknown_method_and_interface(daemon):
    with daemon.connect() as c:
        reply = c.call_raw(f"{BOX}.Explode", {})
        assert reply["error"] == "org.varlink.service.MethodNotFound"
        assert reply["parameters"] == {"method": f"{BOX}.Explode"}
        reply = c.call_raw("org.example.Nothing.Do", {})
        assert reply["error"] == "org.varlink.service.InterfaceNotFound"
        assert reply["parameters"] == {"interface": "org.example.Nothing"}
        # The connection goes on (docs/protocol.md).
        assert "today" in c.call("Status")


@pytest.mark.parametrize("method, parameters, named", [
    ("Grade", {"correct": True}, "id"),                           # missing
    ("Grade", {"id": "x"}, "correct"),                            # missing
    ("Grade", {"id": 7, "correct": True}, "id"),                  # mistyped
    ("Grade", {"id": "x", "correct": "yes"}, "correct"),          # mistyped
    ("Grade", {"id": "x", "correct": True, "answerMs": "fast"}, "answerMs"),
    ("Grade", {"id": "x", "correct": True, "answerMs": 1.5}, "answerMs"),
    ("Move", {"id": "x"}, "level"),
    ("Move", {"id": "x", "level": 3}, "level"),
    ("Show", {}, "id"),
    ("Delete", {"id": None}, "id"),
    ("List", {"withText": "no"}, "withText"),
    ("ReadAsset", {"id": "x", "side": "middle"}, "side"),         # unknown enum value
    ("ReadAsset", {"id": "x"}, "side"),
    ("Add", {"back": {"name": "b.txt", "text": "b"}}, "front"),
    ("Add", {"front": "text", "back": {"name": "b.txt", "text": "b"}}, "front"),
    ("Add", {"front": {"text": "f"}, "back": {"name": "b.txt", "text": "b"}}, "front.name"),
    ("Add", {"front": {"name": "f.png", "data": "not base64!"}, "back": {"name": "b.txt", "text": "b"}}, "front.data"),
    ("Calendar", {"from": "2026-01-01"}, "to"),
    ("Calendar", {"from": "yesterday", "to": "2026-01-02"}, "from"),
    ("Log", {"limit": "ten"}, "limit"),
    ("Status", {"verbose": True}, "verbose"),                     # a parameter Status does not take
])
def test_invalid_parameter_names_the_parameter(daemon, method, parameters, named):
    with daemon.connect() as c:
        reply = c.call_raw(f"{BOX}.{method}", parameters)
        assert reply["error"] == "org.varlink.service.InvalidParameter", reply
        assert reply["parameters"]["parameter"] == named
        assert "today" in c.call("Status")


def test_more_gets_one_reply_from_a_method_that_does_not_stream(daemon):
    # Varlink's `more` says the client accepts several replies; a method whose reply does not
    # grow with the box sends one, without `continues` (docs/protocol.md, "Streamed replies").
    with daemon.connect() as c:
        for method in [f"{BOX}.Status", "org.varlink.service.GetInfo"]:
            reply = c.call_raw(method, {}, more=True)
            assert "error" not in reply and "continues" not in reply, reply
        assert "today" in c.call("Status")


def test_upgrade_is_not_implemented(daemon):
    with daemon.connect() as c:
        for method in ["Status", "List"]:
            reply = c.call_raw(f"{BOX}.{method}", {}, upgrade=True)
            assert reply["error"] == "org.varlink.service.MethodNotImplemented"
            assert reply["parameters"] == {"method": f"{BOX}.{method}"}
        assert "today" in c.call("Status")


def test_oneway_gets_no_reply(daemon):
    with daemon.connect() as c:
        c.send({"method": f"{BOX}.Status", "parameters": {}, "oneway": True})
        c.send({"method": "org.varlink.service.GetInfo", "parameters": {}})
        # The first reply on the connection answers the second call.
        assert c.receive()["parameters"]["product"] == "leitnerd"


def test_pipelined_requests_are_answered_in_order(daemon):
    with daemon.connect() as c:
        calls = [f"{BOX}.Status", "org.varlink.service.GetInfo", f"{BOX}.Nope"] * 20
        c.send_raw(b"".join(json.dumps({"method": m, "parameters": {}}).encode() + b"\0" for m in calls))
        for method in calls:
            reply = c.receive()
            if method.endswith("Status"):
                assert "today" in reply["parameters"]
            elif method.endswith("GetInfo"):
                assert reply["parameters"]["product"] == "leitnerd"
            else:
                assert reply["error"] == "org.varlink.service.MethodNotFound"


def test_bad_members_of_a_message_get_invalid_parameter(daemon):
    with daemon.connect() as c:
        for message, member in [({"parameters": {}}, "method"), ({"method": 5}, "method"),
                                ({"method": f"{BOX}.Status", "parameters": []}, "parameters"),
                                ({"method": f"{BOX}.Status", "oneway": "yes"}, "oneway")]:
            c.send(message)
            reply = c.receive()
            assert reply["error"] == "org.varlink.service.InvalidParameter"
            assert reply["parameters"]["parameter"] == member
        assert "today" in c.call("Status")


@pytest.mark.parametrize("garbage", [
    b"this is not json\0",
    b'{"method": "io.leitner.Box.Status", "parameters": {\0',      # truncated JSON
    b"[1, 2, 3]\0",                                               # not an object
    b'"io.leitner.Box.Status"\0',
    b"\xff\xfe\0",
])
def test_garbage_closes_that_connection_only(daemon, garbage):
    with daemon.connect() as bystander, daemon.connect() as c:
        c.send_raw(garbage)
        reply = c.receive()
        assert reply["error"] == "org.varlink.service.InvalidParameter"
        assert reply["parameters"]["parameter"] == "message"
        assert c.at_eof()
        assert "today" in bystander.call("Status")
    assert "today" in daemon.call("Status")


def test_a_100_mib_message_is_refused_and_the_daemon_goes_on(daemon):
    with daemon.connect() as bystander:
        c = Connection(daemon.socket)
        head = b'{"method":"io.leitner.Box.Add","parameters":{"front":{"name":"f.txt","text":"'
        chunk = b"a" * (1 << 20)
        sent = 0
        try:
            c.send_raw(head)
            for _ in range(100):
                c.send_raw(chunk)
                sent += 1
        except (BrokenPipeError, ConnectionResetError):
            pass
        # The daemon stopped reading at the limit (16 MiB by default) and closed the connection.
        assert sent < 100
        try:
            reply = c.receive()
            assert reply["error"] == "org.varlink.service.InvalidParameter"
        except (EOFError, ConnectionResetError):
            pass
        c.close()
        assert "today" in bystander.call("Status")
    assert "message too large" in daemon.log_text()


def test_half_sent_message_does_not_block_others(daemon):
    with daemon.connect() as staller:
        staller.send_raw(b'{"method": "io.leitner.Box.Sta')
        started = time.monotonic()
        for _ in range(20):
            assert "today" in daemon.call("Status")
        assert time.monotonic() - started < 10
        # The staller can still finish its message and get its answer.
        staller.send_raw(b'tus", "parameters": {}}\0')
        assert "today" in staller.receive()["parameters"]


def test_idle_half_sent_message_is_dropped(make_daemon):
    d = make_daemon(config="[Daemon]\nIdleTimeout=1s\n").start()
    with d.connect() as staller, d.connect() as idle:
        staller.send_raw(b'{"method": "io.leitner.Box.Status"')
        assert staller.at_eof(timeout=10)
        # A connection with no half-sent message is not dropped.
        assert "today" in idle.call("Status")
    assert "idle" in d.log_text()


def test_many_clients_at_once_are_served_concurrently(daemon):
    errors = []

    def client():
        try:
            with daemon.connect() as c:
                for _ in range(20):
                    c.call("org.varlink.service.GetInfo")
                    c.call("Status")
        except Exception as e:  # noqa: BLE001 (collected and reported)
            errors.append(e)

    threads = [threading.Thread(target=client) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_max_connections(make_daemon):
    """At MaxConnections=, the connection idle the longest makes room for the new one and is
    told why (docs/daemon.md, "Connections"); the others go on."""
    d = make_daemon(config="[Daemon]\nMaxConnections=2\n").start()
    with d.served_connection() as first, d.served_connection() as second:
        time.sleep(0.05)
        with d.served_connection() as third:
            reply = first.receive()
            assert reply["error"] == f"{BOX}.ConnectionClosed"
            assert "make room" in reply["parameters"]["reason"]
            assert first.at_eof()
            assert "today" in second.call("Status")
            assert "today" in third.call("Status")
    assert "MaxConnections" in d.log_text()


def test_max_message_size_from_configuration(make_daemon):
    d = make_daemon(config="[Daemon]\nMaxMessageSize=1K\n").start()
    with d.connect() as c:
        c.send_raw(b'{"method": "io.leitner.Box.Status", "parameters": {"x": "' + b"y" * 2000 + b'"}}\0')
        assert c.receive()["error"] == "org.varlink.service.InvalidParameter"
        assert c.at_eof()
    assert "today" in d.call("Status")
