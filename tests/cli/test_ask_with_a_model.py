"""`ask` through an OpenAI-compatible server: OPENAI_API_KEY / OPENAI_BASE_URL / SCENE_AGENT_MODEL, the real client, a stub server."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run_cli
from llm_stub import LLMStub, call, text, tool_calls


def model_env(env: dict[str, str], stub: LLMStub) -> dict[str, str]:
    """The CLI's environment pointed at the stub server."""
    return {**env, "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": stub.base_url, "SCENE_AGENT_MODEL": "stub-model"}


def events_of(stdout: str) -> list[dict]:
    """NDJSON lines."""
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_ask_runs_the_model_s_tool_calls_and_prints_its_answer(env: dict[str, str], demo_path: Path) -> None:
    with LLMStub(tool_calls(call("find", {"query": "sofa"})),
                 tool_calls(call("volume", {"code": "0-2-1"}), call("color", {"code": "0-2-1"})),
                 text("The sofa 0-2-1 is grey and about 1.6 m³.")) as stub:
        out = run_cli("ask", "how big is the sofa?", "--json", env=model_env(env, stub))
        assert stub.remaining == 0
    assert out.returncode == 0, out.stderr
    events = events_of(out.stdout)
    assert [e["tool_name"] for e in events if e["type"] == "tool_call_result"][:1] == ["find"]
    assert sorted(e["tool_name"] for e in events if e["type"] == "tool_call_result") == ["color", "find", "volume"]
    final = events[-1]
    assert final["type"] == "final" and final["status"] == "answered"
    assert final["answer"] == "The sofa 0-2-1 is grey and about 1.6 m³." and final["codes"] == ["0-2-1"]
    first = stub.requests[0]
    assert first["model"] == "stub-model" and stub.headers[0]["authorization"] == "Bearer sk-test"
    assert [t["function"]["name"] for t in first["tools"]] == ["find", "visualize", "color", "volume", "measure", "question"]
    tool_messages = [m for m in stub.requests[2]["messages"] if m["role"] == "tool"]
    assert {m["tool_call_id"] for m in tool_messages} == {"call_1", "call_2", "call_3"}


def test_no_questions_takes_the_question_tool_away(env: dict[str, str], demo_path: Path) -> None:
    with LLMStub(text("Hello.")) as stub:
        out = run_cli("ask", "hello", "--no-questions", "--json", env=model_env(env, stub))
    assert out.returncode == 0, out.stderr
    assert "question" not in [t["function"]["name"] for t in stub.requests[0]["tools"]]


def test_the_setting_takes_the_question_tool_away_too(env: dict[str, str], demo_path: Path) -> None:
    with LLMStub(text("Hello.")) as stub:
        out = run_cli("ask", "hello", "--json", env={**model_env(env, stub), "SCENE_AGENT_NO_QUESTIONS": "1"})
    assert out.returncode == 0, out.stderr
    assert "question" not in [t["function"]["name"] for t in stub.requests[0]["tools"]]


def test_a_question_without_a_terminal_is_no_ui_not_a_hang(env: dict[str, str], demo_path: Path) -> None:
    question = {"questions": [{"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}]}
    with LLMStub(tool_calls(call("question", question)), text("I will use metric units.")) as stub:
        out = run_cli("ask", "how big is the sofa in feet or meters?", "--json", env=model_env(env, stub))
        tool_message = next(m for m in stub.requests[1]["messages"] if m["role"] == "tool")
    events = events_of(out.stdout)
    [error] = [e for e in events if e["type"] == "tool_call_error"]
    assert error["tool_name"] == "question" and error["error"]["code"] == "no_ui"
    assert [e["status"] for e in events if e["type"] == "question_answered"] == ["no_ui"]
    assert json.loads(tool_message["content"])["error"] == "no_ui"
    assert events[-1]["status"] == "answered" and out.returncode == 0


def test_an_unreachable_model_server_is_one_clear_error(env: dict[str, str], demo_path: Path) -> None:
    out = run_cli("ask", "how big is the sofa?", "--json",
                  env={**env, "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert out.returncode == 1
    final = events_of(out.stdout)[-1]
    assert final["status"] == "error" and "http://127.0.0.1:9/v1" in final["answer"]
    assert "Traceback" not in out.stderr
