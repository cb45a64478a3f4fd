"""The people who submit bots to a ladder: each a name, a token of their own and limits.

The organiser adds a submitter from the command line (``arena ladder submitter
add DIR NAME``): the token is made from 32 random bytes, printed once and
stored only as its SHA-256 (a token is as long as a key, so a plain hash
suffices: there is nothing to guess). A submitter sends it in the
``Authorization: Bearer TOKEN`` header of a web submission; the ladder finds
them by the token's hash. A revoked token, or one that matches no one, is
refused before any body is read.

A bot chain (every version of one plugin name, ``mybot-v1``, ``mybot-v2``, ...)
belongs to the submitter who made its first version: only they may post its
next version or retire it. Each submitter may begin at most ``per_hour``
submissions in an hour (counted from when each began, admitted or not) and hold
at most ``max_active`` entries that can still play (checking, active or
suspended). The organiser's own commands (``arena ladder submit``, ``retire``,
``reinstate``) may do anything.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass

from arena.ladder.ledger import Ledger, Entry
from arena.ladder.errors import LadderError, SubmissionError
from arena.ladder.names import name_key

PER_HOUR = 6
"""Submissions a submitter may begin in an hour, by default (a fix, a second try, room to spare)."""
MAX_ACTIVE = 3
"""Entries a submitter may hold that can still play, by default."""
LIVE = ("checking", "active", "suspended")
"""The statuses an entry counts against its owner's ``max_active`` in (a suspended one may be reinstated)."""
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,29}$")
_TOKEN_BYTES = 32


@dataclass(frozen=True, slots=True)
class Submitter:
    """Someone who may submit bots; ``revoked_at`` set: their token no longer works."""

    name: str
    created_at: float
    revoked_at: float | None
    per_hour: int
    max_active: int

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _with_hashes(ledger: Ledger) -> list[tuple[str, Submitter]]:
    """Every submitter with their token's hash, by name."""
    return [(hashed, Submitter(name, created, revoked, per_hour, active))
            for name, hashed, created, revoked, per_hour, active in ledger.submitter_rows()]


def submitters(ledger: Ledger) -> list[Submitter]:
    return [who for _, who in _with_hashes(ledger)]


def find(ledger: Ledger, name: str) -> Submitter:
    """The submitter ``name``; a LadderError naming the known ones otherwise."""
    people = submitters(ledger)
    found = next((s for s in people if s.name == name), None)
    if found is None:
        known = ", ".join(s.name for s in people) or "none yet"
        raise LadderError(f"no submitter {name!r} (submitters: {known}); `arena ladder submitter add` makes one")
    return found


def add(ledger: Ledger, name: str, *, per_hour: int = PER_HOUR, max_active: int = MAX_ACTIVE) -> str:
    """Make the submitter ``name``; their token (shown once: only its hash is kept)."""
    if not _NAME.match(name):
        raise LadderError(f"a submitter's name must be 1-30 lowercase letters, digits or '-', starting with a "
                          f"letter or digit (got {name[:40]!r})")
    clash = next((s.name for s in submitters(ledger) if name_key(s.name) == name_key(name)), None)
    if clash is not None:
        raise LadderError(f"the submitter name {name!r} reads like the submitter {clash!r}: choose another")
    if per_hour < 1 or max_active < 1:
        raise LadderError(f"a submitter's limits must be at least 1 (got {per_hour} an hour, {max_active} active)")
    token = secrets.token_urlsafe(_TOKEN_BYTES)
    ledger.add_submitter(name, token_hash(token), per_hour, max_active)
    return token


def new_token(ledger: Ledger, name: str) -> str:
    """A new token for ``name`` (the old one stops working; a revoked submitter is restored)."""
    find(ledger, name)
    token = secrets.token_urlsafe(_TOKEN_BYTES)
    ledger.update_submitter(name, token_hash=token_hash(token), revoked_at=None)
    return token


def revoke(ledger: Ledger, name: str) -> Submitter:
    if find(ledger, name).revoked:
        raise LadderError(f"the submitter {name!r} is revoked already")
    ledger.update_submitter(name, revoked_at=time.time())
    return find(ledger, name)


def set_limits(ledger: Ledger, name: str, *, per_hour: int | None = None, max_active: int | None = None) -> Submitter:
    find(ledger, name)
    values = {k: v for k, v in (("per_hour", per_hour), ("max_active", max_active)) if v is not None}
    if any(v < 1 for v in values.values()):
        raise LadderError(f"a submitter's limits must be at least 1 (got {values})")
    if values:
        ledger.update_submitter(name, **values)
    return find(ledger, name)


def authenticate(ledger: Ledger, token: str) -> Submitter | None:
    """The submitter whose token this is and who is not revoked; None for any other token."""
    if not token:
        return None
    wanted = token_hash(token)
    found = next((who for hashed, who in _with_hashes(ledger) if secrets.compare_digest(hashed, wanted)), None)
    return None if found is None or found.revoked else found


def check_rate(ledger: Ledger, who: Submitter, now: float) -> None:
    """Refuse a new submission past ``who``'s hourly limit (a SubmissionError)."""
    if ledger.submissions_since(who.name, now - 3600) >= who.per_hour:
        raise SubmissionError(f"refused: {who.name} began {who.per_hour} submissions in the last hour, the most "
                              f"this ladder allows; try again later")


def check_owner(entries: list[Entry], base: str, who: str | None) -> str | None:
    """The owner a new version of the bot ``base`` gets; a SubmissionError if ``who`` may not post it.

    ``who`` None is the organiser, who may post any version (the chain keeps its owner). A name whose
    confusable skeleton matches another chain's or a house player's is refused: it would pass for it.
    """
    key = name_key(base)
    chain = [e for e in entries if not e.house and e.plugin == base]
    for e in entries:
        theirs = e.name if e.house else e.plugin
        if name_key(theirs) == key and (e.house or e.plugin != base):
            what = "the house player" if e.house else "the bot"
            raise SubmissionError(f"refused: the name {base!r} reads like {what} {theirs!r} already on this "
                                  f"ladder; rename the plugin's entry point")
    owner = chain[0].owner if chain else who
    if who is not None and chain and owner != who:
        raise SubmissionError(f"refused: the bot {base!r} belongs to another submitter; only they may post its "
                              f"next version (rename the plugin's entry point to enter a bot of your own)")
    return owner


def check_active(entries: list[Entry], who: Submitter) -> None:
    live = [e.name for e in entries if e.owner == who.name and e.status in LIVE]
    if len(live) >= who.max_active:
        raise SubmissionError(f"refused: {who.name} has {len(live)} entries that can still play "
                              f"({', '.join(live)}), the most this ladder allows; retire one first")
