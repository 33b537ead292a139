"""Request tokens against cross-site requests, the one way both apps check them (docs/security.md).

A page carries a token and every unsafe request from it sends the token back in a header (htmx sends it from
the body's ``hx-headers``); the app compares what it got with what it expects in constant time.
:func:`token_matches` is the comparison; :class:`RequestTokens` issues tokens that need no server state (a
random value signed with the server's key and a time stamp), for an app without sessions.
"""

from __future__ import annotations

import hmac
import secrets

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner

TOKEN_MAX_AGE_S = 12 * 3600
MAX_TOKEN_CHARS = 200


def token_matches(expected: str, presented: str | None) -> bool:
    """Whether the presented token is the expected one (constant time; a missing or empty one never is)."""
    if not presented or not expected:
        return False
    return hmac.compare_digest(expected.encode(), presented.encode())


class RequestTokens:
    """Per-page request tokens: a random value signed with the server's key and a time stamp, so every
    server process can check a token any of them issued, and a token from another site never passes."""

    def __init__(self, secret: str, salt: str) -> None:
        self._signer = TimestampSigner(secret, salt=salt)

    def issue(self) -> str:
        """A fresh token for one page."""
        return self._signer.sign(secrets.token_urlsafe(18)).decode("ascii")

    def valid(self, token: str | None, max_age_s: int = TOKEN_MAX_AGE_S) -> bool:
        """Whether ``token`` was issued by this server in the last ``max_age_s`` seconds."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return False
        try:
            self._signer.unsign(token, max_age=max_age_s)
        except (BadSignature, SignatureExpired):
            return False
        return True
