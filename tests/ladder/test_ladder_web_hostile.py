"""A hostile web suite: the real server (`arena ladder serve`, uvicorn on 127.0.0.1) attacked as a hostile
visitor and a hostile submitter would.

One server for the module (:func:`served`): a ladder of three built-ins, the submitters alice and bob
added with `arena ladder submitter add` (each token read from its stdout). Requests go over
``http.client`` or, where a client would keep sending after the answer, a raw socket (:func:`_flood`).
What the server took of a body is bounded by what its kernel acknowledged (TCP_INFO's
``tcpi_bytes_acked`` on the client's socket: what the server read plus at most its socket's receive
buffer, which grows only as the server reads) and what it wrote to disk by its ``wchar`` in
``/proc/PID/io``. (``rchar`` there cannot tell: asyncio reads a socket with recv(2), which it does not
count.) The bounds are generous, for a shared and noisy machine: the point is "not the whole body", never
a number of bytes.

The tests run in the file's order on one server: the first looks at the ladder before any game is stored.
"""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import os
import re
import select
import socket
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from arena.cli.app import main
from support.ladder import bot_folder, build_wheel
from support.processes import PATIENCE, wait_for
from support.served import answers, free_port, stop

pytest.importorskip("starlette", reason="arena ladder serve needs the [serve] extra")
pytest.importorskip("uvicorn", reason="arena ladder serve needs the [serve] extra")

pytestmark = pytest.mark.long

ENV_EXTRA = {"ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}
SERVE = "import sys; from arena.cli.app import main; sys.exit(main(sys.argv[1:]))"
"""`arena ARGS` as ``python -m arena.cli.app`` runs it, but without the harness's own PR_SET_DUMPABLE 0
(:func:`arena.sandbox.harden_harness`), which would make the server's /proc/PID/io unreadable to a test
run that is not root: the same command code, the same server."""
CAP = 20 << 20
"""The server's max_upload (arena.ladder.archive.MAX_UPLOAD, the default of `arena ladder serve`)."""
CHUNK = 64 << 10
READ_BOUND = 4 << 20
"""More than the server may read of a body it refuses (it reads headers, a socket buffer's worth at most,
and its own store): a few MiB against the 16 or 64 MiB offered."""
ECHO_ROOM = 600
"""How much longer than the same page without it a page showing a visitor's input back may be (the echo is
cut at 60 characters; escaped, each may take six)."""
TRACEBACK = ("Traceback", 'File "')
SUBMIT_WAIT = 300.0
"""Seconds a submission (install and check-bot in the sandbox) may take on a loaded machine."""


# ---------------------------------------------------------------------------------------------- the server

@dataclass(frozen=True)
class Served:
    folder: Path
    port: int
    pid: int
    tokens: dict


def _arena(*args: str) -> str:
    """`arena ARGS` in this process (the command line's own code); its stdout. It must exit 0."""
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        code = main(list(args))
    assert code == 0, f"arena {' '.join(args)} exited {code}: {said.getvalue()[-500:]}"
    return said.getvalue()


def _add(served_or_folder, name: str, *limits: str) -> str:
    """`arena ladder submitter add DIR NAME [LIMITS]`: the token it printed on stdout."""
    folder = served_or_folder.folder if isinstance(served_or_folder, Served) else served_or_folder
    token = _arena("ladder", "submitter", "add", str(folder), name, *limits).strip()
    assert re.fullmatch(r"[A-Za-z0-9_-]{40,}", token), token
    return token


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The ladder DIR (`arena ladder create DIR --table-sizes 3 --house random,low,high`), alice and bob
    added (30 submissions an hour each, so that the suite's refusals never run into the hourly limit),
    served by `arena ladder serve DIR --port P` in a session of its own; stopped at the end."""
    base = tmp_path_factory.mktemp("hostile-web")
    folder = base / "L"
    _arena("ladder", "create", str(folder), "--table-sizes", "3", "--house", "random,low,high")
    tokens = {who: _add(folder, who, "--per-hour", "30") for who in ("alice", "bob")}
    env = {**os.environ, **ENV_EXTRA}
    for attempt in range(3):  # a port taken between free_port() and the server's bind: another one
        port = free_port()
        log = open(base / f"server-{attempt}.log", "w")  # noqa: SIM115 - handed to the server, closed below
        server = subprocess.Popen([sys.executable, "-c", SERVE, "ladder", "serve", str(folder), "--port", str(port)],
                                  env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                  start_new_session=True)
        log.close()
        if wait_for(lambda: server.poll() is not None or answers(port), 60) and server.poll() is None:  # noqa: B023
            break
        stop(server)
    else:
        pytest.fail(f"arena ladder serve did not start: {(base / 'server-2.log').read_text()[-2000:]}")
    try:
        yield Served(folder, port, server.pid, tokens)
    finally:
        stop(server)


@pytest.fixture(scope="module")
def alice_lbot(served, wheels):
    """alice's bot lbot on the ladder: her POST of wheels["v1"], answered "lbot-v1: active"."""
    answer = _post(served, "/submit", wheels["v1"].read_bytes(), served.tokens["alice"])
    assert answer.status == 200, answer.text
    assert answer.text.startswith("lbot-v1: active"), answer.text
    return answer


@pytest.fixture(scope="module")
def more_wheels(tmp_path_factory):
    """Two bots of our own (two pip builds): ``lb0t``, whose name reads like lbot, and ``zed``."""
    tmp = tmp_path_factory.mktemp("hostile-wheels")
    return {name: build_wheel(bot_folder(tmp, name), tmp / name) for name in ("lb0t", "zed")}


# ---------------------------------------------------------------------------------------------- requests

@dataclass(frozen=True)
class Answer:
    status: int
    headers: tuple  # (lowercased name, value) pairs, in order
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def header(self, name: str) -> str:
        values = [v for k, v in self.headers if k == name]
        assert len(values) == 1, f"{len(values)} {name} headers on a {self.status} answer"
        return values[0]


def _request(served: Served, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
             timeout: float = PATIENCE) -> Answer:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return Answer(r.status, tuple((k.lower(), v) for k, v in r.getheaders()), r.read())
    finally:
        conn.close()


def _get(served: Served, path: str) -> Answer:
    return _request(served, "GET", path)


def _post(served: Served, path: str, body: bytes, token: str | None = None) -> Answer:
    headers = {"Content-Type": "application/octet-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return _request(served, "POST", path, body, headers, timeout=SUBMIT_WAIT)


def _io(pid: int) -> dict[str, int]:
    """Process ``pid``'s I/O counters (``/proc/PID/io``): ``wchar``, bytes it wrote with write(2) and its kin
    (files: the spool of an upload), ``rchar``, bytes it read so (files; not a socket read with recv(2), as
    asyncio's transports read, so it cannot tell what the server took of a body)."""
    with open(f"/proc/{pid}/io") as f:
        return {k: int(v) for k, v in (line.split(":") for line in f)}


def _acked(sock: socket.socket) -> int:
    """The bytes the peer's kernel has acknowledged on ``sock`` (``tcpi_bytes_acked`` of TCP_INFO): all the
    server may have read of what we sent, and at most its socket's receive buffer more than it did."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return int.from_bytes(info[120:128], sys.byteorder) if len(info) >= 128 else 0


def _buffered() -> int:
    """How much a peer's kernel takes in unread on a connection: its initial receive buffer (tcp_rmem's
    default), which grows only as the application reads."""
    try:
        return int(Path("/proc/sys/net/ipv4/tcp_rmem").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 128 << 10


@dataclass(frozen=True)
class Flood:
    answer: Answer | None
    offered: int
    sent: int
    closed: bool
    acked: int
    written: int

    def __str__(self) -> str:
        return (f"{self.answer.status if self.answer else 'no answer'}, "
                f"{'closed' if self.closed else 'left open'}; sent {self.sent >> 10} KiB of {self.offered >> 10} KiB, "
                f"the server's kernel took {self.acked >> 10} KiB, the server wrote {self.written >> 10} KiB")


def _parse(raw: bytes) -> Answer | None:
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep:
        return None
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = tuple((k.strip().lower(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:]))
    return Answer(status, headers, body)


def _flood(served: Served, headers: dict, offered: int, chunked: bool, send_body: bool = True) -> Flood:
    """POST /submit over a raw socket, sending 64 KiB pieces of the body whenever the socket takes them and
    reading whatever the server answers, until the server closes (or resets) the connection, the whole body
    is sent and answered, or nothing moves for PATIENCE seconds; what came of it: the answer, what the
    server's kernel acknowledged, what the server's process wrote meanwhile. ``send_body`` False: the
    headers only (a Content-Length of ``offered``)."""
    head = ["POST /submit HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/octet-stream",
            *(f"{k}: {v}" for k, v in headers.items()),
            "Transfer-Encoding: chunked" if chunked else f"Content-Length: {offered}"]
    frame = (b"%x\r\n%s\r\n" % (CHUNK, b"\0" * CHUNK)) if chunked else b"\0" * CHUNK
    before = _io(served.pid)["wchar"]
    raw, sent, closed, acked = b"", 0, False, 0
    pending = memoryview(("\r\n".join(head) + "\r\n\r\n").encode())
    ended = not send_body  # the body's last byte (chunked: the last chunk) is queued
    with socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE) as sock:
        sock.setblocking(False)
        while True:
            acked = max(acked, _acked(sock))
            if not pending and not ended:
                if sent < offered:
                    pending, sent = memoryview(frame), sent + CHUNK
                else:
                    pending, ended = memoryview(b"0\r\n\r\n" if chunked else b""), True
            readable, writable, _ = select.select([sock], [sock] if pending else [], [], PATIENCE)
            if not readable and not writable:
                break  # neither reading nor answering: stalled
            if readable:
                try:
                    data = sock.recv(1 << 16)
                except ConnectionResetError:
                    closed = True
                    break
                if not data:
                    closed = True
                    break
                raw += data
            if writable and pending:
                try:
                    pending = pending[sock.send(pending):]
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
                    break
        sock.settimeout(5.0)
        with contextlib.suppress(OSError):  # what was answered before the connection ended
            while data := sock.recv(1 << 16):
                raw += data
        acked = max(acked, _acked(sock))
    return Flood(_parse(raw), offered, sent, closed, acked, _io(served.pid)["wchar"] - before)


def _zip(members: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


def _left(folder: Path, sub: str) -> list[str]:
    path = folder / sub
    return sorted(str(p.relative_to(path)) for p in path.rglob("*")) if path.exists() else []


# ---------------------------------------------------------------------------------------------- checks

def _guarded(answer: Answer) -> str:
    """Check the security headers of one answer; its nonce."""
    csp = answer.header("content-security-policy")
    directives = {d.split(None, 1)[0]: d.split(None, 1)[1] if " " in d.strip() else ""
                  for d in (p.strip() for p in csp.split(";")) if d}
    found = re.fullmatch(r"'nonce-([A-Za-z0-9_-]{16,})'", directives.get("script-src", ""))
    assert found, f"script-src is not one nonce on a {answer.status}: {csp}"
    nonce = found.group(1)
    assert "unsafe-inline" not in directives["script-src"] and "unsafe-eval" not in directives["script-src"]
    assert directives.get("style-src") == f"'nonce-{nonce}'", csp
    assert directives.get("default-src") == "'none'", csp
    assert directives.get("frame-ancestors") == "'none'", csp
    assert answer.header("x-content-type-options") == "nosniff"
    assert answer.header("x-frame-options") == "DENY"
    assert answer.header("referrer-policy") == "no-referrer"
    return nonce


DATA = re.compile(r"""\btype=["']?application/(json|octet-stream)""", re.I)
"""A <script> that is data for the page's code (never run): it needs no nonce, and holds no markup."""


def _inline_tags_carry(html: str, nonce: str) -> int:
    """Every <style> and every <script> that runs carries ``nonce`` (no other nonce is on the page), and a data
    <script> holds no '<'; how many tags carry it."""
    carrying = 0
    for tag, attributes, content in re.findall(r"<(script|style)\b([^>]*)>(.*?)</\1\s*>", html, re.I | re.S):
        if tag.lower() == "script" and DATA.search(attributes):
            assert "<" not in content, f"markup in the data block <script{attributes}>"
            continue
        assert f'nonce="{nonce}"' in attributes, f"<{tag}{attributes}> lacks the policy's nonce"
        carrying += 1
    assert carrying, "no inline script or style on the page"
    assert len(re.findall(r"<(?:script|style)\b", html, re.I)) == len(re.findall(r"</(?:script|style)\s*>", html, re.I))
    assert set(re.findall(r'\bnonce="([^"]*)"', html)) == {nonce}
    return carrying


def _nothing_of_the_host(served: Served, answer: Answer) -> None:
    assert answer.status < 500, f"{answer.status}: {answer.text[:300]}"
    for word in TRACEBACK:
        assert word not in answer.text, answer.text[:2000]
    for path in {str(served.folder), str(served.folder.resolve()), str(served.folder.parent)}:
        assert path not in answer.text, f"the ladder's folder is on the page: {path}"


# ---------------------------------------------------------------------------------------------- the tests

def test_the_report_of_a_ladder_without_games_is_a_page_not_a_500(served):
    """GET /report before any game is stored (every page links it) answers a plain page, never a 500."""
    answer = _get(served, "/report")
    _guarded(answer)
    _nothing_of_the_host(served, answer)
    assert answer.status in (200, 404), answer.text[:300]


def test_every_answer_carries_the_security_headers(served):
    """The policy (one nonce for script and style, no framing) and the other headers are on every kind of
    answer: pages, JSON, 404, 400, 405 and the upload refusals 401, 403 and 413."""
    alice = {"Authorization": f"Bearer {served.tokens['alice']}", "Content-Length": str(CAP + (1 << 20))}
    answers = {
        "GET /": (_get(served, "/"), 200),
        "GET /api/table": (_get(served, "/api/table"), 200),
        "GET /submit": (_get(served, "/submit"), 200),
        "GET /bot/random": (_get(served, "/bot/random"), 200),
        "GET /nope": (_get(served, "/nope"), 404),
        "GET /games?player=(65 x)": (_get(served, "/games?player=" + "x" * 65), 400),
        "POST /": (_request(served, "POST", "/", b""), 405),
        "DELETE /submit": (_request(served, "DELETE", "/submit"), 405),
        "POST /submit, no token": (_post(served, "/submit", b"PK"), 401),
        "POST /submit, a wrong token": (_post(served, "/submit", b"PK", "x" * 43), 403),
        "POST /retire/random, a wrong token": (_post(served, "/retire/random", b"", "x" * 43), 403),
        "POST /submit, 21 MiB declared": (_request(served, "POST", "/submit", None, alice), 413),
    }
    for what, (answer, status) in answers.items():
        assert answer.status == status, f"{what}: {answer.status} {answer.text[:200]}"
        _guarded(answer)
        _nothing_of_the_host(served, answer)
    assert answers["GET /api/table"][0].header("content-type").startswith("application/json")
    assert answers["POST /submit, no token"][0].header("www-authenticate").startswith("Bearer")


def test_the_nonce_is_new_for_each_answer_and_on_every_inline_tag(served):
    """Two loads of a page get two nonces; the page's every <script> and <style> carries its own answer's."""
    for path in ("/", "/submit", "/bot/low"):
        first, second = _get(served, path), _get(served, path)
        one, two = _guarded(first), _guarded(second)
        assert one != two, path
        assert _inline_tags_carry(first.text, one) >= (2 if path != "/bot/low" else 1)
        _inline_tags_carry(second.text, two)
        assert two not in first.text and one not in second.text


def test_the_game_pages_and_the_report_carry_the_policy_once_games_are_stored(served):
    """With games stored, /games, /game/N and /report (which alone may use style attributes) carry the
    policy, and their inline code its nonce."""
    done = subprocess.run([sys.executable, "-m", "arena.cli.app", "ladder", "run", str(served.folder), "--games", "2",
                           "-j", "1", "-q"], env={**os.environ, **ENV_EXTRA}, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    table = _get(served, "/api/table")
    assert table.status == 200 and json.loads(table.body)["games"] >= 2
    for path in ("/games", "/game/0", "/report"):
        answer = _get(served, path)
        assert answer.status == 200, f"{path}: {answer.status} {answer.text[:300]}"
        nonce = _guarded(answer)
        _inline_tags_carry(answer.text, nonce)
        _nothing_of_the_host(served, answer)
        widened = "style-src-attr 'unsafe-inline'" in answer.header("content-security-policy")
        assert widened == (path == "/report"), path


SCRIPT = "<script>alert(1)</script>"
REFLECTED = {
    "markup in a bot name": ("/bot/" + quote("<svg onload=alert(1)>"), "/bot/x", 404, "<svg onload=alert(1)>"),
    "markup in a player query": ("/games?player=" + quote(SCRIPT), "/games?player=x", 404, SCRIPT),
    "a 10,000-character query": ("/games?player=" + quote(SCRIPT * 400), "/games?player=" + "x" * 65, 400, SCRIPT),
    "a 10,000-character query the page ignores": ("/?q=" + quote(SCRIPT * 400), "/", 200, SCRIPT),
    "a game number past SQLite's integers": ("/game/" + "9" * 30, "/game/999999", 404, "9" * 61),
    "a negative game number": ("/game/-1", "/nope", 404, None),
    "markup in an unknown path": ("/nope/" + quote(SCRIPT), "/nope", 404, SCRIPT),
    "a path out of the ladder": ("/bot/" + quote("../../results.sqlite", safe=""), "/bot/x", 404, None),
    "control characters in a bot name": ("/bot/" + quote("\x00\x1b[31m\u202e<b>"), "/bot/x", 404, "\x1b[31m"),
}


@pytest.mark.parametrize("attack", list(REFLECTED))
def test_reflected_input_is_a_plain_page_with_a_bounded_echo(served, attack):
    """A visitor's markup or huge input in a path or query comes back, if at all, escaped and cut, on a plain
    page (404/400, or the page itself where it is ignored): no traceback, no folder path, never a 500."""
    path, plain, status, raw = REFLECTED[attack]
    answer, baseline = _get(served, path), _get(served, plain)
    assert answer.status == status, f"{path[:80]}: {answer.status} {answer.text[:300]}"
    assert baseline.status == status, plain
    _guarded(answer)
    _nothing_of_the_host(served, answer)
    assert answer.header("content-type").startswith("text/html")
    if raw is not None:
        assert raw not in answer.text
    for tag in ("<script", "<svg", "<b>", "<img"):  # only the page's own
        assert answer.text.lower().count(tag) == baseline.text.lower().count(tag), tag
    assert len(answer.body) <= len(baseline.body) + ECHO_ROOM, (len(answer.body), len(baseline.body))


FLOODS = {"chunked, no token": ({}, True, 64 << 20),
          "chunked, a wrong token": ({"Authorization": "Bearer " + "w" * 43}, True, 64 << 20),
          "Content-Length, no token": ({}, False, 16 << 20),
          "Content-Length, a wrong token": ({"Authorization": "Bearer " + "w" * 43}, False, 16 << 20)}


@pytest.mark.parametrize("attack", list(FLOODS))
def test_a_body_without_a_known_token_is_refused_unread(served, attack, record_property):
    """POST /submit without a token or with a wrong one, the client sending on: 401/403 at once and the
    connection closed, the server having taken in a few MiB at most of the 16 MiB (under the cap) or 64 MiB."""
    headers, chunked, offered = FLOODS[attack]
    flood = _flood(served, headers, offered, chunked)
    record_property("flood", f"{attack}: {flood}")
    assert flood.answer is not None, f"no answer: {flood}"
    assert flood.answer.status == (403 if headers else 401), flood.answer.text
    assert flood.answer.text.startswith("refused:") and "token" in flood.answer.text
    _guarded(flood.answer)
    assert flood.closed, f"the server kept the connection open: {flood}"
    assert flood.acked < READ_BOUND + 2 * _buffered(), f"the server took in the body it refused: {flood}"
    assert flood.sent < offered, f"the whole body went in: {flood}"
    assert flood.written < READ_BOUND, f"the server wrote what it refused: {flood}"
    assert _left(served.folder, "uploads") == []


def test_a_revoked_token_is_refused(served, wheels):
    """`arena ladder submitter revoke` ends a token: the same submitter's POSTs are refused 403."""
    token = _add(served, "frank")
    _arena("ladder", "submitter", "revoke", str(served.folder), "frank")
    for path, body in (("/submit", wheels["crashy"].read_bytes()), ("/retire/random", b"")):
        answer = _post(served, path, body, token)
        assert answer.status == 403, f"{path}: {answer.status} {answer.text}"
        assert "revoked" in answer.text and answer.text.count("\n") == 1
        _guarded(answer)
    assert _left(served.folder, "uploads") == []
    assert not any(p.startswith("crashy") for p in _left(served.folder, "plugins"))


def test_a_declared_body_over_the_cap_is_refused_before_it_is_sent(served, record_property):
    """alice's POST /submit saying Content-Length 21 MiB is answered 413 from its headers alone (no byte of
    the body sent) and the connection closed."""
    flood = _flood(served, {"Authorization": f"Bearer {served.tokens['alice']}"}, 21 << 20, False, send_body=False)
    record_property("flood", f"21 MiB declared: {flood}")
    assert flood.answer is not None and flood.answer.status == 413, flood
    assert "20 MiB" in flood.answer.text and flood.answer.text.count("\n") == 1
    _guarded(flood.answer)
    assert flood.closed and flood.sent == 0, flood
    assert flood.written < READ_BOUND, flood
    assert _left(served.folder, "uploads") == []


def test_a_chunked_body_over_the_cap_is_cut_at_the_cap(served, record_property):
    """alice's chunked POST /submit of 21 MiB: 413 once 20 MiB are in, the connection closed, no more than
    the cap written to disk, and no partial file left under DIR/uploads/."""
    flood = _flood(served, {"Authorization": f"Bearer {served.tokens['alice']}"}, 21 << 20, True)
    record_property("flood", f"21 MiB chunked: {flood}")
    assert flood.answer is not None, f"no answer: {flood}"
    assert flood.answer.status == 413, flood.answer.text
    assert "over 20 MiB" in flood.answer.text and flood.answer.text.count("\n") == 1
    _guarded(flood.answer)
    assert flood.closed, flood
    assert CAP - (1 << 20) <= flood.written <= CAP + (1 << 20), flood  # streamed to the spool, up to the cap
    assert _left(served.folder, "uploads") == []


def test_a_bot_chain_belongs_to_its_submitter(served, wheels, alice_lbot):
    """bob cannot post the next version of alice's lbot nor retire it; alice can do both, and the bot's page
    then shows lbot-v1 retired."""
    stolen = _post(served, "/submit", wheels["v2"].read_bytes(), served.tokens["bob"])
    assert stolen.status == 400 and "belongs to another submitter" in stolen.text, stolen.text
    assert stolen.text.count("\n") == 1
    assert _get(served, "/bot/lbot-v2").status == 404
    own = _post(served, "/submit", wheels["v2"].read_bytes(), served.tokens["alice"])
    assert own.status == 200 and own.text.startswith("lbot-v2: active"), own.text
    page = _get(served, "/bot/lbot-v2")
    assert page.status == 200 and 'href="/bot/lbot-v1"' in page.text  # its versions: lbot-v1, then lbot-v2
    assert page.text.index('href="/bot/lbot-v1"') < page.text.index('href="/bot/lbot-v2"')
    taken = _post(served, "/retire/lbot-v1", b"", served.tokens["bob"])
    assert taken.status == 403 and taken.text.startswith("refused:"), taken.text
    assert re.search(r'id="status">active<', _get(served, "/bot/lbot-v1").text)
    retired = _post(served, "/retire/lbot-v1", b"", served.tokens["alice"])
    assert retired.status == 200 and retired.text == "lbot-v1: retired\n", retired.text
    assert re.search(r'id="status">retired<', _get(served, "/bot/lbot-v1").text)
    assert _post(served, "/retire/nobody-v1", b"", served.tokens["alice"]).status == 404
    assert _left(served.folder, "uploads") == []


def test_a_plugin_name_that_reads_like_another_bot_s_is_refused(served, alice_lbot, more_wheels):
    """bob's bot whose entry point is ``lb0t`` would pass for alice's lbot: refused, saying it reads like it."""
    before = _left(served.folder, "plugins")
    answer = _post(served, "/submit", more_wheels["lb0t"].read_bytes(), served.tokens["bob"])
    assert answer.status == 400, answer.text
    assert "reads like" in answer.text and "'lbot'" in answer.text and answer.text.count("\n") == 1
    assert _get(served, "/bot/lb0t-v1").status == 404
    assert _left(served.folder, "plugins") == before and _left(served.folder, "uploads") == []


def test_a_submitter_past_the_hourly_limit_gets_429(served):
    """A submitter allowed one submission an hour is refused the second with 429, whatever became of the first."""
    token = _add(served, "dave", "--per-hour", "1")
    first = _post(served, "/submit", os.urandom(4096), token)
    assert first.status == 400, first.text
    second = _post(served, "/submit", os.urandom(4096), token)
    assert second.status == 429, second.text
    assert "in the last hour" in second.text and second.text.count("\n") == 1
    _guarded(second)


def test_a_submitter_at_their_live_entry_limit_is_refused_another(served, wheels, more_wheels):
    """A submitter allowed one live entry, holding one, is refused a second bot."""
    token = _add(served, "erin", "--max-active", "1")
    first = _post(served, "/submit", more_wheels["zed"].read_bytes(), token)
    assert first.status == 200 and first.text.startswith("zed-v1: active"), first.text
    before = _left(served.folder, "plugins")
    second = _post(served, "/submit", wheels["crashy"].read_bytes(), token)
    assert second.status == 400, second.text
    assert "zed-v1" in second.text and "retire one first" in second.text and second.text.count("\n") == 1
    assert _get(served, "/bot/crashy-v1").status == 404
    assert _left(served.folder, "plugins") == before and _left(served.folder, "uploads") == []


NOT_WHEELS = {"random bytes": (os.urandom(64 << 10), "not a wheel"),
              "an empty body": (b"", "no body"),
              "a zip without .dist-info": (_zip({"bot/__init__.py": "x = 1\n", "README": "hi\n"}), "dist-info")}


@pytest.mark.parametrize("what", list(NOT_WHEELS))
def test_what_is_not_a_wheel_is_refused_in_one_line(served, what):
    """Random bytes, an empty body, a zip without a .dist-info folder: 400 with one clear line, and nothing
    left under DIR/uploads/ or DIR/plugins/."""
    body, said = NOT_WHEELS[what]
    before = _left(served.folder, "plugins")
    answer = _post(served, "/submit", body, served.tokens["bob"])
    assert answer.status == 400, f"{answer.status} {answer.text}"
    assert answer.text.startswith("refused:") and said in answer.text, answer.text
    assert answer.text.count("\n") == 1 and answer.text.endswith("\n") and len(answer.text) < 300
    assert answer.header("content-type").startswith("text/plain")
    _guarded(answer)
    _nothing_of_the_host(served, answer)
    assert _left(served.folder, "uploads") == []
    assert _left(served.folder, "plugins") == before
