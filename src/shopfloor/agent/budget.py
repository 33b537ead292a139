"""Spend under a monthly cap: the hook the loop calls around each model call, and its pure rules.

Before each call the loop asks its :class:`Budget` to reserve the call's worst case (:func:`worst_case_usd`);
after it, the loop settles the reservation with the real cost. A reservation that would pass the cap raises
:class:`BudgetExhausted` and the call is not made. The ledger behind a budget (``shopfloor.agent.spend``)
does the reserving atomically in the database. docs/pricing.md, "Spend under a cap", is the rule set.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Any, Protocol

from shopfloor.agent.pricing import FREE_MODELS, price_for

# Money in the ledger is whole nanodollars (1e-9 USD): integer sums are exact on every database, and the
# cheapest call we price (a few tokens of Flash-Lite) is still thousands of them.
NANO_PER_USD = 1_000_000_000
# Tokens a provider adds around what we send (tool-use framing, role markers); counted in the worst case.
PROMPT_OVERHEAD_TOKENS = 1024
# The error code both apps answer with when a call would pass the cap.
EXHAUSTED = "budget_exhausted"


@dataclass(frozen=True)
class Hold:
    """One reservation: the ledger row, its month, the model and the worst case held for it."""

    id: str
    month: str
    model: str
    reserved_nano: int


class BudgetExhausted(Exception):
    """A model call refused before it was made: its worst case would pass the monthly cap (or its price is
    unknown while a cap is in force)."""

    def __init__(self, message: str, cap_usd: float | None = None, spent_usd: float | None = None) -> None:
        super().__init__(message)
        self.cap_usd = cap_usd
        self.spent_usd = spent_usd

    def as_dict(self) -> dict[str, Any]:
        """The loop's error form: ``{"type": "budget_exhausted", "message", "cap_usd", "spent_usd"}``."""
        return {"type": EXHAUSTED, "message": str(self), "cap_usd": self.cap_usd, "spent_usd": self.spent_usd}


class Budget(Protocol):
    """What ``run_loop`` calls before and after each model call (``budget=``)."""

    def reserve(self, model: str, prompt_bytes: int, max_tokens: int) -> Hold | None:
        """Hold the call's worst case, or raise :class:`BudgetExhausted`. None: nothing to hold (free)."""
        ...

    def settle(self, hold: Hold, cost_usd: float | None) -> None:
        """Replace the hold with the real cost; None (unknown) keeps the worst case as spent."""
        ...


def worst_case_usd(model: str, prompt_bytes: int, max_tokens: int) -> float | None:
    """The most one call can cost: the request's bytes (a token is never shorter than a byte, so bytes bound
    the prompt tokens) plus :data:`PROMPT_OVERHEAD_TOKENS` at the dearer of the input and cache-write rates,
    and ``max_tokens`` at the output rate, with the long-prompt multipliers when the bound passes their
    threshold. 0 for the offline planners; None when the model has no known price."""
    if model in FREE_MODELS:
        return 0.0
    price = price_for(model)
    if price is None:
        return None
    prompt = prompt_bytes + PROMPT_OVERHEAD_TOKENS
    input_rate, output_rate, write_rate = price.input, price.output, price.cache_write or 0.0
    if price.long_prompt_tokens is not None and prompt > price.long_prompt_tokens:
        input_rate *= price.long_input_factor
        write_rate *= price.long_input_factor  # cache rates are multiplied too (docs/pricing.md)
        output_rate *= price.long_output_factor
    input_rate = max(input_rate, write_rate)
    return (prompt * input_rate + max_tokens * output_rate) / 1_000_000


def to_nano(usd: float, round_up: bool = False) -> int:
    """Dollars as whole nanodollars: reservations round up (never hold less than the worst case), costs to
    the nearest."""
    if not math.isfinite(usd) or usd < 0:
        raise ValueError(f"not an amount of money: {usd!r}")
    rounding = ROUND_CEILING if round_up else ROUND_HALF_UP
    return int((Decimal(repr(usd)) * NANO_PER_USD).to_integral_value(rounding))


def to_usd(nano: int | None) -> float | None:
    """Whole nanodollars as dollars (None stays None)."""
    return None if nano is None else nano / NANO_PER_USD


def settle_cost(error_kind: str | None, cost_usd: float | None) -> float | None:
    """What a finished call is charged: its priced cost; 0 when the provider answered with an HTTP error
    (``api``, ``rate_limit``: nothing was generated); unknown (None, the worst case stays spent) when the call
    failed without an answer (timeout, connection, aborted, unreadable answer), since it may have been
    billed."""
    if error_kind is None:
        return cost_usd
    if error_kind in ("api", "rate_limit"):
        return 0.0
    return None
