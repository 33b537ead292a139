"""Password hashing with argon2id (argon2-cffi defaults), and a constant-time miss path."""

from __future__ import annotations

from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_HASHER = PasswordHasher()
MIN_PASSWORD = 10


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``."""
    return _HASHER.hash(password)


@lru_cache(maxsize=32)
def cached_hash(password: str) -> str:
    """A hash reused within the process, so building many sample databases stays cheap."""
    return hash_password(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """True when ``password`` matches; a missing hash still spends the time of one check."""
    try:
        return _HASHER.verify(password_hash or _dummy_hash(), password) and password_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return _HASHER.hash("not a password of anyone")


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with older parameters."""
    return _HASHER.check_needs_rehash(password_hash)
