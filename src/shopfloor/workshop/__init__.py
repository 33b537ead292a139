"""Toquilla Trace."""
