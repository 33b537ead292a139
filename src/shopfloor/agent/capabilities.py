"""One table of what each live model can do and costs; the adapters, pricing and the factory read it.

Every model-specific choice (thinking form, effort, reasoning items, validated function calling, cache
minimum, prices, retirement) comes from a :class:`ModelInfo` row here, never from a model
name pattern in an adapter. What a whole provider family accepts (strict-tool limits, schema rewrites,
request caps) is its profile in ``agent/providers/profiles/``. Sources and dates: docs/pricing.md and
docs/providers.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

CAPABILITIES_AS_OF = "2026-12-01"

Thinking = Literal["adaptive", "budget", "none"]


@dataclass(frozen=True)
class Price:
    """USD per million tokens. ``cache_write`` None means the provider does not bill cache writes apart
    (they bill at the input rate); ``cache_read`` None means no published cache-read rate was found, so a
    call that read from the cache costs unknown. Above ``long_prompt_tokens`` prompt tokens, the input and
    cache rates are multiplied by ``long_input_factor`` and the output rate by ``long_output_factor``."""

    input: float
    output: float
    cache_read: float | None
    cache_write: float | None = None
    long_prompt_tokens: int | None = None
    long_input_factor: float = 1.0
    long_output_factor: float = 1.0


# A row's facts are re-checked at least this often; `shopfloor models` warns about older rows.
MAX_ROW_AGE_DAYS = 60
CHECKED = date(2026, 12, 1)


@dataclass(frozen=True)
class ModelInfo:
    """One model: who serves it, how it thinks, what it accepts, what it costs and when it leaves, with where
    the facts were read (``source``: URLs) and when (``checked``); ``note`` says what is known where the
    sources disagree. ``routed``: the provider says calls after ``retires`` are served by ``replacement``
    (and billed at its rates), so the model is not refused. ``released``: the first day it was served (the
    month's last day when only the month is published), read in ``released_source``; ``snapshots``: the dated
    names the vendor lists besides ``name`` (a recording may name only these, tests/agent/test_snapshots.py)."""

    name: str
    provider: str  # "gemini", "anthropic" or "openai"
    reasoning: bool  # thinks or reasons before answering (OpenAI: returns reasoning items)
    thinking: Thinking  # Claude's thinking form: adaptive, enabled with a token budget, or none
    efforts: tuple[str, ...] = ()  # accepted effort values; empty: send no effort
    min_cache_tokens: int | None = None  # shortest prefix the provider caches; None: not documented to us
    price: Price | None = None  # None: unknown, every cost of this model reads as unknown
    retires: date | None = None  # the provider stops serving it on this day
    replacement: str | None = None
    validated_calls: bool = False  # Gemini: accepts FunctionCallingConfigMode.VALIDATED
    context_tokens: int | None = None
    max_output_tokens: int | None = None
    source: str = ""
    checked: date | None = None
    note: str = ""
    routed: bool = False
    released: date | None = None
    released_source: str = ""
    snapshots: tuple[str, ...] = ()

    def default_effort(self) -> str | None:
        """``medium`` when the model accepts it, else no effort."""
        return "medium" if "medium" in self.efforts else None


_CLAUDE_EFFORTS = ("low", "medium", "high", "xhigh", "max")
_GPT6_EFFORTS = ("none", "low", "medium", "high", "xhigh", "max")


def _gpt6(input_rate: float, output: float, read: float, write: float) -> Price:
    """A GPT-6 price: above 272K prompt tokens, input and cache rates × 2 and output × 1.5 (vendor pages)."""
    return Price(input_rate, output, read, write, 272_000, 2.0, 1.5)


MODELS: tuple[ModelInfo, ...] = (
    ModelInfo(
        "gemini-2.5-flash-lite",
        "gemini",
        reasoning=False,
        thinking="none",
        price=Price(0.10, 0.40, 0.01),
        validated_calls=True,
        context_tokens=1_048_576,
        max_output_tokens=65_536,
        source="https://ai.google.dev/gemini-api/docs/deprecations ; "
        "https://ai.google.dev/gemini-api/docs/models/gemini-2.5-flash-lite ; "
        "https://ai.google.dev/gemini-api/docs/pricing",
        checked=CHECKED,
        note="sources disagree on its status: Google's deprecations page (as quoted on 2026-11-10) says it is "
        "not deprecated until further notice; older copies and a reseller give shutdowns in July or October "
        "2026. Cache read 0.01 not confirmed on a vendor copy.",
        released=date(2025, 7, 31),
        released_source="https://ai.google.dev/gemini-api/docs/models/gemini-2.5-flash-lite (latest update: "
        "July 2025; the month only, so its last day)",
    ),
    ModelInfo(
        "gemini-2.5-flash",
        "gemini",
        reasoning=True,
        thinking="none",
        price=Price(0.30, 2.50, 0.03),
        retires=date(2026, 12, 1),
        replacement="gemini-3.5-flash-lite",
        validated_calls=True,
        context_tokens=1_048_576,
        max_output_tokens=65_536,
        source="https://ai.google.dev/gemini-api/docs/deprecations ; "
        "https://dev.to/aideprecations/what-to-do-before-gemini-25-pro-and-25-flash-are-retired-on-december-1-2026-5gg9 ; "
        "https://docs.laozhang.ai/en/announcements/gemini-2-5-flash-pro-retired-2026-11",
        checked=CHECKED,
        note="shut down 2026-12-01; Google's latest text (as quoted on 2026-11-10) says requests are routed to "
        "gemini-3.5-flash-lite and billed at its rates; older copies give June or October 2026, and a "
        "reseller answers 503 without routing. Served, not refused; output and cache rates not confirmed.",
        routed=True,
    ),
    ModelInfo(
        "gemini-3.5-flash-lite",
        "gemini",
        reasoning=True,
        thinking="none",
        price=Price(0.30, 2.50, None),
        validated_calls=True,
        context_tokens=1_048_576,
        max_output_tokens=65_536,
        source="https://ai.google.dev/gemini-api/docs/pricing ; "
        "https://ai.google.dev/gemini-api/docs/models/gemini-3.5-flash-lite",
        checked=CHECKED,
        note="GA 2026-07-21, no shutdown date announced; no cache-read rate found (a cached read costs unknown).",
    ),
    ModelInfo(
        "claude-haiku-4-5",
        "anthropic",
        reasoning=True,
        thinking="budget",
        min_cache_tokens=4096,
        price=Price(1.00, 5.00, 0.10, 1.25),
        context_tokens=200_000,
        max_output_tokens=64_000,
        source="https://platform.claude.com/docs/en/models/haiku-4-5/overview",
        checked=CHECKED,
        note="legacy (still served; the vendor recommends Claude Haiku 5.5); no retirement date found. Cache "
        "rates derived from the vendor's 0.1x and 1.25x rules.",
    ),
    ModelInfo(
        "claude-sonnet-4-5",
        "anthropic",
        reasoning=True,
        thinking="budget",
        min_cache_tokens=1024,
        price=Price(3.00, 15.00, 0.30, 3.75),
        retires=date(2026, 11, 30),
        replacement="claude-sonnet-5-5",
        context_tokens=200_000,
        max_output_tokens=64_000,
        source="https://platform.claude.com/docs/en/models/sonnet-4-5/overview",
        checked=CHECKED,
        note="the vendor says it retires on 2026-11-30; cache rates derived from the 0.1x and 1.25x rules.",
    ),
    ModelInfo(
        "claude-opus-4-5",
        "anthropic",
        reasoning=True,
        thinking="budget",
        min_cache_tokens=4096,
        price=Price(5.00, 25.00, 0.50, 6.25),
        context_tokens=200_000,
        max_output_tokens=64_000,
        source="https://platform.claude.com/docs/en/models/opus-4-5/overview ; "
        "https://platform.claude.com/docs/en/about-claude/pricing ; "
        "https://github.com/samarthputhraya/Modelpin/releases/tag/v0.5.7",
        checked=CHECKED,
        note="sources disagree: the vendor's overview says legacy, retirement not sooner than 2026-11-24; a "
        "tracker that re-read the deprecations page on 2026-11-26 says deprecated 2026-11-23, tentative "
        "retirement 2027-01-22 (replacement claude-opus-5-5). No date is set until the vendor states one.",
        released=date(2025, 11, 24),
        released_source="https://www.anthropic.com/news/claude-opus-4-5 (as linked on 2025-11-24 in "
        "https://github.com/simonw/llm-prices/pull/31)",
    ),
    ModelInfo(
        "claude-sonnet-5-5",
        "anthropic",
        reasoning=True,
        thinking="adaptive",
        efforts=_CLAUDE_EFFORTS,
        price=Price(2.00, 10.00, 0.20, 2.50),
        context_tokens=1_000_000,
        max_output_tokens=128_000,
        source="https://platform.claude.com/docs/en/models/sonnet-5-5/overview ; "
        "https://github.com/kurofune/claudit/releases/tag/v1.9.2",
        checked=CHECKED,
        note="cache read: the vendor copy says 0.20; four trackers say it was cut to 0.10 on 2026-10-07 (the "
        "vendor copy predates that). The table keeps the vendor's 0.20, the dearer one.",
        released=date(2026, 9, 28),
        released_source="https://runware.ai/docs/models/anthropic-claude-sonnet-5-5 (release date 2026-09-28) ; "
        "https://github.com/orgs/cometapi-dev/discussions/144 (served from 2026-09-29); the vendor lists "
        "no dated snapshot, only claude-sonnet-5-5",
    ),
    ModelInfo(
        "claude-opus-5-5",
        "anthropic",
        reasoning=True,
        thinking="adaptive",
        efforts=_CLAUDE_EFFORTS,
        price=Price(4.00, 20.00, 0.20, 5.00),
        context_tokens=1_000_000,
        max_output_tokens=128_000,
        source="https://platform.claude.com/docs/en/models/opus-5-5/overview",
        checked=CHECKED,
        note="cache minimum: 512 is documented for Opus 5, not found for 5.5, so none is claimed.",
        released=date(2026, 9, 23),
        released_source="https://www.anthropic.com/claude-opus-5-5 (as linked on 2026-09-23 in "
        "https://github.com/AkihikoWatanabe/paper_notes/issues/6619) ; "
        "https://github.com/multidotdev/cli/releases/tag/v0.0.135 (served 2026-09-24); no dated snapshot",
    ),
    ModelInfo(
        "gpt-4.1-mini",
        "openai",
        reasoning=False,
        thinking="none",
        price=Price(0.40, 1.60, 0.10),
        retires=date(2027, 1, 14),
        replacement="gpt-6-luna",
        context_tokens=1_047_576,
        max_output_tokens=32_768,
        source="https://developers.openai.com/api/docs/deprecations ; "
        "https://help.openai.com/en/articles/20001600-migrating-from-gpt-4x-to-gpt-6-luna",
        checked=CHECKED,
        note="deprecated 2026-10-14; prices from third-party copies (no vendor model page found).",
        released=date(2025, 4, 14),
        released_source="https://openai.com/index/gpt-4-1/ (the snapshot's date, 2025-04-14)",
        snapshots=("gpt-4.1-mini-2025-04-14",),
    ),
    ModelInfo(
        "gpt-5-mini",
        "openai",
        reasoning=True,
        thinking="none",
        efforts=("minimal", "low", "medium", "high"),
        price=Price(0.25, 2.00, 0.025),
        retires=date(2026, 12, 11),
        replacement="gpt-6.1-terra",
        context_tokens=400_000,
        max_output_tokens=128_000,
        source="https://developers.openai.com/api/docs/deprecations ; "
        "https://developers.openai.com/api/docs/models/gpt-5-mini",
        checked=CHECKED,
        note="effort values not re-checked.",
        released=date(2025, 8, 7),
        released_source="https://developers.openai.com/api/docs/models/gpt-5-mini (snapshots gpt-5-mini and "
        "gpt-5-mini-2025-08-07)",
        snapshots=("gpt-5-mini-2025-08-07",),
    ),
    ModelInfo(
        "gpt-6-luna",
        "openai",
        reasoning=True,
        thinking="none",
        efforts=_GPT6_EFFORTS,
        price=_gpt6(0.10, 0.50, 0.01, 0.125),
        context_tokens=1_050_000,
        max_output_tokens=128_000,
        source="https://developers.openai.com/api/docs/models/gpt-6-luna ; "
        "https://vercel.com/ai-gateway/models/openai/gpt-6-luna.md",
        checked=CHECKED,
    ),
    ModelInfo(
        "gpt-6.1-sol",
        "openai",
        reasoning=True,
        thinking="none",
        efforts=("low", "medium", "high", "xhigh", "max"),
        price=_gpt6(2.00, 10.00, 0.10, 2.50),
        context_tokens=1_050_000,
        max_output_tokens=128_000,
        source="https://docs.litellm.ai/blog/gpt_6_1_sol ; "
        "https://www.w3cschool.cn/openai_api/openai-api-docs-gpt-6-1-sol.html",
        checked=CHECKED,
        note="the vendor's model page was not found; facts from copies of it.",
    ),
    ModelInfo(
        "gpt-6.1-terra",
        "openai",
        reasoning=True,
        thinking="none",
        efforts=_GPT6_EFFORTS,
        price=_gpt6(1.00, 5.00, 0.05, 1.25),
        context_tokens=1_050_000,
        max_output_tokens=128_000,
        source="https://developers.openai.com/api/docs/models/gpt-6.1-terra ; "
        "https://docs.litellm.ai/blog/gpt-6-1-terra",
        checked=CHECKED,
        note="cache write is the 30-minute rate (2.50 for 12 h is not used).",
        released=date(2026, 10, 26),
        released_source="https://apidog.com/blog/what-is-gpt-6-1-terra/ (released 2026-10-26, from the vendor's "
        "page) ; https://developers.openai.com/api/docs/models/gpt-6.1-terra (one snapshot: gpt-6.1-terra)",
    ),
)

BY_NAME: dict[str, ModelInfo] = {info.name: info for info in MODELS}


def model_info(model: str) -> ModelInfo | None:
    """The row for ``model``; dated snapshots ("gpt-5-mini-2025-08-07", "claude-haiku-4-5-20251001")
    and ``models/`` names match their family, the longest family name first. None for an unknown model."""
    name = model.removeprefix("models/")
    if name in BY_NAME:
        return BY_NAME[name]
    for family in sorted(BY_NAME, key=len, reverse=True):
        if name.startswith(family + "-"):
            return BY_NAME[family]
    return None


def retirement_problem(model: str, today: date) -> str | None:
    """Why ``model`` cannot be used any more on ``today`` (naming its replacement), or None."""
    info = model_info(model)
    if info is None or info.retires is None or today < info.retires or info.routed:
        return None
    instead = f"; use {info.replacement} instead" if info.replacement else ""
    return f"model {model!r} was retired by its provider on {info.retires.isoformat()}{instead}"


def capability_table_markdown() -> str:
    """The capability table of docs/providers.md, from the model table."""
    lines = [
        "| model | provider | reasoning | thinking | effort accepted | min cached prefix | validated calls |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for info in MODELS:
        cache = f"{info.min_cache_tokens:,}" if info.min_cache_tokens is not None else "not documented"
        validated = ("yes" if info.validated_calls else "no") if info.provider == "gemini" else "-"
        cells = [
            info.name,
            info.provider,
            "yes" if info.reasoning else "no",
            info.thinking,
            ", ".join(info.efforts) or "none",
            cache,
            validated,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def stale_rows(today: date, max_age_days: int = MAX_ROW_AGE_DAYS) -> list[ModelInfo]:
    """Rows whose facts were checked more than ``max_age_days`` before ``today`` (or never)."""
    return [i for i in MODELS if i.checked is None or (today - i.checked).days > max_age_days]


def _limit(value: int | None) -> str:
    return f"{value:,}" if value is not None else "not found"


def model_rows() -> list[dict[str, str]]:
    """The model table as ``shopfloor models`` prints it: provider, model, prices, limits, retirement,
    source and check date, one dict of strings per row."""
    rows = []
    for info in MODELS:
        price = info.price

        def rate(value: float | None) -> str:
            return "unknown" if value is None else f"{value:g}"

        retires = "-"
        if info.retires is not None:
            retires = info.retires.isoformat()
            if info.replacement:
                retires += f" ({'routed to' if info.routed else 'use'} {info.replacement})"
        rows.append(
            {
                "provider": info.provider,
                "model": info.name,
                "input": rate(price.input) if price else "unknown",
                "output": rate(price.output) if price else "unknown",
                "cache_read": rate(price.cache_read) if price else "unknown",
                "cache_write": (rate(price.cache_write) if price.cache_write is not None else "n/a")
                if price
                else "unknown",
                "context": _limit(info.context_tokens),
                "max_output": _limit(info.max_output_tokens),
                "retires": retires,
                "source": info.source or "not recorded",
                "checked": info.checked.isoformat() if info.checked else "never",
                "released": info.released.isoformat() if info.released else "not recorded",
                "snapshots": ", ".join(info.snapshots),
                "note": info.note,
            }
        )
    return rows
