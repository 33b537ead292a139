"""shopfloor: governed LLM assistants for small manufacturers.

Two apps on one core: ``shopfloor.workshop`` (Toquilla Trace) and ``shopfloor.shifts`` (Shift Investigator),
both built on ``shopfloor.agent``, where the model only proposes or asks and code owns the rules.
"""

__version__ = "0.1.0"
