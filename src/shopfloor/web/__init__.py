"""Shared ASGI edge pieces both apps import: request ids, the error envelope, security headers, body limits."""
