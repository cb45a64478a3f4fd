"""The headers every answer of the ladder's web face carries, and a nonce per request for its inline code.

:class:`Guard` wraps the whole application (outside Starlette's own error
handling, so a 500 carries them too). Each request gets a fresh random nonce in
``request.state.nonce``; the pages' one inline style and inline script carry
it, and the Content-Security-Policy allows no other script or style:

- ``default-src 'none'``: nothing loads unless named below;
- ``script-src 'nonce-…'``, ``style-src 'nonce-…'``: only the page's own inline
  code runs, never markup a bot or visitor got into the page;
- ``img-src 'self' data:`` (the report's figures are data URIs), ``connect-src
  'self'`` (the leaderboard's refresh, the submit form's upload);
- ``form-action 'self'``, ``base-uri 'none'``, ``frame-ancestors 'none'``;
- ``require-trusted-types-for 'script'; trusted-types 'none'``: in browsers that
  have Trusted Types, no script may hand a string to an HTML sink
  (``innerHTML`` and the like), so not even a bug of the pages' own code can
  turn a bot's text into markup.

A page may widen one thing for itself, ``style-src-attr 'unsafe-inline'``
(the whole report colours its cells with style attributes), by setting
``request.state.style_attributes``. Besides the policy: ``X-Content-Type-Options:
nosniff``, ``X-Frame-Options: DENY``, ``Referrer-Policy: no-referrer``,
``Cross-Origin-Opener-Policy: same-origin``, ``Cross-Origin-Resource-Policy:
same-origin``, and ``Cache-Control: no-store`` (pages change as games arrive).
"""

from __future__ import annotations

import secrets

_POLICY = ("default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'{attributes}; "
           "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
           "frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types 'none'")
FIXED = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
         (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin"),
         (b"cross-origin-resource-policy", b"same-origin"), (b"cache-control", b"no-store"))
"""The headers every answer carries besides the policy."""
_OURS = {name for name, _ in FIXED} | {b"content-security-policy", b"server"}


def policy(nonce: str, style_attributes: bool = False) -> str:
    """The Content-Security-Policy of a page whose inline style and script carry ``nonce``."""
    return _POLICY.format(nonce=nonce, attributes="; style-src-attr 'unsafe-inline'" if style_attributes else "")


class Guard:
    """ASGI middleware: a nonce for each HTTP request, the security headers on each answer."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state["nonce"] = nonce = secrets.token_urlsafe(18)

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                csp = policy(nonce, bool(state.get("style_attributes"))).encode()
                message = {**message, "headers": [*kept, (b"content-security-policy", csp), *FIXED]}
            await send(message)
        await self.app(scope, receive, sending)
