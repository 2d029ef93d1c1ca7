"""Answering a pending pick in words: "the red one", "0-3-4", "the second", "both", "cancel" — typed in the chat
while the viewer waits, resolved among the session's candidates by the same machinery as any description (`find`
with `within`), and recorded as the user's answer, exactly as a Confirm (or Cancel) in the viewer would be.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from scene_agent.agent.choices import describe_each
from scene_agent.errors import UnprocessableError
from scene_agent.language.intent import english
from scene_agent.language.say import Words, join
from scene_agent.language.words import Lang, detect_language
from scene_agent.model import Model
from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.tools.find import find

MAX_WORDS = 300
_CANCEL = re.compile(r"^(?:cancel|never ?mind|none|none of them|neither|no|nothing|forget it|stop)$")
_CANCEL_ZH = ("取消", "算了", "都不是", "都不要", "不要了", "不用了")
_ALL = re.compile(r"\b(?:both|all|every one|each)\b")
ONE_ONLY = Words("'{said}': only one can be picked here; say which one, or pick it in the viewer.",
                 "“{said}”：这里只能选一个；请说明是哪一个，或在查看器中选择。")
PICKED = Words("Picked {picks} from your words.", "已根据您的话选择了{picks}。")
CANCELLED = Words("Cancelled the pick, as you said.", "已按您说的取消选择。")
STILL_SEVERAL = Words("'{said}' still fits {n}: {listing}. Say which one (e.g. its colour, its place or its code), or "
                      "pick it in the viewer.",
                      "“{said}”仍然适合 {n} 个：{listing}。请说明是哪一个（例如颜色、位置或编号），或在查看器中选择。")
NOT_AMONG = Words("'{said}' does not pick one of the candidates ({codes}): {why} Say which one, or pick it in the viewer.",
                  "“{said}”没有选中候选中的任何一个（{codes}）：{why}请说明是哪一个，或在查看器中选择。")


class WordsNotUnderstoodError(UnprocessableError):
    """The words pick none of the candidates, or more than the session takes; the message says what fits."""

    code = "words_not_understood"


class WordsAnswer(Model):
    """How words answered a pending pick: the codes they chose (confirmed) or a cancel, said back in words."""

    session_id: str
    status: Literal["confirmed", "cancelled"]
    codes: list[str] = Field(default_factory=list)
    said: str = Field(description="The words as the user typed them.")
    message: str = Field(description="What was understood, for people.")


def _is_cancel(text: str) -> bool:
    return bool(_CANCEL.match(english(text, read_chinese=False).strip())) or text.strip().rstrip("。.!！") in _CANCEL_ZH


def _numbered(text: str) -> str:
    """A bare number is a position in the list: '2' → 'number 2'."""
    return f"number {text.strip()}" if text.strip().isdigit() else text


def answer_in_words(scene: Scene, channel: SelectionChannel, session_id: str, text: str, lang: Lang | None = None, *,
                    viewpoint: Viewpoint | None = None) -> WordsAnswer:
    """Resolve `text` among the session's candidates and record it as the user's pick (or cancel); `viewpoint` is
    what the person sees as they type it ("the one on the left": left on their screen).

    Raises like the viewer's answer does (unknown, answered, expired session), and WordsNotUnderstoodError
    when the words fit none of the candidates, or several where one is allowed.
    """
    said = text.strip()[:MAX_WORDS]
    lang = detect_language(said) or lang or "en"
    session = channel.get(session_id)
    channel.check_open(session)
    if not said:
        raise WordsNotUnderstoodError("say which one you mean" if lang == "en" else "请说明是哪一个")
    if _is_cancel(said):
        channel.cancel(session_id, by="words", words=said)
        return WordsAnswer(session_id=session_id, status="cancelled", said=said, message=CANCELLED(lang))
    if not session.multiple and _ALL.search(english(said)):
        raise WordsNotUnderstoodError(ONE_ONLY(lang, said=said))
    found = find(scene, _numbered(said), within=list(session.candidates), lang=lang, viewpoint=viewpoint)
    codes = [c.code for c in found.candidates]
    if not codes:
        raise WordsNotUnderstoodError(NOT_AMONG(lang, said=said, codes=", ".join(session.candidates),
                                                why=(found.message or "").strip()))
    if len(codes) > 1 and not session.multiple:
        listing = join(describe_each(found.candidates, lang), lang, "or" if lang == "en" else "还是")
        heard = (found.note + " ") if found.note else ""  # "There is no purple chair; the chairs are …"
        raise WordsNotUnderstoodError(heard + STILL_SEVERAL(lang, said=said, n=len(codes), listing=listing))
    channel.submit(session_id, codes, by="words", words=said)
    picks = join([f"{c.code}" for c in found.candidates], lang)
    return WordsAnswer(session_id=session_id, status="confirmed", codes=codes, said=said, message=PICKED(lang, picks=picks))
