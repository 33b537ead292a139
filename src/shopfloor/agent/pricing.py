"""Prices per million tokens and the cost of a call. Source and date: docs/pricing.md.

An unknown model costs None (unknown), never zero; the offline planners cost exactly zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from shopfloor.agent.providers.base import Usage

PRICES_AS_OF = "2026-11"


@dataclass(frozen=True)
class Price:
    """USD per million tokens. ``cache_write`` None means the provider does not bill cache writes apart."""

    input: float
    output: float
    cache_read: float
    cache_write: float | None = None


PRICES: dict[str, Price] = {
    "gemini-2.5-flash-lite": Price(0.10, 0.40, 0.01),
    "gemini-2.5-flash": Price(0.30, 2.50, 0.03),
    "claude-haiku-4-5": Price(1.00, 5.00, 0.10, 1.25),
    "claude-sonnet-5-5": Price(2.00, 10.00, 0.20, 2.50),
    "claude-opus-5-5": Price(4.00, 20.00, 0.20, 5.00),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-5-mini": Price(0.25, 2.00, 0.025),
}

FREE_MODELS = {"offline-reader", "offline-planner", "scripted", "scripted-model"}


def price_for(model: str) -> Price | None:
    """The price row for ``model``; dated snapshots ("claude-haiku-4-5-20251001") match their family."""
    if model in PRICES:
        return PRICES[model]
    for name in sorted(PRICES, key=len, reverse=True):
        if model.startswith(name + "-") or model.startswith("models/" + name):
            return PRICES[name]
    return None


def cost_usd(model: str, usage: Usage) -> float | None:
    """Dollars for one call, or None when the model has no known price."""
    if model in FREE_MODELS:
        return 0.0
    price = price_for(model)
    if price is None:
        return None
    write_rate = price.cache_write if price.cache_write is not None else price.input
    total = (
        usage.input_tokens * price.input
        + usage.output_tokens * price.output
        + usage.cache_read * price.cache_read
        + usage.cache_write * write_rate
    )
    return round(total / 1_000_000, 8)
