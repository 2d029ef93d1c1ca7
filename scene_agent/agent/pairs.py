"""The offline planner's answer to a question about two things: how far apart they are, whether one fits through
the other, how they compare (comparing.py). Each description is found on its own; one that fits several things is
asked about (one pick each, in the order they were named); then the measure tool measures the two."""

from __future__ import annotations

from scene_agent.agent import answers
from scene_agent.agent.asking import ask_to_pick, unanswered
from scene_agent.agent.choices import named, noun
from scene_agent.agent.comparing import answer_comparison
from scene_agent.agent.disambiguation import Decision, ask_prompt
from scene_agent.agent.plan import Memory, Plan
from scene_agent.agent.planner import Reply, Turn
from scene_agent.agent.toolbox import Toolbox
from scene_agent.language.intent import parse_intent
from scene_agent.language.pair_words import PairQuestion, is_pronoun, pair_question
from scene_agent.language.say import Words, join
from scene_agent.language.words import Lang
from scene_agent.tools.find import Candidate, FindResult
from scene_agent.tools.measure import MeasureResult, describe

NOTHING_CALLED = Words("I found nothing in this scene for '{words}'.", "在这个场景中没有找到“{words}”。")
APART = Words("The {a} and the {b} are {said}.", "{a}和{b}{said}。")
FITS = {True: Words("Yes: the {a} {said}.", "{a}{said}。"), False: Words("No: the {a} {said}.", "{a}{said}。")}
HOW = Words(" (Carried through lengthwise and turned as needed; the {b}'s scanned size stands for the opening.)",
            "（按纵向搬过并按需转动；以{b}扫描到的尺寸作为开口。）")
NO_OPENING = Words(" Without it I cannot tell whether it fits.", "没有它就无法判断能否通过。")
FAILED = Words("I could not measure that: {message}", "无法测量：{message}")


def answer_pair(toolbox: Toolbox, turn: Turn, pair: PairQuestion) -> Reply:
    """Find both things (asking where a description fits several), measure them, and word the answer."""
    lang = turn.lang
    intent = parse_intent(turn.query)
    chosen: list[Candidate] = []
    picked: list[Candidate] = []
    for words in pair.things:
        if is_pronoun(words):  # "is it bigger than the coffee table?": what the last answer was about
            words = _last_talked_about(turn) or words
        found = _find(toolbox, words)
        if not found.candidates:
            said = found.message or NOTHING_CALLED(lang, words=words)
            if pair.kind == "fit" and words == pair.second:
                said += NO_OPENING(lang)
            return Reply(status="not_found", answer=said)
        candidates = tuple(found.candidates)
        if len(candidates) == 1:
            chosen.append(candidates[0])
            continue
        ask = Plan(kind="ask_one", intent=parse_intent(words), candidates=candidates, found=found, lang=lang,
                   decision=Decision(needs_selection=True, act_on="one", reason="a measurement is between two things",
                                     prompt=ask_prompt(candidates, False, lang=lang)))
        outcome = ask_to_pick(toolbox, ask)
        if outcome.selection is None or outcome.selection.status != "confirmed":
            return unanswered(ask, outcome)
        code = outcome.selection.codes[0]
        chosen.append(next(c for c in candidates if c.code == code))
        picked.append(chosen[-1])
    first, second = chosen[:2]
    codes = tuple(c.code for c in chosen)
    memory = Memory(intent, tuple(chosen), codes)
    if pair.kind == "compare":
        said, both = answer_comparison(toolbox, pair, chosen, lang)
    else:
        measured = toolbox.call("measure", {"measure": pair.kind, "code": first.code, "to": second.code})
        if not isinstance(measured.value, MeasureResult):
            message = measured.error.message if measured.error else "?"
            return Reply(status="error", answer=FAILED(lang, message=message), memory=memory)
        said, both = _said(measured.value, first, second, lang), True
    if picked:
        said = answers.PICKED(lang, names=join([answers.name(c, lang) for c in picked], lang)) + "\n" + said
    return Reply(status="answered" if both else "error", answer=said, codes=codes, memory=memory)


def _last_talked_about(turn: Turn) -> str | None:
    """The codes the last answer was about; after a question about two things, the first ('how far is it from the
    tv?' then 'is it bigger than the coffee table?': still the sofa)."""
    last = next((e for e in reversed(turn.history) if e.codes), None)
    if last is None:
        return None
    return last.codes[0] if len(last.codes) == 2 and pair_question(last.query) is not None else " ".join(last.codes)


def _find(toolbox: Toolbox, words: str) -> FindResult:
    outcome = toolbox.call("find", {"query": words})
    if isinstance(outcome.value, FindResult):
        return outcome.value
    return FindResult(query=words, candidates=[], message=outcome.error.message if outcome.error else None)


def _said(result: MeasureResult, first: Candidate, second: Candidate, lang: Lang) -> str:
    a, b = named(first, lang), named(second, lang)
    if result.fit is not None:
        return FITS[result.fit.fits](lang, a=a, said=describe(result, lang)) + HOW(lang, b=noun(second, lang))
    return APART(lang, a=a, b=b, said=describe(result, lang))
