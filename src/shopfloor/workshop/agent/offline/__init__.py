"""The offline note reader: a deterministic provider that reads a workshop note as a careful model would.

``vocabulary`` holds the word tables, ``reader`` turns a note into events (with one module per job: text,
codes, names, quantities, stages, signals, corrections, segments, events), ``provider`` plans each turn from
the events and the tool results so far. The package's face is :class:`OfflineReader`.
"""

from shopfloor.workshop.agent.offline.provider import OfflineReader

__all__ = ["OfflineReader"]
