"""Project-wide pytest options."""


def pytest_addoption(parser):
    parser.addoption(
        "--record",
        action="store_true",
        default=False,
        help="Record provider exchanges live (needs the provider's API key) instead of replaying them.",
    )
