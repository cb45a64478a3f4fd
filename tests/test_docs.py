"""Every `arena ...` command in a code block of README.md or docs/*.md runs as shown.

Each distinct command (found in indented or fenced code blocks, after an
optional ``$ ``, ``.venv/bin/`` or ``/usr/bin/time -v``) runs once through the
console script's ``main`` in a fresh process (forked from an interpreter that
imported the command line once: :mod:`support.zygote`), in a workspace folder that
holds links to the checkout's ``tournaments/`` and ``examples/`` (as the docs' commands run in
a checkout) and its own ``HOME``; it must exit 0 without a traceback. Bounded:

- ``[--option value]`` in a synopsis is optional and left out;
- :data:`REDUCED` lists how a long command is cut down (fewer deals, samples
  or games; the flags it appends win over a file's keys), and the sampler
  plays out fewer worlds a decision (:data:`SAMPLER`: the same code, less of
  it);
- :data:`SETUP` lists what a command needs first (a finished event, the
  scaffolded bot installed), made once per workspace; an `arena compare A B`
  command starts its own comparison (its folder from an earlier command of
  the same players is removed first);
- :data:`NOT_RUN` lists, with the reason, the commands that need what a test
  cannot have (a Dask cluster). Every command is run or listed there: a new
  command in the docs is covered by this test as soon as it is written.

The commands fall into units (:func:`unit_of`: the setups they share): each
unit has its own workspace and is one xdist group, so the workers share
the units out.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from arena.plugins.registry import DISABLE_ENV
from support.install import pip_install
from support.zygote import Zygote

pytestmark = pytest.mark.long

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

NOT_RUN = {
    "arena compare 'learned(weights=runs/distill/weights-6000.npz)' learned --games 6400 --jobs 2 -q":
        "needs the weights of docs/training.md's distillation run, which takes an hour (tests/cli/test_cli.py: a "
        "weights file not there is one error line)",
    "arena tournament run tournaments/quick.toml --backend dask --scheduler tcp://10.0.0.5:8786":
        "needs a Dask scheduler at 10.0.0.5 (tests/tournament/test_dask.py runs the backend on a local cluster)",
    "arena tournament run cluster-demo.toml":
        "the worked example's file needs its Dask scheduler and workers running (tests/tournament/test_dask.py)",
    "arena tournament status results/cluster-demo": "its folder comes from the Dask worked example above",
    "arena tournament resume results/cluster-demo": "its folder comes from the Dask worked example above",
    "arena ladder serve ladders/club --port 8765":
        "serves until stopped (tests/ladder/test_ladder_web.py runs it and drives it in Chromium)",
    'arena ladder serve ladders/club --port 8765 --title "Club ladder"':
        "serves until stopped (tests/ladder/test_ladder_web_hostile.py runs it and attacks it)",
    "arena ladder serve ladders/club --port 8765 --proxy 127.0.0.1":
        "serves until stopped, behind a reverse proxy the test does not have",
    'arena play --rules getaway --seats "program:bots/my-bot,random,low,heuristic" --seed 1':
        "docs/protocol.md's own bot folder (tests/sandbox/test_program_bots.py seats program bots)",
    'arena check-bot "program:bots/my-bot"':
        "docs/protocol.md's own bot folder (tests/plugins/test_checkbot_program.py checks program bots)",
}
SAMPLER = "sampler(worlds=2,cap_ms=50)"
"""The sampler as the docs' commands run it: 2 worlds a decision, not 120, and its exact solver given
30 ms a two-player decision, not 300 (its playouts and solver still run at every decision; a Getaway
endgame the solver cannot finish took the whole 300 ms)."""


def _players_of(event: str) -> str:
    """A ready event's players, the sampler as :data:`SAMPLER`."""
    players = tomllib.loads((ROOT / "tournaments" / f"{event}.toml").read_text(encoding="utf-8"))["players"]
    return ",".join(SAMPLER if p == "sampler" else p for p in players)


REDUCED = [
    # (pattern matched against the command, what is done to it)
    (r"tournaments/ladder\.toml", ("append", ["--budget", "4", "--deals", "1",  # 4 games, not 4,000
                                             "--players", _players_of("ladder")])),
    (r"^arena tournament run champions-shootout", ("append", ["--deals", "1"])),  # 4 games
    (r"--deals \S+\.jsonl", ("append", [])),  # a deal book: as many deals as the (cut-down) book has
    (r"^arena tournament run ", ("append", ["--deals", "2"])),  # quick: 32 games; replay 17 needs 18
    (r"^arena compare (?!--resume)", ("sub_or_append", r"--games \d+", "--games 8")),  # one deal's 8 games
    (r"--games \d+", ("sub", "--games 1")),  # shootout-share: 1 game, not 2,000
    (r"^arena research shared-suits", ("sub_or_append", r"--samples \d+", "--samples 5")),
    (r"^arena research shootout$", ("append", ["--ranks", "2"])),  # the 2-rank pack, not 792,450 positions
    (r"^arena bench engine", ("append", ["--games", "20", "--repeats", "1"])),
    (r"^arena check-bot my-bot", ("append", ["--games", "1", "--rules", "getaway,bhabho,donkey",
                                             "--table-sizes", "3"])),
]
SETUP = [
    # (pattern, what the command needs first)
    (r"results/quick\b", "quick"),
    (r"results/match\b", "match"),
    (r"results/ladder\b", "ladder"),
    (r"results/champions-shootout\b", "champions-shootout"),
    (r"^arena (?!new-bot).*\bmy-bot\b", "my-bot"),
    (r"\bcareful\b", "careful"),
    (r"^arena compare new old", "new-old"),  # the docs' new and old: two scaffolded bots of those names
    (r"results/compare-new-old\b", "compare-new-old"),
    (r"\bquick-deals\.jsonl", "quick"),
    (r"\bquick-deals\.jsonl", "quick-deals"),  # the deal book exported from it
    (r"^arena ladder (?!create).*ladders/club\b", "club"),
    (r"^arena ladder .*ladders/club.*\bmy-bot-v1\b", "club-bot"),
]
UNITS = {"quick": "quick", "quick-deals": "quick", "match": "match", "ladder": "ladder",
         "champions-shootout": "research", "my-bot": "bots", "careful": "bots", "club": "bots", "club-bot": "bots",
         "new-old": "compare", "compare-new-old": "compare"}
"""The unit of the commands that need a setup: the setups one workspace makes."""
EVENTS = {
    "quick": "arena tournament run tournaments/quick.toml",
    "match": "arena tournament run tournaments/match.toml",
    "ladder": "arena tournament run tournaments/ladder.toml",
    # only `research endings` reads it, and any players' games do: the built-ins' 4 games take a second
    "champions-shootout": "arena tournament run champions-shootout --players heuristic,low,high,random",
    "compare-new-old": "arena compare new old",
    "quick-deals": "arena export results/quick --deals -o quick-deals.jsonl",
    "club": "arena ladder create ladders/club --rules getaway --table-sizes 3,4 --house random,low,high,heuristic",
}
"""The events a SETUP runs (cut down as :data:`REDUCED` says)."""


def _code_lines(text: str):
    """(line number, line) of every line in a fenced or indented code block."""
    fenced, previous_blank, indented = False, True, False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            yield number, line
        elif line.startswith("    ") and (indented or previous_blank):
            indented = True
            yield number, line
        elif line.strip():
            indented = False
        previous_blank = not line.strip()


_COMMAND = re.compile(r"(?:^|&& )(?:\.venv/bin/|/usr/bin/time -v )?(arena (?:[^#`]|(?<=\S)#)*)")
"""An `arena` command up to a comment (a ``#`` after a space: ``random#2`` is an alias) or a backtick."""


def documented_commands() -> dict[str, list[str]]:
    """Every distinct `arena` command of the docs' code blocks -> where it is written ("file:line")."""
    found: dict[str, list[str]] = {}
    for path in DOCS:
        for number, line in _code_lines(path.read_text(encoding="utf-8")):
            text = re.sub(r"^\$ ", "", line.strip())
            match = _COMMAND.search(text)
            if match and not text.startswith("#"):
                command = re.sub(r"\s+", " ", match.group(1)).strip()
                found.setdefault(command, []).append(f"{path.relative_to(ROOT)}:{number}")
    return found


COMMANDS = documented_commands()


def test_the_docs_have_commands_and_the_lists_name_only_documented_ones():
    """The extractor finds the README's commands; NOT_RUN names no command the docs lost."""
    assert "arena players" in COMMANDS and "arena tournament run tournaments/quick.toml" in COMMANDS
    assert len(COMMANDS) > 30
    assert sorted(set(NOT_RUN) - set(COMMANDS)) == []


def reduced(command: str) -> str:
    """The command as the test runs it: synopsis options left out, long runs cut down (:data:`REDUCED`),
    the sampler as :data:`SAMPLER`."""
    command = re.sub(r"\s*\[[^\]]*\]", "", command)
    command = re.sub(r"(?<![-\w])sampler(?![-\w(#])", SAMPLER, command)
    for pattern, (how, *what) in REDUCED:
        if not re.search(pattern, command):
            continue
        if how == "append":
            return f"{command} {shlex.join(what[0])}"
        if how == "sub":
            return re.sub(pattern, what[0], command)
        old, new = what
        return re.sub(old, new, command) if re.search(old, command) else f"{command} {new}"
    return command


def needs(command: str) -> list[str]:
    """The setups a command needs (:data:`SETUP`), in order."""
    return [need for pattern, need in SETUP if re.search(pattern, command)]


def unit_of(command: str) -> str:
    """The unit a command runs in: that of the event it runs or of its setups (:data:`UNITS`), else
    research, bots (new-bot) or plain."""
    for need in [*(n for n, event in EVENTS.items() if command.startswith(event)), *needs(command)]:
        return UNITS[need]
    if command.startswith("arena research "):
        return "research"
    if command.startswith("arena new-bot my-bot"):
        return "bots"
    return "plain"


class Workspace:
    """A folder to run the docs' commands in, with its HOME, a site folder for installed bots, and
    the setups already made."""

    def __init__(self, root: Path, zygote: Zygote) -> None:
        self.zygote = zygote
        self.root, self.home, self.site, self.clean = root / "work", root / "home", root / "site", root / "none"
        for folder in (self.root, self.home, self.site, self.clean):
            folder.mkdir()
        (self.root / "tournaments").symlink_to(ROOT / "tournaments")
        (self.root / "examples").symlink_to(ROOT / "examples")  # a bot in one file: examples/one_file_bot.py
        self.made: set[str] = set()

    def run(self, command: str, site: Path | None = None) -> subprocess.CompletedProcess:
        """`command` (an `arena ...` line, maybe with ``> FILE``) in the workspace; its completed process."""
        words = shlex.split(command.replace("~/", f"{self.home}/"))
        stdout = None
        if ">" in words:
            at = words.index(">")
            words, stdout = words[:at], self.root / words[at + 1]
        env = {k: v for k, v in os.environ.items() if k not in (DISABLE_ENV, "COLUMNS")}
        env["HOME"] = str(self.home)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site or self.site), env.get("PYTHONPATH")]))
        done = self.zygote.run(words[1:], cwd=self.root, env=env, site=site or self.site, timeout=600)
        if stdout is not None:
            stdout.write_text(done.stdout)
        return done

    def ensure(self, need: str) -> None:
        """Make what a command needs, once."""
        if need in self.made:
            return
        if need in EVENTS and need != "compare-new-old" and (self.root / "results" / need).exists():
            self.made.add(need)  # the docs' own command ran the event
            return
        if need == "compare-new-old":
            self.ensure("new-old")
            if (self.root / "results" / need).exists():  # an earlier `arena compare new old ...` made it
                return
        if need == "club" and (self.root / "ladders" / "club").exists():  # the docs' own create made it
            self.made.add(need)
            return
        if need == "club-bot":  # my-bot submitted to the ladder (unless the docs' own submit did it)
            self.ensure("club")
            self.ensure("my-bot")
            if not (self.root / "ladders" / "club" / "plugins" / "my-bot-v1").exists():
                _check(self.run("arena ladder submit ladders/club ~/bots/my-bot"), "submit my-bot")
            self.made.add(need)
            return
        if need in EVENTS:
            _check(self.run(reduced(EVENTS[need])), EVENTS[need])
        elif need == "my-bot":
            self._install("my-bot", None)
        elif need == "new-old":
            self._install("new", None)
            self._install("old", None)
        elif need == "careful":
            self._install("careful-bot", _doc_python("docs/writing-a-bot.md", '"""The careful bot'))
        self.made.add(need)

    def _install(self, name: str, module_text: str | None) -> None:
        package = self.home / "bots" / name
        if not package.exists():
            _check(self.run(f"arena new-bot {name} --dir ~/bots", site=self.clean), f"new-bot {name}")
        if module_text is not None:
            (package / name.replace("-", "_") / "__init__.py").write_text(module_text)
        pip_install(package, self.site)  # not editable: worker processes, which read no .pth file, import it too


def _compare_name(command: str) -> str:
    """The results folder name of an `arena compare A B ...` command (``--name``, else compare-A-B)."""
    words = shlex.split(command)
    if "--name" in words:
        return words[words.index("--name") + 1]
    a, b = [w for w in words[2:] if not w.startswith("-")][:2]
    return f"compare-{a}-{b}"


def _doc_python(doc: str, opening: str) -> str:
    """The fenced python block of ``doc`` that starts with ``opening``."""
    for block in re.findall(r"```python\n(.*?)```", (ROOT / doc).read_text(encoding="utf-8"), re.S):
        if block.startswith(opening):
            return block
    raise AssertionError(f"{doc} has no python block starting {opening!r}")


def _check(done: subprocess.CompletedProcess, what: str) -> None:
    assert "Traceback" not in done.stderr, f"{what}:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, f"{what}: exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def test_every_setup_has_a_unit():
    assert sorted({need for _, need in SETUP}) == sorted(UNITS)


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory, zygote):
    """``workspaces(unit)``: the unit's Workspace, made for its first command; the worker's zygote serves
    them all."""
    made: dict[str, Workspace] = {}

    def get(unit: str) -> Workspace:
        if unit not in made:
            made[unit] = Workspace(tmp_path_factory.mktemp(f"docs-{unit}"), zygote)
        return made[unit]
    return get


@pytest.mark.parametrize("command", [
    pytest.param(c, id=COMMANDS[c][0], marks=pytest.mark.xdist_group(f"docs-{unit_of(c)}"))
    for c in COMMANDS if c not in NOT_RUN])
def test_documented_command_runs(workspaces, command):
    """The command exits 0 with no traceback (cut down as REDUCED says, after its SETUP, in its unit's workspace)."""
    workspace = workspaces(unit_of(command))
    if command.startswith("arena new-bot my-bot"):
        shutil.rmtree(workspace.home / "bots" / "my-bot", ignore_errors=True)
        _check(workspace.run(command, site=workspace.clean), command)  # before my-bot is installed
        assert (workspace.home / "bots" / "my-bot" / "pyproject.toml").is_file()
        return
    for need in needs(command):
        workspace.ensure(need)
    if command.startswith("arena compare ") and "--resume" not in command:
        shutil.rmtree(workspace.root / "results" / _compare_name(command), ignore_errors=True)  # its own comparison
    _check(workspace.run(reduced(command)), f"{command} (from {', '.join(COMMANDS[command])})")


# ------------------------------------------------------------- the README's virtual environment
def _setup_lines() -> list[str]:
    """The README's code lines that make the virtual environment (``python3 -m venv .venv``)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [line.strip() for _, line in _code_lines(text) if "-m venv .venv" in line]


def test_the_readme_activates_its_venv_before_any_bare_command():
    """Each setup line activates .venv in the reader's shell before its first bare pip, python or arena,
    and no code line of the README before the first setup line uses a bare one."""
    lines = _setup_lines()
    assert len(lines) == 2
    for line in lines:
        steps = [s.strip() for s in line.split("&&")]
        assert ". .venv/bin/activate" in steps, line
        activated = steps.index(". .venv/bin/activate")
        bare = [i for i, s in enumerate(steps) if re.match(r"(pip|python|arena)\b", s)]
        assert bare and min(bare) > activated, line
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    before = [line for _, line in _code_lines(text.split(lines[0])[0])]
    assert not [line for line in before if re.match(r"\s*(pip|python|arena)\b", line)]


def test_the_readme_activation_makes_bare_arena_and_pip_the_venvs(tmp_path):
    """The activation step, run as written by a shell whose PATH has no venv, makes `arena players` run
    and `pip` and `arena` resolve into the virtual environment (here the suite's own, linked as .venv)."""
    venv = Path(sys.prefix)
    if venv == Path(sys.base_prefix) or not (venv / "bin" / "activate").is_file():
        pytest.skip("the suite does not run in a virtual environment")
    (tmp_path / ".venv").symlink_to(venv)
    activate = next(s.strip() for s in _setup_lines()[0].split("&&") if "activate" in s)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and Path(p).resolve() != (venv / "bin").resolve())
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", DISABLE_ENV, "COLUMNS")}
    env.update(PATH=path, HOME=str(tmp_path))
    script = f"{activate} && command -v pip && command -v arena && arena players"
    done = subprocess.run(["bash", "-c", script], check=False, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    pip, arena, *table = done.stdout.splitlines()
    assert Path(pip).resolve() == (venv / "bin" / "pip").resolve()
    assert Path(arena).resolve() == (venv / "bin" / "arena").resolve()
    assert any(row.split()[:1] == ["heuristic"] for row in table)
