"""Program bots by name: ``program:PATH [ARGS]``, a folder's ``bot.toml``, a package's ``arena.programs`` entry point.

A program bot (docs/protocol.md) is any executable speaking JSON lines. This
module turns its seat name into a :class:`PlayerSpec` with no factory and a
:class:`PluginSource` whose ``program`` is the command line and ``path`` the
folder (:class:`arena.sandbox.program_client.ProgramClient` runs it from a
copy). Nothing of the bot runs here: ``bot.toml`` is read as data, the code
hash is a hash of the folder's files.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import importlib.util
import os
import shlex
import tomllib

from arena.bots.errors import PluginError
from arena.bots.player_spec import PlayerSpec, PluginSource
from arena.bots.safetext import printable

PREFIX = "program:"
ENTRY_POINT_GROUP = "arena.programs"
"""The entry-point group of a pip package that ships a program: name -> the package holding ``bot.toml``."""
KEYS = {"name": str, "command": list, "build": list, "options": dict, "description": str, "version": str}
MAX_HASHED = 256 << 20
MAX_BOT_TOML = 64 << 10
"""The largest bot.toml read, in bytes."""


def program_seat(name: str) -> tuple[str, list[str]] | None:
    """``program:PATH [ARGS]`` -> (PATH, ARGS); None for any other name. PluginError for a bad one."""
    if not name.startswith(PREFIX):
        return None
    try:
        words = shlex.split(name[len(PREFIX):], posix=True)
    except ValueError as exc:
        raise PluginError(f"player {name!r}: expected program:PATH [ARGS] ({exc})") from None
    if not words:
        raise PluginError(f"player {name!r}: expected program:PATH [ARGS] (got no PATH)")
    return words[0], words[1:]


def program_player(name: str, base: str | None = None) -> PlayerSpec:
    """The spec of the seat ``program:PATH [ARGS]`` (PATH relative to ``base``, default the current folder)."""
    seat = program_seat(name)
    if seat is None:
        raise PluginError(f"player {name!r}: expected program:PATH [ARGS] (not a program seat)")
    path, args = seat
    path = os.path.abspath(os.path.join(base or os.getcwd(), os.path.expanduser(path)))
    if os.path.isfile(path):
        if not os.access(path, os.X_OK):
            raise PluginError(f"player {name!r}: expected an executable file or a folder with bot.toml "
                              f"(got {path}, a file without execute permission)")
        folder, table = os.path.dirname(path), {"command": ["./" + os.path.basename(path)]}
    elif os.path.isdir(path):
        folder, table = path, read_bot_toml(name, path)
    else:
        raise PluginError(f"player {name!r}: expected an executable file or a folder with bot.toml "
                          f"(got {path}, which does not exist)")
    return _spec(name, folder, table, args, plugin="program")


def package_player(name: str) -> PlayerSpec | None:
    """The spec of a program a pip package ships (entry point ``name`` in :data:`ENTRY_POINT_GROUP`), or None."""
    points = list(metadata.entry_points(group=ENTRY_POINT_GROUP, name=name))
    if not points:
        return None
    module = points[0].value.split(":", 1)[0].strip()
    try:
        spec = importlib.util.find_spec(module.split(".", 1)[0])   # a top-level name: found, never imported
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    if not folders:
        raise PluginError(f"player {name!r}: entry point {points[0].value!r} of group {ENTRY_POINT_GROUP} "
                          f"must name an installed package holding bot.toml (found none)")
    dist = getattr(points[0], "dist", None)
    return _spec(name, folders[0], read_bot_toml(name, folders[0]), [],
                 plugin=dist.name if dist is not None else module, version=dist.version if dist is not None else "")


def folder_player(name: str, folder: str) -> PlayerSpec:
    """The spec of the program bot in ``folder`` (its bot.toml), registered as ``name`` (a ladder's entry)."""
    table = read_bot_toml(name, folder)
    return _spec(name, folder, table, [], plugin=printable(str(table.get("name", name)))[:40])


def program_names() -> list[str]:
    """The players the installed packages' :data:`ENTRY_POINT_GROUP` entry points offer."""
    return sorted({ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)})


def read_bot_toml(name: str, folder: str) -> dict:
    """A folder's ``bot.toml``, checked (PluginError: one line saying what was expected and what came)."""
    where = os.path.join(folder, "bot.toml")
    try:
        with open(where, "rb") as f:
            data = f.read(MAX_BOT_TOML + 1)
    except FileNotFoundError:
        raise PluginError(f"player {name!r}: expected a bot.toml in {folder} (got none)") from None
    except OSError as exc:
        raise PluginError(f"player {name!r}: {where}: {exc}") from None
    return checked_bot_toml(name, where, data)


def checked_bot_toml(name: str, where: str, data: bytes) -> dict:
    """The bot.toml ``data`` (read from ``where``) parsed and checked, or PluginError saying what is wrong."""
    if len(data) > MAX_BOT_TOML:
        raise PluginError(f"player {name!r}: {where}: expected at most {MAX_BOT_TOML >> 10} KiB (got more)")
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PluginError(f"player {name!r}: {where}: {exc}") from None
    for key, value in table.items():
        if key not in KEYS:
            raise PluginError(f"player {name!r}: {where}: unknown key {key!r} (known: {', '.join(KEYS)})")
        if not isinstance(value, KEYS[key]) or (KEYS[key] is list and not all(isinstance(w, str) for w in value)):
            raise PluginError(f"player {name!r}: {where}: key {key!r}: expected a {KEYS[key].__name__}"
                              f"{' of strings' if KEYS[key] is list else ''} (got {value!r:.60})")
    if not table.get("command"):
        raise PluginError(f"player {name!r}: {where}: expected key 'command', a list of strings such as "
                          f"[\"./my-bot\"] (got none)")
    for key, value in table.get("options", {}).items():
        if not isinstance(value, (str, int, float, bool)):
            raise PluginError(f"player {name!r}: {where}: option {key!r}: expected a string, number or boolean "
                              f"(got {value!r:.60})")
    return table


def _spec(name: str, folder: str, table: dict, args: list[str], plugin: str, version: str = "") -> PlayerSpec:
    argv = [*table["command"], *args]
    if "/" in argv[0] and not os.path.isabs(argv[0]):
        target = os.path.normpath(os.path.join(folder, argv[0]))
        if not target.startswith(os.path.realpath(folder) + os.sep) and not target.startswith(folder + os.sep):
            raise PluginError(f"player {name!r}: command {argv[0]!r} must be inside the bot's folder {folder}")
        if not os.access(target, os.X_OK):
            raise PluginError(f"player {name!r}: command {argv[0]!r}: expected an executable file in {folder} "
                              f"(got {'a file without execute permission' if os.path.exists(target) else 'none'}; "
                              f"build it first)")
    own = printable(str(table.get("name", os.path.basename(folder))))[:40]
    source = PluginSource(entry_point="", path=folder, code_hash=folder_hash(folder), program=tuple(argv),
                          program_options=tuple(sorted(table.get("options", {}).items())))
    description = printable(str(table.get("description", f"program bot {own}")))[:300]
    return PlayerSpec(name=name, factory=None, description=description,
                      version=printable(str(table.get("version", version)))[:40], plugin=plugin, source=source)


def folder_hash(folder: str) -> str:
    """A hash of a folder's file names and contents (links as their targets' text), in a stable order."""
    h, read = hashlib.sha256(), 0
    for here, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(here, name)
            h.update(os.path.relpath(path, folder).encode() + b"\0")
            if os.path.islink(path):
                h.update(os.readlink(path).encode() + b"\0")
                continue
            try:
                with open(path, "rb") as f:
                    while read < MAX_HASHED and (chunk := f.read(1 << 20)):
                        read += len(chunk)
                        h.update(chunk)
            except OSError:
                h.update(b"?")
    return h.hexdigest()[:16]
