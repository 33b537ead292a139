"""Shift Investigator measures as pure functions over record values."""
