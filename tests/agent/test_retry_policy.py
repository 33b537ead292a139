"""The loop's retry policy as rules (shopfloor.agent.retry; docs/providers.md, "Retries, timeouts, errors")."""

from datetime import UTC, datetime

import pytest

from shopfloor.agent.providers.base import ProviderError
from shopfloor.agent.retry import RetryPolicy, google_retry_delay_s, retry_after_s, retryable

NOW = datetime(2026, 12, 2, 1, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "20"}, 20.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "250", "retry-after": "20"}, 0.25),  # the finer one wins
        ({"retry-after": "Wed, 02 Dec 2026 01:00:07 GMT"}, 7.0),
        ({"retry-after": "Wed, 02 Dec 2026 00:59:00 GMT"}, 0.0),  # a date already past: no pause
        ({"retry-after": "soon"}, None),
        ({"retry-after": "-3"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_retry_after_in_seconds_milliseconds_or_an_http_date(headers, expected):
    assert retry_after_s(headers, now=NOW) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {
                "error": {
                    "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "20s"}]
                }
            },
            20.0,
        ),
        (
            {
                "error": {
                    "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1.5s"}]
                }
            },
            1.5,
        ),
        (
            {
                "details": [
                    {
                        "@type": "type.googleapis.com/google.rpc.RetryInfo",
                        "retryDelay": {"seconds": 3, "nanos": 500000000},
                    }
                ]
            },
            3.5,
        ),
        ({"error": {"details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure"}]}}, None),
        ({"error": {"code": 429}}, None),
        ("not json", None),
    ],
)
def test_geminis_retry_info_delay(body, expected):
    assert google_retry_delay_s(body) == expected


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (ProviderError("rate_limit", "429", 429), True),
        (ProviderError("api", "408", 408), True),
        (ProviderError("api", "409", 409), True),
        (ProviderError("api", "500", 500), True),
        (ProviderError("api", "529", 529), True),
        (ProviderError("connection", "refused"), True),
        (ProviderError("api", "400", 400), False),
        (ProviderError("api", "401", 401), False),
        (ProviderError("timeout", "slow"), False),
        (ProviderError("aborted", "gone"), False),
        (ProviderError("bad_response", "junk"), False),
    ],
)
def test_only_errors_a_later_attempt_can_cure_are_retried(error, expected):
    assert retryable(error) is expected


def test_backoff_doubles_up_to_its_cap_and_jitter_only_shortens_it():
    policy = RetryPolicy(max_retries=5, initial_delay_s=0.5, max_delay_s=3.0, jitter=0.25)
    assert [policy.backoff_s(n, rng=lambda: 0.0) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 3.0]
    assert policy.backoff_s(1, rng=lambda: 1.0) == 0.375


def test_the_pause_asked_for_is_kept_and_retries_run_out():
    policy = RetryPolicy(max_retries=2)
    asked = ProviderError("rate_limit", "429", 429, retry_after_s=7.0)
    assert policy.wait_s(asked, 1) == 7.0
    assert policy.wait_s(asked, 3) is None  # two retries at most
    assert policy.wait_s(ProviderError("rate_limit", "429", 429, retry_after_s=600.0), 1) is None
    assert policy.wait_s(ProviderError("api", "401", 401), 1) is None
