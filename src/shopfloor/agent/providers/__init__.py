"""Model providers behind one neutral turn type.

``base`` holds the neutral types; ``scripted`` is for tests; ``anthropic``, ``openai`` and ``gemini``
adapt the official SDKs; ``replay`` feeds recorded HTTP exchanges through those real SDK clients.
"""
