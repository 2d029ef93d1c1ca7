"""The words the CLI shows people, in English and Simplified Chinese, and which language to use.

The language comes from SCENE_AGENT_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG): Chinese for
any `zh*` value, English otherwise. Keys are few on purpose; add one when a new string is shown.
"""

from __future__ import annotations

import os
from typing import Literal

Lang = Literal["en", "zh"]

MESSAGES: dict[str, dict[Lang, str]] = {
    "question.title": {"en": "The agent has a question", "zh": "Agent 向您提问"},
    "question.step": {"en": "Question {n} of {total}", "zh": "问题 {n}/{total}"},
    "question.time_left": {"en": "{left} left", "zh": "剩余 {left}"},
    "question.current": {"en": "Current answer: {answer} (Enter keeps it)", "zh": "当前答案：{answer}（回车保留）"},
    "question.hint_one": {"en": "Type a number (1–{n})", "zh": "输入编号（1–{n}）"},
    "question.hint_many": {"en": "Type one or more numbers, e.g. 1,3 (1–{n})", "zh": "输入一个或多个编号，如 1,3（1–{n}）"},
    "question.hint_free_too": {"en": "or your own words", "zh": "或自己输入答案"},
    "question.hint_free": {"en": "Type your answer", "zh": "输入您的答案"},
    "question.hint_keys": {"en": "b back · c cancel", "zh": "b 上一题 · c 取消"},
    "question.prompt": {"en": "> ", "zh": "> "},
    "question.err_empty": {"en": "Please type an answer.", "zh": "请输入答案。"},
    "question.err_range": {"en": "There is no option {number}: choose 1–{n}.", "zh": "没有选项 {number}：请选择 1–{n}。"},
    "question.err_one": {"en": "Choose only one option.", "zh": "只能选择一个选项。"},
    "question.err_not_option": {"en": "Type an option number (1–{n}).", "zh": "请输入选项编号（1–{n}）。"},
    "question.err_first": {"en": "This is the first question.", "zh": "已经是第一题。"},
    "question.answered": {"en": "Answered: {summary}", "zh": "已回答：{summary}"},
    "question.cancelled": {"en": "Cancelled ({done} of {total} answered).", "zh": "已取消（已回答 {done}/{total}）。"},
    "question.stopped": {"en": "Stopped ({done} of {total} answered).", "zh": "已停止（已回答 {done}/{total}）。"},
    "question.timeout": {"en": "Time is up ({done} of {total} answered).", "zh": "回答超时（已回答 {done}/{total}）。"},
}

# What a person may type to step back or cancel, in either language.
BACK_WORDS = frozenset({"b", "back", "返回", "上一题"})
CANCEL_WORDS = frozenset({"c", "cancel", "取消"})


def language() -> Lang:
    """'zh' when SCENE_AGENT_LANG or the locale says Chinese, else 'en'."""
    for name in ("SCENE_AGENT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = (os.environ.get(name) or "").strip().lower()
        if value:
            return "zh" if value.startswith("zh") else "en"
    return "en"


def t(key: str, lang: Lang | None = None, **values: object) -> str:
    """The message `key` in `lang` (default: `language()`), with `{placeholders}` filled from `values`."""
    return MESSAGES[key][lang or language()].format(**values)
