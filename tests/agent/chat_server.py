"""A stand-in for the local servers people run, speaking Chat Completions over real HTTP on 127.0.0.1
(:mod:`tests.agent.stand_in`).

It plays a scripted model: a script is a list of turns, each a :class:`Calls` (tool calls) or a :class:`Say`
(the final text), and a request gets the turn after the assistant messages it already carries. The default
script looks up ``Rosa`` and ``Ana`` with the ``lookup`` tool, then says the final text; the end-to-end tests
script the workshop sample note and a shift question the same way. A text may hold ``{run}``, filled with
the run's result-id tag read from the request (a model learns ids like ``r1-3fa9c0`` from the results it
was sent). A :class:`Behaviour` changes one
thing the way one server family does it (the shape of a tool call, the finish reason, what it refuses), so
each test plays one behaviour through the real ``openai`` SDK and the real adapter. The server checks what a
strict server checks (every ``tool`` message answers a call id the assistant message carried, no empty or
null ids), so an id the adapter failed to repair is a 400 here as on llama.cpp or LM Studio. It counts the
calls it answered.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from tests.agent.stand_in import StandInHandler, StandInServer

FINAL_TEXT = "I understood: Rosa and Ana were looked up."


@dataclass(frozen=True)
class Calls:
    """A turn of tool calls: ``(name, arguments)`` pairs, in order."""

    calls: tuple[tuple[str, dict[str, Any]], ...]


@dataclass(frozen=True)
class Say:
    """The final turn: this text (``{run}`` is the run's result-id tag)."""

    text: str


Script = tuple[Calls | Say, ...]
LOOKUP_SCRIPT: Script = (Calls((("lookup", {"name": "Rosa"}), ("lookup", {"name": "Ana"}))), Say(FINAL_TEXT))
_RUN_TAG = re.compile(r"\br\d+-([0-9a-f]{6})\b")


@dataclass(frozen=True)
class Behaviour:
    """One server quirk. Defaults are the documented wire format."""

    name: str
    call_type: str | None = "function"  # None: the tool call carries no ``type``
    # Call ids, by call index (cycled); a string may name ``{turn}`` and ``{index}``. None: no ``id`` key.
    ids: tuple[Any, ...] | None = ("call_t{turn}c{index}",)
    tool_finish: str | None = "tool_calls"
    end_finish: str | None = "stop"
    arguments_as_object: bool = False
    content_parts: bool = False  # the final text as a list of text parts
    usage: bool = True
    model: bool = True
    reasoning_content: bool = False  # the message carries the model's reasoning beside the content
    refuse_strict: bool = False  # 400 on ``strict`` in a function tool (LocalAI v4.9.0, llama-cpp backend)
    refuse_tool_choice: bool = False  # 400 on any ``tool_choice``
    context_tokens: int | None = None  # 400 when the prompt estimate plus ``max_tokens`` passes it
    refuse_tools: bool = False  # the model has no tool support: 400 on any ``tools``


@dataclass
class Seen:
    """What the server saw, shared with the test."""

    bodies: list[dict[str, Any]] = field(default_factory=list)
    answered: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _refusal(body: dict[str, Any], behaviour: Behaviour) -> str | None:
    """Why this server would answer 400, or None."""
    tools = body.get("tools") or []
    if behaviour.refuse_tools and tools:
        return f"model {body.get('model')} does not support tools"
    if behaviour.refuse_strict and any("strict" in t.get("function", {}) for t in tools):
        return "Unrecognized request argument supplied: strict"
    if behaviour.refuse_tool_choice and "tool_choice" in body:
        return "tool_choice is not supported"
    if behaviour.context_tokens is not None:
        prompt = len(json.dumps(body.get("messages"), ensure_ascii=False).encode()) // 4
        prompt += len(json.dumps(tools).encode()) // 4
        if prompt + int(body.get("max_tokens") or 0) > behaviour.context_tokens:
            return (
                f"the request exceeds the available context size ({behaviour.context_tokens} tokens), "
                "try increasing it"
            )
    known: set[str] = set()
    for message in body.get("messages", []):
        for call in message.get("tool_calls") or []:
            call_id = call.get("id")
            if not isinstance(call_id, str) or not call_id:
                return "assistant tool_calls[].id must be a non-empty string"
            if isinstance(call.get("function", {}).get("arguments"), dict):
                return "tool_calls[].function.arguments must be a string"
            known.add(call_id)
        if message.get("role") == "tool" and message.get("tool_call_id") not in known:
            return f"tool_call_id {message.get('tool_call_id')!r} answers no tool call"
    return None


def _call_id(behaviour: Behaviour, turn: int, index: int) -> Any:
    assert behaviour.ids is not None
    value = behaviour.ids[index % len(behaviour.ids)]
    return value.format(turn=turn, index=index) if isinstance(value, str) else value


def _answer(body: dict[str, Any], behaviour: Behaviour, script: Script, number: int) -> dict[str, Any]:
    messages = body.get("messages", [])
    turn = sum(1 for m in messages if m.get("role") == "assistant")
    step = script[min(turn, len(script) - 1)]
    message: dict[str, Any] = {"role": "assistant"}
    if isinstance(step, Say):
        tags = _RUN_TAG.findall(json.dumps(messages))
        text = step.text.replace("{run}", tags[-1]) if tags else step.text
        message["content"] = [{"type": "text", "text": text}] if behaviour.content_parts else text
        finish = behaviour.end_finish
    else:
        message["content"] = None
        calls = []
        for index, (name, arguments) in enumerate(step.calls):
            call: dict[str, Any] = {
                "function": {
                    "name": name,
                    "arguments": arguments if behaviour.arguments_as_object else json.dumps(arguments),
                }
            }
            if behaviour.call_type is not None:
                call["type"] = behaviour.call_type
            if behaviour.ids is not None:
                call["id"] = _call_id(behaviour, turn, index)
            calls.append(call)
        message["tool_calls"] = calls
        finish = behaviour.tool_finish
    if behaviour.reasoning_content:
        message["reasoning_content"] = "The note names two people; look both up."
    answer: dict[str, Any] = {
        "id": f"chatcmpl-{behaviour.name}-{number}",
        "object": "chat.completion",
        "created": 1796032800 + number,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    if behaviour.model:
        answer["model"] = "qwen3-8b-instruct-q4_k_m"
    if behaviour.usage:
        answer["usage"] = {
            "prompt_tokens": 300 + number,
            "completion_tokens": 20,
            "total_tokens": 320 + number,
        }
    return answer


class ChatServer(StandInServer):
    """``with ChatServer(Behaviour("...")) as server:`` serves ``{server.url}/chat/completions``, playing
    ``script`` (the lookup turns by default)."""

    url_path = "/v1"  # the server's base URL is given to the SDK with its version path

    def __init__(self, behaviour: Behaviour, script: Script = LOOKUP_SCRIPT) -> None:
        self.behaviour = behaviour
        self.script = script
        self.seen = Seen()
        outer = self

        class Handler(StandInHandler):
            def do_POST(self) -> None:
                body = json.loads(self.read_body() or b"{}")
                with outer.seen.lock:
                    outer.seen.bodies.append(body)
                    number = len(outer.seen.bodies)
                if self.path != "/v1/chat/completions":
                    self.send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                refused = _refusal(body, outer.behaviour)
                if refused is not None:
                    self.send_json(
                        400, {"error": {"code": 400, "message": refused, "type": "invalid_request_error"}}
                    )
                    return
                with outer.seen.lock:
                    outer.seen.answered += 1
                self.send_json(200, _answer(body, outer.behaviour, outer.script, number))

        super().__init__(Handler)
