"""The replay transport and the recorder (the 'real' server here is a mock transport behind it)."""

import gzip
import json

import httpx2

from shopfloor.agent.providers.replay import Exchange, Recorder, Replay, subset_problems

KEY = "sk-live-abcdefghijklmnop"


def test_replay_routes_on_method_and_path_and_counts_calls():
    replay = Replay(
        [
            Exchange("POST", "/v1/a", 200, {"n": 1}),
            Exchange("GET", "/v1/b", 200, {"n": 2}),
            Exchange("POST", "/v1/a", 201, {"n": 3}, expect={"x": 1}),
        ]
    )
    client = replay.http_client()
    assert client.get("https://h/v1/b").json() == {"n": 2}
    assert client.post("https://h/v1/a", json={"x": 1}).json() == {"n": 1}
    third = client.post("https://h/v1/a", json={"x": 2, "y": 0})
    assert (third.status_code, third.json()) == (201, {"n": 3})
    assert replay.problems == ["exchange 2: $.x: expected 1, got 2"]
    missing = client.post("https://h/v1/a", json={})
    assert missing.status_code == 404 and missing.headers["x-should-retry"] == "false"
    assert replay.problems[-1] == "no recorded exchange left for POST /v1/a"
    assert len(replay.calls) == 4 and replay.remaining == 0


def test_captured_requests_drop_credentials():
    replay = Replay([Exchange("POST", "/p", 200, {})])
    replay.http_client().post(
        "https://h/p", json={}, headers={"x-api-key": KEY, "authorization": f"Bearer {KEY}"}
    )
    assert "x-api-key" not in replay.calls[0].headers and "authorization" not in replay.calls[0].headers


def test_subset_matching():
    assert subset_problems({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2, "c": 3}], "z": 0}) == []
    assert subset_problems({"a": [1]}, {"a": [1, 2]}) == ["$.a: expected a list of 1, got [1, 2]"]
    assert subset_problems({"a": 1}, {}) == ["$.a: missing"]


def test_recorder_writes_exchanges_without_secrets_and_they_replay(tmp_path):
    def server(request):
        assert request.headers["x-api-key"] == KEY  # the real request still carries the key
        return httpx2.Response(
            200,
            headers={"request-id": "req_1", "set-cookie": "s=1", "retry-after-ms": "5"},
            json={"echo": f"key {KEY} seen", "ok": True},
        )

    path = tmp_path / "rec" / "one.json"
    recorder = Recorder(path, secret=KEY, inner=httpx2.MockTransport(server))
    response = recorder.http_client().post(
        "https://api.example/v1/messages", json={"prompt": "hi", "key": KEY}, headers={"x-api-key": KEY}
    )
    assert response.json()["ok"] is True
    text = path.read_text()
    assert KEY not in text and "set-cookie" not in text and "x-api-key" not in text
    data = json.loads(text)
    exchange = data["exchanges"][0]
    assert exchange["request"] == {"prompt": "hi", "key": "[redacted]"}
    assert exchange["headers"] == {
        "content-type": "application/json",
        "retry-after-ms": "5",
        "request-id": "req_1",
    }
    replayed = Replay.from_file(path).http_client().post("https://api.example/v1/messages", json={})
    assert replayed.json() == {"echo": "key [redacted] seen", "ok": True}


def test_recorder_passes_a_compressed_answer_on_decoded(tmp_path):
    def server(request):
        return httpx2.Response(
            200, headers={"content-encoding": "gzip"}, content=gzip.compress(b'{"ok": true}')
        )

    recorder = Recorder(tmp_path / "gz.json", secret=KEY, inner=httpx2.MockTransport(server))
    assert recorder.http_client().get("https://h/x").json() == {"ok": True}
    assert json.loads((tmp_path / "gz.json").read_text())["exchanges"][0]["response"] == {"ok": True}
