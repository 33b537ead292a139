"""Toquilla Trace domain rules as pure functions (stages, grades, codes, weavers, advancing, anomalies)."""
