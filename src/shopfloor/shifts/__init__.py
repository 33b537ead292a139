"""Shift Investigator."""
