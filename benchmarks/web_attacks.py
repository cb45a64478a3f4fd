"""Attack a served ladder as a hostile bot author and a hostile visitor would; print what each attack got.

    .venv/bin/python benchmarks/web_attacks.py [--keep DIR]

Makes a ladder in a temporary folder, submits the hostile bot of
``tests/support/hostile.py`` (markup in its version, description, prints and
crash messages), plays a few games, serves the ladder with uvicorn on
127.0.0.1 and then, one line each:

- which pages carry a payload unescaped, and which send the security headers;
- what ``/bot/<svg onload=alert(1)>`` and ``/game/<a huge number>`` answer;
- whether the ladder's folder path shows on its pages;
- how many bytes a chunked multipart ``POST /submit`` with no token or a wrong one gets taken in before
  the server answers and closes (sent for at most 10 s, up to 256 MiB), how many the server's kernel
  acknowledged (TCP_INFO: what the server read, plus at most its receive buffer) and how many bytes the
  server wrote meanwhile (``/proc/PID/io`` wchar);
- what a 300 KB wheel holding 300 MiB of zeros does (`arena ladder submit`), and how
  much it unpacks to;
- whether a wheel of another distribution with the hostile bot's plugin name becomes its next version.

It runs on any checkout (the arena it imports is the one on the path), so the
same command shows an attack before and after a change. It needs the
``[serve]`` and ``[test]`` extras (starlette, uvicorn, httpx, pip's wheel).
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.hostile import PAYLOAD, hostile_folder
from support.ladder import bot_folder, build_wheel

ENV = {**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}
RAW = ("<script>alert(", "<img src=x onerror=", "<svg onload=")
HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy")


def arena(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "arena.cli.app", *args], env=ENV, capture_output=True, text=True,
                          timeout=600, check=False)
    if check and done.returncode != 0:
        raise SystemExit(f"arena {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    return done


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, headers: dict | None = None) -> tuple[int, dict, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read().decode("utf-8", "replace")


def chunked_flood(port: int, headers: dict, limit: int = 256 << 20, seconds: float = 10.0) -> tuple[int, int, str]:
    """Send a chunked POST /submit with ``headers`` until the server answers and closes (or the limits);
    (bytes of body sent, bytes the server's kernel acknowledged, the status line it answered)."""
    sock = socket.create_connection(("127.0.0.1", port))
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    sock.sendall(f"POST /submit HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                 f"Content-Type: multipart/form-data; boundary=b0undary\r\n{head}\r\n".encode())
    part = b'--b0undary\r\nContent-Disposition: form-data; name="wheel"; filename="a.whl"\r\n\r\n'
    sock.sendall(b"%x\r\n%s\r\n" % (len(part), part))
    chunk = b"%x\r\n%s\r\n" % (1 << 16, b"\0" * (1 << 16))
    sent, answer, end = 0, b"", time.monotonic() + seconds
    sock.settimeout(0.0)
    try:
        while sent < limit and time.monotonic() < end:
            try:
                answer += sock.recv(4096)
                if answer == b"" or b"\r\n" in answer:
                    break
            except BlockingIOError:
                pass
            sock.settimeout(1.0)
            sock.sendall(chunk)
            sock.settimeout(0.0)
            sent += 1 << 16
    except OSError:
        pass  # the server cut the connection
    sock.settimeout(2.0)
    try:
        answer += sock.recv(4096)
    except OSError:
        pass
    taken = acked(sock)
    sock.close()
    return sent, taken, answer.split(b"\r\n", 1)[0].decode("latin-1") or "(no answer)"


def zip_bomb(tmp: Path, name: str) -> Path:
    """A valid wheel of the bot ``name`` plus one member of 300 MiB of zeros."""
    wheel = build_wheel(bot_folder(tmp, name), tmp / f"{name}-wheel")
    bomb = tmp / wheel.name
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        record = None
        for item in src.infolist():
            if item.filename.endswith("RECORD"):
                record = item
                continue
            out.writestr(item, src.read(item))
        with out.open(f"{name.replace('-', '_')}/zeros.bin", "w", force_zip64=True) as f:
            block = b"\0" * (1 << 20)
            for _ in range(300):
                f.write(block)
        out.writestr(record, src.read(record) + f"{name.replace('-', '_')}/zeros.bin,,\n".encode())
    return bomb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", type=Path, help="make the ladder here and keep it")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="web-attacks-"))
    folder = args.keep or tmp / "ladder"
    try:
        run_attacks(tmp, folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_attacks(tmp: Path, folder: Path) -> None:
    arena("ladder", "create", str(folder), "--table-sizes", "3", "--house", "random,low,high")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arena.cli.app", "ladder", "serve", str(folder), "--port",
                               str(port)], env=ENV, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    try:
        first = server.stderr.readline()
        shared = first.rsplit("submission token: ", 1)[1].strip() if "submission token: " in first else ""
        tokens = {who: submitter_token(folder, who) or shared for who in ("alice", "bob")}
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                get(base + "/api/table")
                break
            except OSError:
                time.sleep(0.1)
        wheel = build_wheel(hostile_folder(tmp, "hostile"), tmp / "hostile-wheel")
        print(f"hostile bot submitted by alice: {web_submit(base, tokens['alice'], wheel)}")
        arena("ladder", "run", str(folder), "--games", "12", "-j", "1", "-q")
        pages(base, folder)
        uploads(base, port, tokens, tmp, folder, server.pid)
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(20)


def submitter_token(folder: Path, who: str) -> str:
    """A token of the submitter ``who`` (`arena ladder submitter add`); "" where there are no submitters."""
    said = arena("ladder", "submitter", "add", str(folder), who, check=False)
    return said.stdout.strip().rsplit(" ", 1)[-1] if said.returncode == 0 else ""


def web_submit(base: str, token: str, wheel: Path) -> str:
    """POST a wheel to /submit as the ladder takes it (a multipart form with the token in it, on a ladder
    whose form says so; else the wheel as the body and the token in the Authorization header)."""
    _, _, form = get(base + "/submit")
    data = wheel.read_bytes()
    if 'enctype="multipart/form-data"' in form:
        boundary = "b0undary"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"token\"\r\n\r\n{token}\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"wheel\"; filename=\"{wheel.name}\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    else:
        body, headers = data, {"Authorization": f"Bearer {token}", "Content-Type": "application/octet-stream",
                               "X-Wheel-Name": wheel.name}
    request = urllib.request.Request(base + "/submit", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=600) as r:
            text = r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        text = e.read().decode("utf-8", "replace")
    found = re.search(r'id="message"[^>]*>(.*?)</', text, re.S)
    return html.unescape(found.group(1) if found else text[:200]).strip()


def pages(base: str, folder: Path) -> None:
    name = next((line.split()[0] for line in arena("ladder", "entries", str(folder)).stdout.splitlines()
                 if line.startswith("hostile")), "hostile-v1")
    games = ["/", f"/bot/{name}", "/games", f"/games?player={name}", "/game/0", "/report", "/submit"]
    for path in games:
        status, headers, body = get(base + path)
        raw = [r for r in RAW if r in body]
        missing = [h for h in HEADERS if h not in headers]
        shown = str(folder.resolve()) in body or str(folder) in body
        print(f"GET {path}: {status}, {len(body):,} bytes; payload raw: {', '.join(raw) or 'none'}; "
              f"headers missing: {', '.join(missing) or 'none'}; ladder folder shown: {'yes' if shown else 'no'}")
    for path in ("/bot/" + urllib.parse.quote("<svg onload=alert(1)>"), "/game/" + "9" * 30,
                 "/games?player=" + urllib.parse.quote(PAYLOAD)):
        status, headers, body = get(base + path)
        raw = [r for r in RAW if r in body]
        print(f"GET {urllib.parse.unquote(path)[:60]}: {status}; payload raw: {', '.join(raw) or 'none'}; "
              f"answer {body[:80]!r}")


def written(pid: int) -> int:
    """The bytes process ``pid`` has written (/proc/PID/io wchar: its files, the upload's spool among them)."""
    with open(f"/proc/{pid}/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("wchar:"))


def acked(sock: socket.socket) -> int:
    """The bytes the server's kernel acknowledged on ``sock`` (TCP_INFO's tcpi_bytes_acked): what the server
    read of them, plus at most its socket's receive buffer. (/proc/PID/io's rchar cannot tell: asyncio reads
    sockets with recv(2), which it does not count.)"""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return int.from_bytes(info[120:128], sys.byteorder) if len(info) >= 128 else 0


def uploads(base: str, port: int, tokens: dict, tmp: Path, folder: Path, server: int) -> None:
    for label, headers in (("no token", {}), ("a wrong token", {"Authorization": "Bearer wrong"})):
        before = written(server)
        sent, taken, answer = chunked_flood(port, headers)
        time.sleep(0.5)
        print(f"chunked POST /submit with {label}: {sent / (1 << 20):.1f} MiB sent before it ended, "
              f"{taken / (1 << 20):.2f} MiB taken by the server's kernel, {(written(server) - before) >> 10} KiB "
              f"written by the server; answer {answer!r}")
    bomb = zip_bomb(tmp, "zipbomb")
    said = arena("ladder", "submit", str(folder), str(bomb), check=False)
    unpacked = sum(f.stat().st_size for f in (folder / "plugins").rglob("zeros.bin"))
    print(f"zip bomb ({bomb.stat().st_size / 1024:.0f} KB, 300 MiB inside) by `arena ladder submit`: exit "
          f"{said.returncode}, {(said.stdout.strip() or said.stderr.strip())[-160:]!r}; "
          f"{unpacked / (1 << 20):.0f} MiB unpacked")
    other = build_wheel(bot_folder(tmp / "other", "hostile", strategy="max"), tmp / "other-wheel")
    renamed = tmp / other.name.replace("hostile", "thief", 1)
    with zipfile.ZipFile(other) as src, zipfile.ZipFile(renamed, "w") as out:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith("METADATA"):
                data = data.replace(b"Name: hostile", b"Name: thief")
            out.writestr(item.filename.replace("hostile-", "thief-", 1), data)
    print(f"bob posts another distribution ('thief') with alice's plugin name 'hostile': "
          f"{web_submit(base, tokens['bob'], renamed)}")


if __name__ == "__main__":
    main()
