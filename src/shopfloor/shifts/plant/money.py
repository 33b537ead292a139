"""The cost model (docs/COST_MODEL.md): assumed, editable rates and the pricing of each loss.

Downtime minutes and speed gaps are priced as machine time; trim, shear and each dry-end family as board.
Per-year figures scale a window by production days a year over the window's production days. Planned
maintenance and power outages are carried apart (schedule-driven, external): never ranked, never in the
recorded-losses total; ``all_in_usd`` adds them. Levers are ranked, never prescribed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

LossClass = Literal["controllable", "schedule-driven", "external"]


@dataclass(frozen=True)
class Rates:
    """The assumed rates printed under every priced answer."""

    board_usd_per_msf: float = 50.0
    machine_usd_per_hour: float = 1200.0
    production_days_per_year: int = 250
    reference_fpm: float = 675.0
    margin_usd_per_msf: float | None = None

    @property
    def machine_usd_per_min(self) -> float:
        """Machine time per minute."""
        return self.machine_usd_per_hour / 60.0

    def as_dict(self) -> dict[str, Any]:
        """JSON form for envelopes."""
        return asdict(self)

    def line(self) -> str:
        """The rates line shown as a caveat."""
        margin = "not set" if self.margin_usd_per_msf is None else f"${self.margin_usd_per_msf:,.2f}/MSF"
        return (
            f"Assumed rates: board ${self.board_usd_per_msf:,.0f}/MSF, machine time "
            f"${self.machine_usd_per_hour:,.0f}/h, {self.production_days_per_year} production days a year, "
            f"reference speed {self.reference_fpm:,.0f} ft/min, contribution margin {margin}."
        )


RATES = Rates()
COST_NOTE = (
    "Dollars are estimates from assumed rates, not accounting figures; a lever is ranked by its estimate, "
    "never prescribed."
)
FORMULAS = {
    "downtime": "minutes × machine $/h ÷ 60",
    "speed": "(reference ft/min × running minutes − lineal ft) ÷ reference ft/min × machine $/h ÷ 60",
    "board": "sq ft ÷ 1,000 × board $/MSF",
}


def kind_class(kind: str) -> LossClass:
    """Planned maintenance is schedule-driven, a power outage external, the rest controllable."""
    if kind == "PM":
        return "schedule-driven"
    if kind == "External":
        return "external"
    return "controllable"


def machine_usd(minutes: float, rates: Rates = RATES) -> float:
    """Machine time priced in dollars."""
    return round(minutes * rates.machine_usd_per_min, 2)


def board_usd(sqft: float, rates: Rates = RATES) -> float:
    """Board area priced in dollars."""
    return round(sqft / 1000.0 * rates.board_usd_per_msf, 2)


def speed_gap_minutes(feet: float, running_min: float, rates: Rates = RATES) -> float:
    """Minutes of machine time the run would have saved at the reference speed (never negative)."""
    shortfall = rates.reference_fpm * running_min - feet
    return round(max(0.0, shortfall) / rates.reference_fpm, 4)


def per_year(usd: float, production_days: int, rates: Rates = RATES) -> float | None:
    """A window's dollars scaled to a year of production days (None for an empty window)."""
    if production_days <= 0:
        return None
    return round(usd * rates.production_days_per_year / production_days, 2)


def contribution(sqft: float, rates: Rates = RATES) -> float | None:
    """Contribution lost on the area, or None while no margin is set."""
    if rates.margin_usd_per_msf is None:
        return None
    return round(sqft / 1000.0 * rates.margin_usd_per_msf, 2)
