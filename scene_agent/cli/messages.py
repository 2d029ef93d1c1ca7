"""The words the CLI shows people, in English and Simplified Chinese, and which language to use.

One table for the question dialog, `ask` / `chat` and the tool-call cards; keys are `<where>.<what>`,
and every key has both languages with the same `{placeholders}`. The language comes from
`config.load_language()`: SCENE_AGENT_LANG, else the locale.
"""

from __future__ import annotations

from scene_agent.config import load_language
from scene_agent.language.words import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    # the question dialog
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
    # `ask` and each turn of `chat`
    "ask.empty": {"en": "the question is empty: ask something about the scene, e.g. \"what's the color of the sofa?\"",
                  "zh": "问题为空：请提问关于场景的问题，例如“沙发是什么颜色？”"},
    "ask.warning": {"en": "warning: {text}", "zh": "警告：{text}"},
    "ask.interrupted": {"en": "Interrupted (Ctrl-C).", "zh": "已中断（Ctrl-C）。"},
    # `chat`
    "chat.turn_stopped": {"en": "⏹ Stopped this turn (Ctrl-C).", "zh": "⏹ 已停止本轮（Ctrl-C）。"},
    "chat.hello": {"en": "Ask about the scene '{scene}'. /help lists the commands, /quit ends.",
                   "zh": "请提问关于场景“{scene}”的问题。/help 列出命令，/quit 退出。"},
    "chat.help": {"en": "/questions  every question and selection asked so far\n/history    the turns so far\n"
                        "/help       this help\n/quit       end the chat (also Ctrl-D, or Ctrl-C at the prompt)",
                  "zh": "/questions  列出迄今提出的所有问题和选择\n/history    列出对话历史\n"
                        "/help       显示本帮助\n/quit       结束对话（也可按 Ctrl-D，或在提示符处按 Ctrl-C）"},
    "chat.unknown_command": {"en": "Unknown command {command}; /help lists the commands.",
                             "zh": "未知命令 {command}；/help 列出命令。"},
    "chat.no_questions": {"en": "Nothing has been asked yet.", "zh": "尚未提出任何问题。"},
    "chat.no_history": {"en": "No turns yet.", "zh": "还没有对话。"},
    "chat.bye": {"en": "Bye.", "zh": "再见。"},
    "chat.questions_title": {"en": "Questions and selections", "zh": "问题与选择"},
    "chat.questions_columns": {"en": "#|Turn|Type|Status|Question|Answer", "zh": "#|轮次|类型|状态|问题|答案"},
    # the tool-call cards
    "card.call_timeout": {"en": "timed out", "zh": "超时"},
    "card.call_cancelled": {"en": "cancelled", "zh": "已取消"},
    "card.pick_request": {"en": "Please pick the {noun} you mean in the viewer: {url}",
                          "zh": "请在查看器中选择您指的{noun}：{url}"},
    "card.pick_channel": {"en": "   picks travel through {channel}", "zh": "   选择经由 {channel} 传递"},
    "card.pick_extended": {"en": "⏳ More time to pick: {left} s left", "zh": "⏳ 已延长选择时间：剩余 {left} 秒"},
    "card.pick_one": {"en": "one", "zh": "对象"},
    "card.pick_ones": {"en": "ones", "zh": "对象"},
    "card.pick_left": {"en": "⏳ {left} s left — Ctrl-C cancels", "zh": "⏳ 剩余 {left} 秒 — 按 Ctrl-C 取消"},
    "card.pick_received": {"en": "👆 Picked {picks}", "zh": "👆 已选择 {picks}"},
    "card.pick_received_words": {"en": "👆 Picked {picks} (you said “{words}”)", "zh": "👆 已选择 {picks}（您说的是“{words}”）"},
    "card.pick_words_hint": {"en": "… or type which one here: its colour, its place or its code, e.g. “{example}” "
                                   "(“cancel” to cancel)",
                             "zh": "……或在这里输入是哪一个：颜色、位置或编号，例如“{example}”（输入“取消”可取消）"},
    "card.pick_cancelled_words": {"en": "✖ Selection cancelled, as you said{reason}", "zh": "✖ 已按您说的取消选择{reason}"},
    "card.pick_timeout": {"en": "⏰ Nobody picked within {timeout} s", "zh": "⏰ {timeout} 秒内无人选择"},
    "card.pick_cancelled_viewer": {"en": "✖ Selection cancelled in the viewer", "zh": "✖ 已在查看器中取消选择"},
    "card.pick_cancelled_caller": {"en": "✖ Selection cancelled here", "zh": "✖ 已在此处取消选择"},
    "card.pick_cancelled_invalid": {"en": "✖ The pick was not valid{reason}", "zh": "✖ 选择无效{reason}"},
    "card.final_viewer": {"en": "Viewer: {url}", "zh": "查看器：{url}"},
}

# What a person may type to step back or cancel, in either language.
BACK_WORDS = frozenset({"b", "back", "返回", "上一题"})
CANCEL_WORDS = frozenset({"c", "cancel", "取消"})


def language() -> Lang:
    """'zh' when SCENE_AGENT_LANG or the locale says Chinese, else 'en' (see `config.load_language`)."""
    return load_language()


def t(key: str, lang: Lang | None = None, **values: object) -> str:
    """The message `key` in `lang` (default: `language()`), with `{placeholders}` filled from `values`."""
    return MESSAGES[key][lang or language()].format(**values)
