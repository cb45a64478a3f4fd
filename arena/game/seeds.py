"""Every seed the arena uses, derived in one place.

Two kinds of derivation, both blake2b (never Python's ``hash()``), so the same
inputs give the same seed on any machine:

- **Open** seeds (:func:`derive_seed`): a pure function of a seed the user
  chose and labels. The schedule uses them for deal seeds, seat circles and
  samples (:func:`schedule_deal_seed`, :func:`seating_seed`,
  :func:`sample_seed`); check-bot for its case seeds (:func:`check_case_seed`,
  :func:`check_repeat_seed`); :func:`numbered_seed` numbers the deals of
  benchmarks and research series. Anyone who knows the user's seed
  can compute them; no bot is ever given one.
- **Keyed** seeds, with a :class:`Secret` only the harness knows: every
  seed a bot receives (:func:`bot_seed`), the cards of every tournament deal
  (:func:`tournament_deal`), and the deal of a standalone game
  (``arena play --seed N``, check-bot: :func:`play_seeds`). A bot cannot
  search small seeds to find the deal: without the key its seed says nothing
  about the deal, and a standalone game's deal seed is not ``N``. The hands
  of a match (:func:`match_hand_seed`) are derived from its keyed deal seed,
  so they are as hidden as it is.

An event is **sealed** (keyed with a secret of its own) or **open**: keyed with
:data:`OPEN`, a key everyone knows, so its seed alone fixes every deal and bot
seed and the same file plays the same games in any folder on any machine.
Events among the built-in players are open unless the organiser seals them;
an event with a third-party bot is always sealed (its author could know the
seed): :mod:`arena.tournament.sealing` decides, and a standalone game follows
the same rule (:func:`arena.plugins.runner.play_one`). A sealed tournament's
secret lives in its results folder (:data:`SECRET_FILE`, mode 0600; an open
one's file holds :data:`OPEN`, so ``--secret-from`` takes either); sealed
standalone games use the per-user secret (:func:`user_secret`). A secret is
created with :func:`secrets.token_bytes` once and reused, so the same seed and
the same secret give the same games, and a resume the same bot seeds.
:func:`open_bot_seed` derives a bot's seed from the deal's seed alone: it is
the referee's default when a caller gives no bot seeds (games between trusted
in-process players: tests, benchmarks, research figures); ``arena play``,
check-bot and tournaments never use it.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.game.errors import SeedError

SECRET_BYTES = 32
SECRET_FILE = "secret"
"""The secret's file name, in a results folder and in the per-user data folder."""
USER_FOLDER = "bhabhi-arena"


# ---------------------------------------------------------------- hashing


def _plain(value: Any) -> Any:
    """JSON fallback for labels: a Rules-like object by its dict, else its repr."""
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else repr(value)


def canonical(value: Any) -> str:
    """Canonical text of a label (sorted keys, tuples as lists), for hashing."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_plain)


def _seed63(text: str, person: bytes, key: bytes = b"") -> int:
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8, key=key, person=person).digest()
    return int.from_bytes(digest, "big") >> 1  # fits a signed 64-bit SQLite integer


def derive_seed(seed: int, *labels: Any) -> int:
    """An open 63-bit seed from a user's seed and labels, stable everywhere.

    The canonical JSON text of ``[seed, *labels]`` is hashed with blake2b
    (8 bytes, personalised ``arena-seed``) and shifted to 63 bits. Labels are
    strings, numbers, or JSON-like values (tuples count as lists).
    """
    return _seed63(canonical([seed, *labels]), b"arena-seed")


def schedule_deal_seed(seed: int, rules: Any, size: int, drawn: Sequence[str], deal: int) -> int:
    """The open seed of deal ``deal`` of a tournament table: of the rule set as given, the
    table size and the players drawn from the pool (not a gauntlet's candidate, so every
    candidate meets the same field with the same deals)."""
    return derive_seed(seed, "deal", canonical(rules), size, *drawn, deal)


def seating_seed(deal_seed: int) -> int:
    """The seed of the order round the table for one deal (its rotations keep it)."""
    return derive_seed(deal_seed, "seating")


def sample_seed(seed: int, label: str) -> int:
    """The seed of the balanced sample of one cell of a schedule (its label, e.g. ``rr-0-4p``)."""
    return derive_seed(seed, "sample", label)


def check_case_seed(seed: int, preset: str, players: int, game: int) -> int:
    """The seed of check-bot's game ``game`` at a table of ``players`` under ``preset``."""
    return derive_seed(seed, "check-bot", preset, players, game)


def check_repeat_seed(seed: int, preset: str, game: int = 0) -> int:
    """The seed of check-bot's same-seed game ``game`` under ``preset`` (played twice; game 0's is
    the seed it always had)."""
    return derive_seed(seed, "check-bot", "repeat", preset, *((game,) if game else ()))


def numbered_seed(seed: int, number: int) -> int:
    """The open deal seed of game ``number`` of a numbered series (``arena bench engine``,
    ``arena check shootout-share``): ``seed * 1_000_003 + number``, as the published figures used."""
    return seed * 1_000_003 + number


# ---------------------------------------------------------------- the secret


@dataclass(frozen=True, slots=True)
class Secret:
    """The key of every seed a bot gets. Its repr never shows the key."""

    key: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.key, bytes) or not 16 <= len(self.key) <= 64:
            got = f"{len(self.key)} bytes" if isinstance(self.key, bytes) else type(self.key).__name__
            raise SeedError(f"a secret must be 16-64 bytes (got {got})")

    @classmethod
    def generate(cls) -> Secret:
        """A fresh random secret (:data:`SECRET_BYTES` bytes from :mod:`secrets`)."""
        return cls(secrets.token_bytes(SECRET_BYTES))

    @classmethod
    def from_hex(cls, text: str, source: str = "secret") -> Secret:
        """A secret from its hex text (as its file holds it)."""
        try:
            return cls(bytes.fromhex(text.strip()))
        except ValueError:
            raise SeedError(f"{source}: expected 32-128 hex digits (a secret written by the arena); got "
                            f"{len(text.strip())} characters that are not all hex digit pairs") from None

    def hex(self) -> str:
        return self.key.hex()

    def check(self) -> str:
        """A short keyed check value: tells secrets apart, reveals nothing of the key."""
        return hashlib.blake2b(b"arena-secret-check", digest_size=8, key=self.key).hexdigest()

    def __repr__(self) -> str:
        return f"Secret(check={self.check()})"


OPEN = Secret(hashlib.blake2b(b"arena: the key of open events, known to everyone", digest_size=32).digest())
"""The key of an open (unsealed) event: public, so the event's seed alone fixes its games."""


def is_open(secret: Secret) -> bool:
    """True for :data:`OPEN`: games keyed with it are fixed by their seed alone (not sealed)."""
    return secret == OPEN


def sealed_by_check(check: str | None) -> bool | None:
    """Whether the games of a store whose ``secret_check`` meta is ``check`` are sealed (None: no check kept)."""
    return None if check is None else check != OPEN.check()


def bot_seed(secret: Secret, deal_seed: int, rotation: int, seat: int, name: str) -> int:
    """The seed of the bot at ``seat`` in one game (keyed: underivable without the secret)."""
    return _seed63(canonical(["bot", deal_seed, rotation, seat, name]), b"arena-bot", secret.key)


def bot_seeds(secret: Secret, deal_seed: int, rotation: int, names: Sequence[str]) -> tuple[int, ...]:
    """Every seat's :func:`bot_seed`, seat 0 first."""
    return tuple(bot_seed(secret, deal_seed, rotation, seat, name) for seat, name in enumerate(names))


@dataclass(frozen=True, slots=True)
class PlaySeeds:
    """The seeds of one standalone game: the engine's deal seed and each seat's bot seed."""

    deal: int
    bots: tuple[int, ...]


def play_seeds(secret: Secret, seed: int, names: Sequence[str]) -> PlaySeeds:
    """The seeds of ``arena play --seed SEED`` (and of a check-bot case): all keyed.

    The same seed and secret give the same game; the deal seed is not ``seed``,
    so a bot cannot rebuild the deal by trying small seeds against its hand.
    """
    deal = _seed63(canonical(["deal", seed]), b"arena-play", secret.key)
    return PlaySeeds(deal, bot_seeds(secret, deal, 0, names))


def tournament_deal(secret: Secret, deal_seed: int) -> int:
    """The engine seed of a tournament deal: the schedule's open deal seed, keyed.

    A tournament file's seed is often public (the files in tournaments/ are);
    keyed, it fixes the schedule but not the cards, so an entrant who knows
    the seed still cannot compute the deals and recognise its own from a hand.
    Every rotation of a deal has the same open seed, so the same cards.
    """
    return _seed63(canonical(["deal", deal_seed]), b"arena-deal", secret.key)


def open_bot_seed(game_seed: int, seat: int, name: str) -> int:
    """A bot seed from the game seed alone, without a secret: anyone with the game seed can compute it.

    Only the referee's default when a caller gives no bot seeds (games among
    trusted in-process players: tests, benchmarks, the figures in
    docs/ladder.md); never for a submitted bot.
    """
    digest = hashlib.blake2b(f"{game_seed}:{seat}:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# ---------------------------------------------------------------- storing it


def read_secret(path: str | Path) -> Secret:
    """The secret in ``path``: a secret file, or a folder holding one (a results folder)."""
    path = Path(path)
    if path.is_dir():
        path = path / SECRET_FILE
    try:
        text = path.read_text()
    except OSError as exc:
        raise SeedError(f"cannot read a secret from {path} ({exc.strerror or exc})") from None
    return Secret.from_hex(text, str(path))


def write_secret(path: str | Path, secret: Secret) -> Secret:
    """Write ``secret`` to ``path`` (mode 0600) unless a secret is there already; return the one kept.

    Written to a temporary file and linked into place, so a reader never sees
    half a secret and two writers racing keep the first.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secret.hex() + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:
            return read_secret(path)
    except OSError as exc:
        raise SeedError(f"cannot write the secret {path} ({exc.strerror or exc})") from None
    finally:
        tmp.unlink(missing_ok=True)
    return secret


def user_secret_path() -> Path:
    """Where the per-user secret lives: ``$XDG_DATA_HOME/bhabhi-arena/secret``
    (default ``~/.local/share/bhabhi-arena/secret``)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / USER_FOLDER / SECRET_FILE


def user_secret() -> Secret:
    """The per-user secret of standalone games, created (mode 0600) on first use."""
    path = user_secret_path()
    if path.exists():
        return read_secret(path)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise SeedError(f"cannot create {path.parent} for the arena's secret ({exc.strerror or exc}); "
                        f"set XDG_DATA_HOME or give a secret with --secret-from FILE") from None
    return write_secret(path, Secret.generate())


def match_hand_seed(deal_seed: int, hand: int) -> int:
    """The engine seed of hand ``hand`` (0, 1, ...) of a match whose deal seed is ``deal_seed``.

    Open from the match's seed, which is itself keyed (:func:`tournament_deal`,
    :func:`play_seeds`), so a bot still cannot compute a hand's cards. Every
    rotation of a match has the same deal seed, so the same hands in the same order.
    """
    return derive_seed(deal_seed, "match-hand", hand)
