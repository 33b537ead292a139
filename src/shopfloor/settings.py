"""The one settings object. Every knob is an environment variable with the ``SHOPFLOOR_`` prefix.

Provider keys are the exception: they keep their providers' usual names (``GEMINI_API_KEY``,
``ANTHROPIC_API_KEY``, ``OPENAI_API_KEY``) and are read from the environment only, never from files,
and never logged or echoed.
"""

from __future__ import annotations

import os
import secrets
from functools import lru_cache
from pathlib import Path

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

KEY_ENV = {"gemini": "GEMINI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


class Settings(BaseSettings):
    """Runtime configuration, read from ``SHOPFLOOR_*`` environment variables."""

    model_config = SettingsConfigDict(env_prefix="SHOPFLOOR_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    # Server processes for `shopfloor serve`; they share the stores (SQLite writers queue on a file lock).
    workers: int = Field(default=1, ge=1, le=32)
    var_dir: Path = Path("var")
    log_level: str = "INFO"
    log_file: Path | None = None

    # Signs session cookies. Unset: a random key kept in `var_dir/secret-key` (see `session_secret`).
    secret_key: SecretStr | None = None

    # Workshop store: SQLite file by default, PostgreSQL URL for many users.
    workshop_db: str | None = None
    # PostgreSQL only: the owner URL that runs migrations and loads sample data (default: workshop_db), and
    # the login role the app connects as (created and granted by `shopfloor workshop init`).
    workshop_db_owner: str | None = None
    workshop_app_role: str = "shopfloor_app"
    # Shifts record store (DuckDB file).
    shifts_db: Path | None = None

    # "offline" (deterministic planners, the default), or a model name such as gemini-2.5-flash-lite.
    model: str = "offline"
    # Which provider serves a live model when `model` does not say; gemini is the default live provider.
    # "openai-compatible" sends `model` to a local Chat Completions server at `base_url`.
    provider: str | None = None
    # The OpenAI-compatible server's URL, with its version path (e.g. http://127.0.0.1:8080/v1).
    base_url: str | None = None
    # What the OpenAI-compatible server must be told (docs/providers.md, "Server profiles"): a named profile,
    # and overrides of its strict flag, its tool_choice support and its context size in tokens.
    server_profile: str = "openai"
    server_strict: bool | None = None
    server_tool_choice: bool | None = None
    server_context_tokens: int | None = Field(default=None, ge=512)
    # Retries of a failed model call (408/409/429/5xx, connection), made by the loop within the run's time
    # budget; the provider SDKs make none of their own (docs/providers.md, "Retries, timeouts, errors").
    provider_max_retries: int = 2

    # Monthly model spend cap in USD per tenant (each workshop, the plant), unless the tenant has its own row in
    # `spend_caps`; unset: no cap (spend is still recorded). docs/pricing.md, "Spend under a cap".
    monthly_cap_usd: float | None = Field(default=None, ge=0)
    # The Shift Investigator's tenant in the spend ledger.
    shifts_plant_id: str = Field(default="plant", min_length=1, max_length=64)

    max_body_bytes: int = Field(default=64 * 1024, description="Largest accepted request body")
    # Deepest nesting of arrays and objects a JSON body may have (docs/security.md, input limits).
    max_json_depth: int = Field(default=32, ge=1, le=256)
    workshop_rate_limit_per_hour: int = 20
    # How often the workshop app marks runs a crash left `running` as failed (docs/security.md).
    workshop_orphan_sweep_s: float = Field(default=60.0, gt=0, le=3600)

    # HTTP limits `shopfloor serve` gives the server (docs/security.md, HTTP limits; shopfloor.server.http_limits).
    # Largest request line plus headers; a bigger head is refused with 400 and the connection closed.
    http_max_header_bytes: int = Field(default=16 * 1024, ge=1024, le=1024 * 1024)
    # A request head must arrive within this many seconds of the connection's start (or of its first byte).
    http_header_timeout_s: float = Field(default=10.0, gt=0, le=300)
    # A request body must arrive within this many seconds of its head (a slowly sent body is cut off).
    http_body_timeout_s: float = Field(default=30.0, gt=0, le=3600)
    # An idle keep-alive connection is closed after this many seconds.
    http_keep_alive_s: int = Field(default=5, ge=1, le=300)
    # Open connections (and requests in progress) per server process; past it, new requests get 503.
    http_max_concurrency: int = Field(default=200, ge=1, le=100_000)
    # How long /healthz and /readyz keep their stores' answers (docs/security.md); 0 checks on every request.
    health_cache_s: float = Field(default=2.0, ge=0, le=60)
    # The proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed (addresses or networks,
    # comma-separated); empty: none, so every client address is the connection's own (docs/deploy.md).
    forwarded_allow_ips: str = ""

    # Sign-in throttle (docs/security.md, throttles): failures allowed per email and per client address before
    # a delay, the first delay (doubling with every further failure) and its ceiling, and how long after its
    # latest failure a counter is forgotten.
    signin_email_free_failures: int = Field(default=5, ge=1, le=1000)
    signin_client_free_failures: int = Field(default=20, ge=1, le=100_000)
    signin_first_delay_s: float = Field(default=15.0, gt=0, le=3600)
    signin_max_delay_s: float = Field(default=300.0, gt=0, le=86_400)
    signin_forget_after_s: float = Field(default=900.0, gt=0, le=7 * 86_400)
    # Days a new bearer token stays valid.
    token_ttl_days: int = Field(default=90, ge=1, le=3650)

    @model_validator(mode="after")
    def _throttle_forgets_after_its_delays(self) -> Settings:
        # A counter forgotten while its delay still runs would turn the delay back to zero.
        if self.signin_forget_after_s < self.signin_max_delay_s:
            raise ValueError("signin_forget_after_s must be at least signin_max_delay_s")
        if self.signin_first_delay_s > self.signin_max_delay_s:
            raise ValueError("signin_first_delay_s must not exceed signin_max_delay_s")
        return self

    # Shift Investigator pages and their protections (docs/security.md, "The /shifts routes"; docs/deploy.md).
    # Host names the /shifts routes answer to (comma-separated; the port is not part of the rule).
    shifts_hosts: str = "127.0.0.1,localhost,[::1]"
    # Public demo mode: an Origin allowlist replaces the loopback Host rule, investigations run one at a time.
    public: bool = False
    # Public mode only: live investigations the whole server may run per UTC day with the server's own key (the
    # daily round guard, counted across processes like the rate limit); 0 keeps public mode offline only.
    public_live_rounds_per_day: int = Field(default=0, ge=0, le=100_000)
    # Public mode only: the origins (scheme://host[:port], comma-separated) allowed to call and be served.
    shifts_origins: str = ""
    # Requests per client address per minute over every /shifts route, shared by all server processes.
    shifts_rate_limit_per_minute: int = Field(default=60, ge=1, le=1_000_000)
    # Largest request body on a /shifts POST (GET requests carry none).
    shifts_max_body_bytes: int = Field(default=16 * 1024, ge=256, le=1024 * 1024)
    # Where the shared rate limit is counted: a Redis URL, else a SQLite file in var_dir.
    redis_url: str | None = None
    # Investigations running at once in a server process, and how many more may wait before a 503.
    shifts_max_concurrency: int = Field(default=4, ge=1, le=64)
    shifts_max_waiting: int = Field(default=32, ge=0, le=10_000)
    # /shifts requests a server process starts per second at most; the rest wait (without a thread) or get 503.
    shifts_max_requests_per_s: float = Field(default=300.0, gt=0, le=100_000)
    # Answers kept for their addresses (the PDF is drawn from the retained answer).
    shifts_answer_cache: int = Field(default=256, ge=1, le=100_000)

    def workshop_db_url(self) -> str:
        """The SQLAlchemy URL of the workshop store."""
        if self.workshop_db:
            return self.workshop_db
        return f"sqlite:///{(self.var_dir / 'workshop.db').as_posix()}"

    def session_secret(self) -> str:
        """The key that signs session cookies: ``SHOPFLOOR_SECRET_KEY``, else a random key made on first use
        and kept in ``var_dir/secret-key`` (owner-only), so every server process and restart shares it."""
        if self.secret_key is not None:
            return self.secret_key.get_secret_value()
        path = self.var_dir / "secret-key"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            # Written aside, then linked into place: a worker starting at the same moment reads either no file
            # or a whole key, and only one key ever wins.
            draft = path.with_name(f".secret-key.{os.getpid()}.{secrets.token_hex(4)}")
            draft.touch(mode=0o600)
            draft.write_text(secrets.token_urlsafe(48))
            try:
                os.link(draft, path)
            except FileExistsError:
                pass
            finally:
                draft.unlink()
        key = path.read_text().strip()
        if len(key) < 32:
            raise RuntimeError(f"{path} holds no usable key; delete it to make a new one.")
        return key

    def forwarded_proxies(self) -> list[str]:
        """The trusted proxies of ``forwarded_allow_ips`` (empty: forwarded headers are never believed)."""
        return [p.strip() for p in self.forwarded_allow_ips.split(",") if p.strip()]

    def shifts_db_path(self) -> Path:
        """The DuckDB file of the shifts record store."""
        return self.shifts_db or self.var_dir / "shifts.duckdb"

    def shifts_host_names(self) -> frozenset[str]:
        """The host names (lower case, no port) the /shifts routes answer to."""
        return frozenset(h.strip().lower() for h in self.shifts_hosts.split(",") if h.strip())

    def shifts_origin_list(self) -> frozenset[str]:
        """Public mode's allowed origins, each ``scheme://host[:port]`` in lower case without a final slash."""
        return frozenset(o.strip().lower().rstrip("/") for o in self.shifts_origins.split(",") if o.strip())

    def shifts_xml_dir(self) -> Path:
        """Where the generated day files of the shifts record store are written."""
        return self.var_dir / "shifts-xml"

    def shifts_answer_keys_path(self) -> Path:
        """The planted scenarios' answer keys (read by the shifts eval runner only)."""
        return self.var_dir / "shifts-answer-keys.json"


def provider_key(provider: str) -> str | None:
    """The API key for ``provider`` from the environment, or None. Never log the result."""
    name = KEY_ENV.get(provider)
    return os.environ.get(name) or None if name else None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (cached; tests call ``get_settings.cache_clear()`` after changing env)."""
    return Settings()
