"""Putting a submitted bot into the ladder's own plugin area, without running any of its code.

A wheel is unpacked with PyPA's ``installer`` (a wheel is a zip: nothing of it
runs, no setup script exists) into ``DIR/plugins/<entry>/``; a bot folder (a
project such as ``arena new-bot`` makes) is read, never built: its
``pyproject.toml`` is parsed as data for the name, version and entry point, its
package folder copied, and a ``.dist-info`` written for it, so both look alike
to discovery (:mod:`arena.plugins.folders`). Nothing goes into the organiser's
environment. Each install is made under a temporary name and renamed into
place whole.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

from installer import install
from installer.destinations import SchemeDictionaryDestination
from installer.sources import WheelFile

from arena.ladder.errors import SubmissionError
from arena.ladder.names import entry_base  # re-exported: arena.ladder.submit imports it from here
from arena.plugins.names import ENTRY_POINT_GROUP

MAX_UPLOAD = 20 << 20
"""The largest wheel (or bot folder) a ladder takes, in bytes."""


@dataclass(frozen=True, slots=True)
class Package:
    """What a submission says it is, read as data: its distribution name and version, its plugin's name."""

    distribution: str
    version: str
    plugin: str


def read_package(path: Path) -> Package:
    """The name, version and plugin of a wheel or a bot folder; :class:`SubmissionError` if it is neither."""
    if path.is_dir():
        return _folder_package(path)
    if path.suffix != ".whl" or not path.is_file():
        raise SubmissionError(f"{path}: expected a wheel (.whl) or a bot folder with a pyproject.toml")
    if path.stat().st_size > MAX_UPLOAD:
        raise SubmissionError(f"{path} is {path.stat().st_size >> 20} MiB; a ladder takes at most "
                              f"{MAX_UPLOAD >> 20} MiB")
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            meta = next((n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")), None)
            points = next((n for n in names if n.count("/") == 1 and n.endswith(".dist-info/entry_points.txt")),
                          None)
            if meta is None:
                raise SubmissionError(f"{path} is not a wheel: it has no .dist-info/METADATA")
            headers = HeaderParser().parsestr(z.read(meta).decode("utf-8", "replace"))
            plugin = _plugin_of(z.read(points).decode("utf-8", "replace") if points else "", path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise SubmissionError(f"{path} is not a readable wheel ({exc})") from None
    return Package(headers.get("Name", ""), headers.get("Version", ""), plugin)


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
    try:
        return tomllib.loads((folder / "pyproject.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SubmissionError(f"{folder}: expected a bot folder with a readable pyproject.toml ({exc})") from None


def _folder_package(folder: Path) -> Package:
    project = _pyproject(folder).get("project", {})
    points = project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    if not project.get("name") or not project.get("version") or len(points) != 1:
        raise SubmissionError(f"{folder}/pyproject.toml: expected [project] name and version and exactly one "
                              f"entry point in [project.entry-points.{ENTRY_POINT_GROUP!r}] (got name "
                              f"{project.get('name')!r}, version {project.get('version')!r}, {len(points)} entry points)")
    return Package(project["name"], str(project["version"]), next(iter(points)))


def install_submission(path: Path, target: Path) -> None:
    """Unpack the wheel or copy the bot folder at ``path`` into the new folder ``target``."""
    tmp = target.with_name(f".{target.name}.part-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        if path.is_dir():
            _copy_folder(path, tmp)
        else:
            _unpack_wheel(path, tmp)
        tmp.rename(target)
    except OSError as exc:
        raise SubmissionError(f"cannot install {path} into {target} ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _unpack_wheel(path: Path, target: Path) -> None:
    scheme = {key: str(target) for key in ("purelib", "platlib")}
    scheme.update({key: str(target / "_data" / key) for key in ("headers", "scripts", "data")})
    destination = SchemeDictionaryDestination(scheme, interpreter=sys.executable, script_kind="posix")
    try:
        with WheelFile.open(path) as source:
            install(source, destination, additional_metadata={})
    except (ValueError, KeyError, zipfile.BadZipFile) as exc:  # installer's refusals: a damaged or odd wheel
        raise SubmissionError(f"{path} cannot be installed: {exc}") from None


def _copy_folder(folder: Path, target: Path) -> None:
    """The package the entry point names, and a .dist-info describing it (no build step runs)."""
    data = _pyproject(folder)
    package = _folder_package(folder)
    value = data["project"]["entry-points"][ENTRY_POINT_GROUP][package.plugin]
    top = value.split(":", 1)[0].strip().split(".", 1)[0]
    source = next((p for p in (folder / top, folder / "src" / top, folder / f"{top}.py") if p.exists()), None)
    if source is None or not top.isidentifier():
        raise SubmissionError(f"{folder}: the entry point {value!r} names a module the folder does not have")
    size = sum(f.stat().st_size for f in source.rglob("*") if f.is_file()) if source.is_dir() else source.stat().st_size
    if size > MAX_UPLOAD:
        raise SubmissionError(f"{folder}: its package is {size >> 20} MiB; a ladder takes at most {MAX_UPLOAD >> 20} MiB")
    if source.is_dir():
        shutil.copytree(source, target / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"), symlinks=False)
    else:
        shutil.copy(source, target / source.name)
    info = target / f"{_normal(package.distribution)}-{package.version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package.distribution}\n"
                                   f"Version: {package.version}\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{package.plugin} = {value}\n")
    files = [p.relative_to(target).as_posix() for p in sorted(target.rglob("*")) if p.is_file()]
    (info / "RECORD").write_text("".join(f"{f},,\n" for f in [*files, f"{info.name}/RECORD"]))


def _normal(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower())

