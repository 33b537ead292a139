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
    (they bill at the input rate). Above ``long_prompt_tokens`` prompt tokens, input and output rates are
    multiplied by the two factors."""

    input: float
    output: float
    cache_read: float
    cache_write: float | None = None
    long_prompt_tokens: int | None = None
    long_input_factor: float = 1.0
    long_output_factor: float = 1.0


@dataclass(frozen=True)
class ModelInfo:
    """One model: who serves it, how it thinks, what it accepts, what it costs and when it leaves."""

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

    def default_effort(self) -> str | None:
        """``medium`` when the model accepts it, else no effort."""
        return "medium" if "medium" in self.efforts else None


_CLAUDE_EFFORTS = ("low", "medium", "high", "xhigh", "max")

MODELS: tuple[ModelInfo, ...] = (
    ModelInfo(
        "gemini-2.5-flash-lite",
        "gemini",
        reasoning=False,
        thinking="none",
        price=Price(0.10, 0.40, 0.01),
        validated_calls=True,
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
    ),
    # The replacement of 2.5 Flash; its rates were not published to us, so its cost reads as unknown.
    ModelInfo("gemini-3.5-flash-lite", "gemini", reasoning=True, thinking="none", validated_calls=True),
    ModelInfo(
        "claude-haiku-4-5",
        "anthropic",
        reasoning=True,
        thinking="budget",
        min_cache_tokens=4096,
        price=Price(1.00, 5.00, 0.10, 1.25),
    ),
    ModelInfo("claude-sonnet-4-5", "anthropic", reasoning=True, thinking="budget"),
    ModelInfo("claude-opus-4-5", "anthropic", reasoning=True, thinking="budget"),
    ModelInfo(
        "claude-sonnet-5-5",
        "anthropic",
        reasoning=True,
        thinking="adaptive",
        efforts=_CLAUDE_EFFORTS,
        price=Price(2.00, 10.00, 0.20, 2.50),
    ),
    ModelInfo(
        "claude-opus-5-5",
        "anthropic",
        reasoning=True,
        thinking="adaptive",
        efforts=_CLAUDE_EFFORTS,
        min_cache_tokens=512,
        price=Price(4.00, 20.00, 0.20, 5.00),
    ),
    ModelInfo(
        "gpt-4.1-mini",
        "openai",
        reasoning=False,
        thinking="none",
        price=Price(0.40, 1.60, 0.10),
        retires=date(2027, 1, 14),
        replacement="gpt-6.1-terra",
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
    ),
    ModelInfo(
        "gpt-6.1-terra",
        "openai",
        reasoning=True,
        thinking="none",
        efforts=("none", "low", "medium", "high", "xhigh", "max"),
        price=Price(
            1.00, 5.00, 0.05, 1.25, long_prompt_tokens=272_000, long_input_factor=2.0, long_output_factor=1.5
        ),
    ),
)

BY_NAME: dict[str, ModelInfo] = {info.name: info for info in MODELS}


def model_info(model: str) -> ModelInfo | None:
    """The row for ``model``; dated snapshots ("claude-haiku-4-5-20251001", "gemini-2.5-flash-lite-001")
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
    if info is None or info.retires is None or today < info.retires:
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
