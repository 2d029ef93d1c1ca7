"""Question dialogs in the chat panel, asked by a model (the stub server): choices, free text, a batch, cancel, stop."""

from __future__ import annotations

import re
from collections.abc import Callable

from browser_fixtures import save_screenshot
from chat_ui import ChatUI, tool_result
from llm_stub import LLMStub, call, text, tool_calls
from playwright.sync_api import expect

UNITS = {"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}
ROOMS = {"header": "Rooms", "question": "Which rooms should I compare?", "options": ["kitchen", "lounge", "study"],
         "multiple": True}
NAME = {"header": "Name", "question": "What should I call the report?"}


def asking(*questions: dict) -> tuple:
    """The model asks this batch, then answers."""
    return tool_calls(call("question", {"questions": list(questions)})), text("Thanks, noted.")


def option(ui: ChatUI, index: int):
    return ui.dialog.locator(f'[data-testid="question-option"][data-index="{index}"]')


def test_a_single_choice_is_answered_with_one_click_and_submit(chat: Callable[..., ChatUI],
                                                               model: Callable[..., LLMStub]) -> None:
    stub = model(*asking(UNITS))
    ui = chat()
    ui.ask("how big is the sofa?")
    expect(ui.dialog).to_be_visible()
    ui.wait_state("waiting")
    expect(ui.dialog.get_by_test_id("question-question")).to_have_text("Metric or imperial?")
    expect(ui.dialog.get_by_test_id("question-step")).to_be_hidden()  # one question: no stepper
    expect(ui.dialog.locator("input[type=radio]")).to_have_count(2)
    expect(ui.dialog.get_by_test_id("question-text")).to_have_count(0)  # options only: no free text
    expect(ui.dialog.get_by_test_id("question-countdown")).to_have_text(re.compile(r"^\d+:\d\d left$"))
    save_screenshot(ui.page, "chat-question-dialog.png")
    option(ui, 1).click()
    ui.dialog.get_by_test_id("question-submit").click()
    expect(ui.dialog).to_have_count(0)
    expect(ui.by_testid("question-note")).to_have_text("Answered: Units: imperial")
    expect(ui.wait_final()).to_contain_text("Thanks, noted.")
    answer = tool_result(stub.requests[1])
    assert answer["cancelled"] is False and answer["answers"][0]["answer"] == "imperial"
    [card] = ui.card_views()
    assert (card.tool, card.status) == ("question", "done")


def test_several_options_are_checkboxes(chat: Callable[..., ChatUI], model: Callable[..., LLMStub]) -> None:
    stub = model(*asking(ROOMS))
    ui = chat()
    ui.ask("compare the rooms")
    expect(ui.dialog.locator("input[type=checkbox]")).to_have_count(3)
    option(ui, 0).click()
    ui.dialog.press("3")  # the number keys toggle options too
    ui.dialog.get_by_test_id("question-submit").click()
    ui.wait_final()
    assert tool_result(stub.requests[1])["answers"][0]["selected"] == [0, 2]


def test_a_question_without_options_takes_free_text_and_enter_submits(chat: Callable[..., ChatUI],
                                                                      model: Callable[..., LLMStub]) -> None:
    stub = model(*asking(NAME))
    ui = chat()
    ui.ask("write a report")
    box = ui.dialog.get_by_test_id("question-text")
    expect(box).to_be_focused()
    box.fill("Kitchen survey")
    box.press("Enter")
    ui.wait_final()
    answer = tool_result(stub.requests[1])["answers"][0]
    assert (answer["answer"], answer["free_text"]) == ("Kitchen survey", True)


def test_a_batch_is_a_stepper_with_back_and_next(chat: Callable[..., ChatUI], model: Callable[..., LLMStub]) -> None:
    stub = model(*asking(UNITS, ROOMS, {**NAME, "options": ["Survey", "Notes"], "allow_free_text": True}))
    ui = chat()
    ui.ask("compare the rooms")
    step = ui.dialog.get_by_test_id("question-step")
    expect(step).to_have_text("Question 1 of 3")
    expect(ui.dialog.get_by_test_id("question-back")).to_be_disabled()
    expect(ui.dialog.get_by_test_id("question-submit")).to_be_hidden()
    ui.dialog.get_by_test_id("question-next").click()  # nothing chosen yet
    expect(ui.dialog.get_by_test_id("question-error")).to_have_text("Please answer this question first.")
    expect(step).to_have_text("Question 1 of 3")
    option(ui, 0).click()
    ui.dialog.get_by_test_id("question-next").click()
    expect(step).to_have_text("Question 2 of 3")
    option(ui, 1).click()
    option(ui, 2).click()
    ui.dialog.get_by_test_id("question-back").click()
    expect(step).to_have_text("Question 1 of 3")
    expect(option(ui, 0).locator("input")).to_be_checked()  # the answer is kept
    ui.dialog.get_by_test_id("question-next").click()
    expect(option(ui, 1).locator("input")).to_be_checked()
    ui.dialog.get_by_test_id("question-next").click()
    expect(step).to_have_text("Question 3 of 3")
    expect(ui.dialog.get_by_test_id("question-next")).to_be_hidden()
    option(ui, 0).click()
    ui.dialog.get_by_test_id("question-text").fill("Kitchen survey")  # own words replace the option
    expect(option(ui, 0).locator("input")).not_to_be_checked()
    ui.dialog.get_by_test_id("question-submit").click()
    ui.wait_final()
    answers = tool_result(stub.requests[1])["answers"]
    assert [a["answer"] for a in answers] == ["metric", ["lounge", "study"], "Kitchen survey"]


def test_cancel_sends_the_answers_given_so_far(chat: Callable[..., ChatUI], model: Callable[..., LLMStub]) -> None:
    stub = model(*asking(UNITS, ROOMS, NAME))
    ui = chat()
    ui.ask("compare the rooms")
    option(ui, 1).click()
    ui.dialog.get_by_test_id("question-next").click()
    ui.dialog.get_by_test_id("question-cancel").click()
    expect(ui.dialog).to_have_count(0)
    expect(ui.by_testid("question-note")).to_have_text("Question cancelled (1 of 3 answered)")
    ui.wait_final()
    result = tool_result(stub.requests[1])
    assert result["cancelled"] is True and [(a["question_index"], a["answer"]) for a in result["answers"]] == [(0, "imperial")]


def test_stop_closes_the_dialog_and_ends_the_run(chat: Callable[..., ChatUI], model: Callable[..., LLMStub]) -> None:
    model(*asking(UNITS))
    ui = chat()
    ui.ask("how big is the sofa?")
    expect(ui.dialog).to_be_visible()
    ui.by_testid("chat-stop").click()
    expect(ui.dialog).to_have_count(0)  # closed by the question_answered event, not by the user
    ui.wait_final("cancelled")


def test_the_dialog_speaks_chinese(chat: Callable[..., ChatUI], model: Callable[..., LLMStub]) -> None:
    model(*asking(UNITS, ROOMS))
    ui = chat()
    ui.ask("compare the rooms")
    expect(ui.dialog).to_be_visible()
    ui.by_testid("lang-switch").locator('[data-lang="zh"]').click()
    expect(ui.dialog.get_by_test_id("question-step")).to_have_text("问题 1/2")
    expect(ui.dialog.get_by_test_id("question-next")).to_have_text("下一题")
    expect(ui.dialog.get_by_test_id("question-cancel")).to_have_text("取消")
    save_screenshot(ui.page, "chat-question-dialog-zh.png")
    ui.dialog.get_by_test_id("question-cancel").click()
    ui.wait_final()
    expect(ui.by_testid("question-note")).to_have_text("问题已取消（已回答 0/2）")


def test_concurrent_tool_calls_each_get_their_own_card(chat: Callable[..., ChatUI], model: Callable[..., LLMStub]) -> None:
    model(tool_calls(call("color", {"code": "0-1-1"}), call("volume", {"code": "0-1-2"}), call("color", {"code": "9-9-9"})),
          text("Chair 0-1-1 is red; chair 0-1-2 is about 0.3 m³."))
    ui = chat()
    ui.ask("colour of one chair and size of the other")
    final = ui.wait_final()
    views = ui.card_views()
    assert [v.tool for v in views] == ["color", "volume", "color"] and len({v.call_id for v in views}) == 3
    assert [v.status for v in views] == ["done", "done", "failed"]
    expect(ui.card(views[2].call_id).locator("svg.card-icon")).to_have_attribute("data-icon", "failed")
    expect(final.locator('[data-testid="swatch-group"]')).to_have_count(1)
    expect(final.locator('[data-testid="swatch-group"][data-code="0-1-1"] [data-testid="swatch"]').first).to_be_visible()


def test_an_unreachable_model_is_an_error_state(chat: Callable[..., ChatUI], monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    ui = chat()
    ui.ask("how big is the sofa?")
    final = ui.wait_final("error")
    expect(final.get_by_test_id("final-status")).to_have_text("Error")
    ui.wait_state("error")
    expect(ui.input).to_be_enabled()
