"""Shared ASGI pieces: request ids, the error envelope, security headers, body limits, and the main app."""
