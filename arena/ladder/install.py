"""Putting a submitted bot into the ladder's own plugin area, without running any of its code.

A wheel is unpacked with PyPA's ``installer`` (a wheel is a zip: nothing of it
runs, no setup script exists) into ``DIR/plugins/<entry>/``; a bot folder (a
project such as ``arena new-bot`` makes) is read, never built: its
``pyproject.toml`` is parsed as data for the name, version and entry point, its
package folder copied, and a ``.dist-info`` written for it, so both look alike
to discovery (:mod:`arena.plugins.folders`). Nothing goes into the organiser's
environment. Each install is made under a temporary name and renamed into
place whole.

Both are held to the ladder's :class:`~arena.ladder.archive.ArchiveLimits`:
a wheel is measured from its central directory before anything is unpacked,
a folder's package walked (links refused, never followed) before anything is
copied, and every byte and file written is counted against the entry's disk
quota (:class:`~arena.ladder.archive.Quota`); past it, the install stops and
its partial folder is removed. No install starts on a disk without the quota
and a margin free.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
import zipfile
import zlib
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

from installer import install
from installer.destinations import SchemeDictionaryDestination
from installer.exceptions import InstallerError
from installer.sources import WheelFile

from arena.ladder.archive import (DEFAULT_LIMITS, MAX_UPLOAD, ArchiveLimits, Quota, check_free_space, check_wheel,
                                  check_zip, copy_file, scan_package)
from arena.ladder.errors import SubmissionError
from arena.ladder.package import DIST_INFO_MAX, Package
from arena.ladder.program_install import install_program, is_program, read_program
from arena.plugins.names import ENTRY_POINT_GROUP

__all__ = ["MAX_UPLOAD", "Package", "install_submission", "read_package"]


def read_package(path: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> Package:
    """The name, version and plugin of a wheel or a bot folder; :class:`SubmissionError` if it is neither, or
    if the wheel breaks ``limits`` (checked before any member is read)."""
    if not path.exists():
        raise SubmissionError(f"{path}: no such file or folder (expected a wheel (.whl), a bot folder, or a program "
                              f"bot's folder or .zip with bot.toml)")
    if is_program(path):
        return read_program(path, limits)
    if path.is_dir():
        return _folder_package(path)
    if path.suffix != ".whl" or not path.is_file():
        raise SubmissionError(f"{path}: expected a wheel (.whl), a bot folder with a pyproject.toml, or a program "
                              f"bot's folder or .zip with bot.toml")
    check_wheel(path, limits)
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            meta = next((n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")), None)
            points = next((n for n in names if n.count("/") == 1 and n.endswith(".dist-info/entry_points.txt")),
                          None)
            if meta is None:
                raise SubmissionError(f"{path} is not a wheel: it has no .dist-info/METADATA")
            headers = HeaderParser().parsestr(_dist_info(z, meta, path))
            plugin = _plugin_of(_dist_info(z, points, path) if points else "", path)
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
        raise SubmissionError(f"{path} is not a readable wheel ({exc})") from None
    return Package(headers.get("Name", ""), headers.get("Version", ""), plugin)


def _dist_info(z: zipfile.ZipFile, name: str, path: Path) -> str:
    """A metadata file of the wheel as text, refused past :data:`DIST_INFO_MAX` bytes."""
    with z.open(name) as f:
        data = f.read(DIST_INFO_MAX + 1)
    if len(data) > DIST_INFO_MAX:
        raise SubmissionError(f"refused: {path.name} member {name[:60]!r} is over {DIST_INFO_MAX >> 20} MiB; "
                              f"the ladder reads metadata files of at most that")
    return data.decode("utf-8", "replace")


def _plugin_of(entry_points: str, path: Path) -> str:
    """The one ``arena.plugins`` entry point's name in an entry_points.txt."""
    group, found = None, []
    for line in entry_points.splitlines():
        line = line.strip()
        if line.startswith("["):
            group = line.strip("[]").strip()
        elif "=" in line and group == ENTRY_POINT_GROUP:
            found.append(line.split("=", 1)[0].strip())
    if len(found) != 1:
        raise SubmissionError(f"{path} must declare exactly one entry point in the group {ENTRY_POINT_GROUP!r} "
                              f"(found {len(found)})")
    return found[0]


def _pyproject(folder: Path) -> dict:
    file = folder / "pyproject.toml"
    if file.is_symlink() or (file.is_file() and file.stat().st_size > DIST_INFO_MAX):
        raise SubmissionError(f"{folder}: its pyproject.toml must be a regular file of at most "
                              f"{DIST_INFO_MAX >> 20} MiB (a link is not followed)")
    try:
        return tomllib.loads(file.read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SubmissionError(f"{folder}: expected a bot folder with a readable pyproject.toml ({exc})") from None


def _folder_package(folder: Path) -> Package:
    project = _pyproject(folder).get("project", {})
    points = project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    if not project.get("name") or not project.get("version") or len(points) != 1:
        raise SubmissionError(f"{folder}/pyproject.toml: expected [project] name and version and exactly one "
                              f"entry point in [project.entry-points.{ENTRY_POINT_GROUP!r}] (got name "
                              f"{project.get('name')!r}, version {project.get('version')!r}, "
                              f"{len(points)} entry points)")
    return Package(project["name"], str(project["version"]), next(iter(points)))


def install_submission(path: Path, target: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> None:
    """Unpack the wheel or copy the bot folder at ``path`` into the new folder ``target``, under ``limits``:
    measured before anything is written, written under the disk quota, and nothing left behind if refused."""
    if is_program(path):
        install_program(path, target, limits)
        return
    check_free_space(target, limits)
    if not path.is_dir():
        check_wheel(path, limits)
    tmp = target.with_name(f".{target.name}.part-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    quota = Quota(f"{path.name}/" if path.is_dir() else path.name, limits)
    try:
        if path.is_dir():
            _copy_folder(path, tmp, quota)
        else:
            _unpack_wheel(path, tmp, quota)
        tmp.rename(target)
    except OSError as exc:
        raise SubmissionError(f"cannot install {path} into {target} ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class _QuotaDestination(SchemeDictionaryDestination):
    """installer's destination with every file it writes (members, scripts, RECORD) counted against a quota."""

    quota: Quota | None = None

    def write_to_fs(self, scheme, path, stream, is_executable):
        self.quota.file(path)
        return super().write_to_fs(scheme, path, _Counted(stream, self.quota, path), is_executable)


class _Counted:
    """A stream whose bytes are counted against the quota as they are read to be written."""

    __slots__ = ("stream", "quota", "name")

    def __init__(self, stream, quota: Quota, name: str) -> None:
        self.stream, self.quota, self.name = stream, quota, name

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.quota.wrote(len(data), self.name)
        return data


def _unpack_wheel(path: Path, target: Path, quota: Quota) -> None:
    scheme = {key: str(target) for key in ("purelib", "platlib")}
    scheme.update({key: str(target / "_data" / key) for key in ("headers", "scripts", "data")})
    destination = _QuotaDestination(scheme, interpreter=sys.executable, script_kind="posix", quota=quota)
    try:
        with zipfile.ZipFile(path) as z:
            check_zip(z, path.name, quota.limits)  # the very archive installed, measured again
            install(WheelFile(z), destination, additional_metadata={})
    except SubmissionError:
        raise
    except (ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error, InstallerError) as exc:
        raise SubmissionError(f"refused: {path.name} cannot be installed ({exc})") from None  # damaged or odd


def _copy_folder(folder: Path, target: Path, quota: Quota) -> None:
    """The package the entry point names, and a .dist-info describing it (no build step runs)."""
    data = _pyproject(folder)
    package = _folder_package(folder)
    value = data["project"]["entry-points"][ENTRY_POINT_GROUP][package.plugin]
    top = value.split(":", 1)[0].strip().split(".", 1)[0]
    source = next((p for p in (folder / top, folder / "src" / top, folder / f"{top}.py") if os.path.lexists(p)),
                  None) if top.isidentifier() else None
    if source is None:
        raise SubmissionError(f"{folder}: the entry point {value!r} names a module the folder does not have")
    for name in scan_package(source, folder, quota.limits):
        copy_file(source.parent / name, target / name, quota, name)
    info = target / f"{_normal(package.distribution)}-{package.version}.dist-info"
    info.mkdir()
    _write(info / "METADATA", f"Metadata-Version: 2.1\nName: {package.distribution}\n"
                              f"Version: {package.version}\n", quota)
    _write(info / "entry_points.txt", f"[{ENTRY_POINT_GROUP}]\n{package.plugin} = {value}\n", quota)
    files = [p.relative_to(target).as_posix() for p in sorted(target.rglob("*")) if p.is_file()]
    _write(info / "RECORD", "".join(f"{f},,\n" for f in [*files, f"{info.name}/RECORD"]), quota)


def _write(path: Path, text: str, quota: Quota) -> None:
    data = text.encode()
    quota.file(path.name)
    quota.wrote(len(data), path.name)
    path.write_bytes(data)


def _normal(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower())

