"""Whether an event is sealed: its deals and bot seeds keyed with a secret of its folder, or open.

An **open** event is keyed with :data:`arena.game.seeds.OPEN`, a key everyone
knows, so its file's seed alone fixes every game: the same file gives the same
games in a fresh folder and on any machine, and the docs can show its figures.
A **sealed** event is keyed with a fresh random secret kept in its folder, so
that a bot author who knows the seed (the ready files' seeds are public) can
neither compute the deals nor search bot seeds for its own.

The default serves both: open while every seated player is built-in (no one
at the table could use the seed), sealed as soon as a third-party bot sits
there. The organiser may seal any event (``sealed = true``, ``--sealed``); an
event with a third-party bot cannot be opened (``sealed = false`` is refused
there). ``--secret-from FOLDER`` plays that folder's games again, open or
sealed. Ladders have their own folder secret, always (arena/ladder).
"""

from __future__ import annotations

from pathlib import Path

from arena.game.seeds import OPEN, SECRET_FILE, Secret, is_open, sealed_by_check
from arena.tournament.errors import ConfigError
from arena.tournament.spec import base_player


def third_party(registry, names) -> list[str]:
    """The seated players (``names``, aliases and options included) whose code is not built-in."""
    return [name for name in names if not registry.get(base_player(name)).trusted]


def event_secret(spec, third: list[str], given: Secret | None = None) -> Secret:
    """The key a new event of ``spec`` plays with: ``given`` (``--secret-from``), else a fresh secret when
    it is sealed, else :data:`OPEN`. ``third``: its third-party players. A contradiction is a ConfigError."""
    where = f"{spec.source}: key 'sealed'"
    if third and (spec.sealed is False or (given is not None and is_open(given))):
        why = "the secret given is an open event's" if spec.sealed is not False else "got false"
        raise ConfigError(f"{where}: an event with a third-party bot ({', '.join(third)}) is always sealed, "
                          f"since its author could know the seed; expected true or no key ({why})")
    if given is not None:
        if spec.sealed is not None and spec.sealed == is_open(given):
            what = "an open event's key" if is_open(given) else "a secret"
            raise ConfigError(f"{where}: --secret-from gives {what}, but the event says sealed = "
                              f"{str(spec.sealed).lower()}; expected the two to agree")
        return given
    return Secret.generate() if spec.sealed or third else OPEN


def sealed_line(folder: Path, check: str | None) -> str | None:
    """What `arena tournament status` says about the folder's seeds (None before its first run)."""
    sealed = sealed_by_check(check)
    if sealed is None:
        return None
    if sealed:
        return (f"  sealed: yes, deals and bot seeds keyed with {folder / SECRET_FILE} (another folder deals "
                f"other cards; --secret-from {folder} plays these games again)")
    return "  sealed: no, the seed alone fixes every deal and bot seed (the same games in any folder)"

