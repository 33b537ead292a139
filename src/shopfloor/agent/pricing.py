"""Prices per million tokens and the cost of a call. Source and date: docs/pricing.md.

The prices are the ``price`` column of the model table in ``shopfloor.agent.capabilities``; docs/pricing.md
shows :func:`price_table_markdown` of it (a test keeps the two equal). An unknown model, or a known one with
no published price, costs None (unknown), never zero; the offline planners cost exactly zero.
"""

from __future__ import annotations

from shopfloor.agent.capabilities import CAPABILITIES_AS_OF, MODELS, Price, model_info
from shopfloor.agent.providers.base import Usage

__all__ = ["FREE_MODELS", "PRICES", "PRICES_AS_OF", "Price", "cost_usd", "price_for", "price_table_markdown"]

PRICES_AS_OF = CAPABILITIES_AS_OF

PRICES: dict[str, Price] = {info.name: info.price for info in MODELS if info.price is not None}

FREE_MODELS = {"offline-reader", "offline-planner", "scripted", "scripted-model"}


def price_for(model: str) -> Price | None:
    """The price row for ``model``; dated snapshots ("claude-haiku-4-5-20251001") match their family."""
    info = model_info(model)
    return info.price if info is not None else None


def cost_usd(model: str, usage: Usage) -> float | None:
    """Dollars for one call, or None when the model has no known price."""
    if model in FREE_MODELS:
        return 0.0
    price = price_for(model)
    if price is None:
        return None
    if price.cache_read is None and usage.cache_read:
        return None  # no published cache-read rate: the call's cost is unknown
    input_rate, output_rate = price.input, price.output
    read_rate, write_rate = price.cache_read or 0.0, price.cache_write
    if price.long_prompt_tokens is not None and usage.prompt_tokens > price.long_prompt_tokens:
        # "2x input and cache rates and 1.5x output for the full request" (docs/pricing.md)
        input_rate *= price.long_input_factor
        read_rate *= price.long_input_factor
        write_rate = write_rate * price.long_input_factor if write_rate is not None else None
        output_rate *= price.long_output_factor
    write = write_rate if write_rate is not None else input_rate
    total = (
        usage.input_tokens * input_rate
        + usage.output_tokens * output_rate
        + usage.cache_read * read_rate
        + usage.cache_write * write
    )
    return round(total / 1_000_000, 8)


def _rate(value: float | None, missing: str = "n/a") -> str:
    if value is None:
        return missing
    return f"{value:.2f}" if round(value, 2) == value else f"{value:g}"


def price_table_markdown() -> str:
    """The price and retirement table of docs/pricing.md, from the model table."""
    lines = [
        "| model | provider | input | output | cache read | cache write | long prompt | retires (replacement) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for info in MODELS:
        price = info.price
        if price is None:
            cells = ["unknown"] * 4 + ["-"]
        else:
            long = "-"
            if price.long_prompt_tokens is not None:
                long = (
                    f"> {price.long_prompt_tokens:,} tokens: input and cache × {price.long_input_factor:g}, "
                    f"output × {price.long_output_factor:g}"
                )
            cells = [
                _rate(price.input),
                _rate(price.output),
                _rate(price.cache_read, "unknown"),
                _rate(price.cache_write),
                long,
            ]
        retires = "-"
        if info.retires is not None:
            via = "routed to " if info.routed else ""
            retires = info.retires.isoformat() + (f" ({via}{info.replacement})" if info.replacement else "")
        lines.append(f"| {info.name} | {info.provider} | " + " | ".join(cells) + f" | {retires} |")
    return "\n".join(lines) + "\n"
