"""``shopfloor record``: the workshop sample note and one shift question run live, their exchanges written as
recordings beside the hand-written ones (docs/providers.md, "Replay and record").

Each run's SDK client goes through a :class:`~shopfloor.agent.providers.replay.Recorder`, which writes every
exchange as it happens with auth headers left out and the key scrubbed wherever it appears. Without the
provider's key nothing runs: a ``ProviderConfigError`` names the environment variable to set.
"""

from __future__ import annotations

import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from shopfloor.agent.providers import make_provider
from shopfloor.agent.providers.factory import DEFAULT_MODELS, ProviderConfigError
from shopfloor.agent.providers.replay import Recorder
from shopfloor.settings import KEY_ENV, Settings, provider_key

if TYPE_CHECKING:
    import httpx2

# The spec's sample note (docs/workshop-agent.md) and a question the live planners answer (docs/shifts-agent.md).
SAMPLE_NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo y "
    "el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)
QUESTION = "why was second shift slow"
PROVIDERS = tuple(KEY_ENV)
# Where each run's recording goes under the tests folder: beside the hand-written ones, in live/.
WORKSHOP_RECORDINGS = Path("workshop/agent/recordings")
SHIFTS_RECORDINGS = Path("shifts/live/recordings")


@dataclass(frozen=True)
class Recorded:
    """One live run written: which app, where, how many exchanges and how it ended."""

    app: str
    path: Path
    exchanges: int
    status: str


def record_live(
    provider: str,
    settings: Settings,
    into: Path,
    *,
    model: str | None = None,
    shifts_db: Path | None = None,
    note: str = SAMPLE_NOTE,
    question: str = QUESTION,
    inner: httpx2.BaseTransport | None = None,
) -> list[Recorded]:
    """Run the sample note through the workshop agent (on a throwaway copy of the sample workshop, so no card
    lands in a real store) and ``question`` through the live shift investigator, each on ``provider`` with
    its key from the environment, and write ``<into>/<app recordings>/<provider>/live/*.json``.

    ``inner`` is the transport under the recorder (default: the network). Raises ``ProviderConfigError``
    without the key (before any call) and ``FileNotFoundError`` without the shifts record store."""
    if provider not in KEY_ENV:
        raise ProviderConfigError(f"cannot record {provider!r}; use one of {', '.join(PROVIDERS)}")
    key = provider_key(provider)
    if not key:
        raise ProviderConfigError(
            f"recording {provider} needs {KEY_ENV[provider]} in the environment; nothing was recorded "
            "(the hand-written recordings stay as they are)"
        )
    chosen = model or DEFAULT_MODELS[provider]
    db = shifts_db or settings.shifts_db_path()
    if not Path(db).is_file():
        raise FileNotFoundError(f"no shifts record store at {db}; run `shopfloor prepare` first")
    live = Path(provider) / "live"
    return [
        _record_note(
            chosen, settings, key, into / WORKSHOP_RECORDINGS / live / "sample_note.json", note, inner
        ),
        _record_question(
            chosen, settings, key, into / SHIFTS_RECORDINGS / live / "complete.json", question, db, inner
        ),
    ]


def _record_note(
    model: str, settings: Settings, key: str, path: Path, note: str, inner: httpx2.BaseTransport | None
) -> Recorded:
    from shopfloor.agent.spend import budget_for
    from shopfloor.web.errors import ApiError
    from shopfloor.workshop.agent.persistence import StoreAgentStore
    from shopfloor.workshop.agent.run import run_agent
    from shopfloor.workshop.domain import Actor
    from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store
    from shopfloor.workshop.spend import APP

    recorder = Recorder(path, secret=key, inner=inner)
    with recorder.http_client() as client, tempfile.TemporaryDirectory() as tmp:
        provider = make_provider(model, settings, http_client=client)
        store = fresh_sample_store(Path(tmp) / "workshop.db")
        actor = Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
        try:
            # Held to the real workshop's monthly cap and shown in its ledger, not the throwaway store's
            # (docs/pricing.md, "Spend under a cap").
            budget = budget_for(settings.workshop_db_url(), APP, WORKSHOP_A, settings.monthly_cap_usd)
            body = run_agent(
                StoreAgentStore(store), actor, {"note": note}, provider, _request_id(), 20, budget=budget
            )
            status = f"{len(body['proposals'])} cards proposed"
        except ApiError as error:
            status = error.code
        finally:
            store.dispose()
    return Recorded("workshop", path, len(recorder.exchanges), status)


def _record_question(
    model: str,
    settings: Settings,
    key: str,
    path: Path,
    question: str,
    db: Path,
    inner: httpx2.BaseTransport | None,
) -> Recorded:
    from shopfloor.shifts.live.live import ask_live
    from shopfloor.shifts.plant.scope import Scope
    from shopfloor.shifts.records.store import open_read_only

    recorder = Recorder(path, secret=key, inner=inner)
    conn = open_read_only(db)
    try:
        row = conn.execute("SELECT max(day) FROM days").fetchone()
        if row is None or row[0] is None:
            raise FileNotFoundError(
                f"the shifts record store at {db} holds no day; run `shopfloor prepare` first"
            )
        scope = Scope(day=row[0], shift=2, include="shift")
        with recorder.http_client() as client:
            # Held to the plant's monthly cap like every live call (docs/pricing.md, "Spend under a cap").
            answer = ask_live(question, scope, conn, model, settings, http_client=client)
    finally:
        conn.close()
    return Recorded("shifts", path, len(recorder.exchanges), answer.status)


def _request_id() -> str:
    return "req_" + secrets.token_hex(6)
