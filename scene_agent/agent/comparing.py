"""The offline planner's answer to a comparison of two things: "is the red chair bigger than the green chair?",
"which is taller, the wardrobe or the dresser?", "compare the sofa and the bed" (and in Chinese).

Each thing was found on its own (pairs.py); here the volume tool measures both (and the colour tool too when the
question names no comparative), and the answer says which is bigger, taller … with both figures. Two values within
2 % are the same size: a scan's noise is larger than that.
"""

from __future__ import annotations

from scene_agent.agent import answers
from scene_agent.agent.choices import named
from scene_agent.agent.toolbox import Toolbox, ToolCall
from scene_agent.language.pair_words import COMPARATIVES, SUPERLATIVES, PairQuestion
from scene_agent.language.say import Words, join
from scene_agent.language.words import Lang
from scene_agent.tools.find import Candidate

SAME_WITHIN = 0.02
# comparative → (what it measures, +1 when more is "more so"), and the comparative saying the other way
MEASURED: dict[str, tuple[str, int]] = {
    "bigger": ("volume", 1), "larger": ("volume", 1), "smaller": ("volume", -1), "taller": ("height", 1),
    "higher": ("height", 1), "shorter": ("height", -1), "lower": ("height", -1), "longer": ("length", 1),
    "wider": ("length", 1), "narrower": ("length", -1), "deeper": ("depth", 1)}
OPPOSITE = {"bigger": "smaller", "larger": "smaller", "smaller": "bigger", "taller": "shorter", "higher": "lower",
            "shorter": "taller", "lower": "higher", "longer": "shorter", "wider": "narrower", "narrower": "wider",
            "deeper": "shallower"}
ZH_OPPOSITE = {"shallower": "浅", "shorter": "短"}
DIMENSION = {"volume": ("size", "大小"), "height": ("height", "高度"), "length": ("length", "长度"), "depth": ("depth", "深度")}

MORE = Words("the {a} is {word} than the {b} ({va} against {vb}).", "{a}比{b}{word}（{va}，{vb}）。")
YES = Words("Yes: ", "是的：")
NO = Words("No: ", "不是：")
SAME = Words("the {a} and the {b} are about the same {dimension} ({va} and {vb}).", "{a}和{b}{dimension}差不多（{va}和{vb}）。")
NOT_REALLY = Words("Not really: ", "差不多：")
UNMEASURED = Words("I could not measure the {what}.", "无法测量{what}。")
MOST = {False: Words("{names} is the {word}: {value} ({rest}).", "{names}{word}：{value}（{rest}）。"),
        True: Words("{names} are the {word}, about the same: {value} ({rest}).", "{names}{word}，差不多：{value}（{rest}）。")}


def answer_comparison(toolbox: Toolbox, pair: PairQuestion, things: list[Candidate], lang: Lang) -> tuple[str, bool]:
    """Measure them and say how they compare; the text and whether all were measured."""
    tools = ("volume",) if pair.word else ("color", "volume")
    outcomes = toolbox.call_many([ToolCall(tool, {"code": c.code}) for c in things for tool in tools])
    m = answers.Measured.collect(outcomes, lang)
    lines = [] if pair.word else [answers.measured_line(c, m, lang) for c in things]
    word = pair.word or "bigger"
    measure, sign = MEASURED[word]
    values = [answers.measure_of(m.volumes[c.code], measure) if c.code in m.volumes else None for c in things]
    missing = [c for c, v in zip(things, values, strict=True) if v is None]
    if missing:
        lines += [e for c in missing for e in m.errors.get(c.code, [])] or [UNMEASURED(lang, what=named(missing[0], lang))]
        return "\n".join(lines), False
    known = [v for v in values if v is not None]
    if len(things) > 2:
        lines.append(_most(things, known, word, measure, sign, lang))
        return "\n".join(_capital(line) for line in lines), True
    va, vb = known
    first, second = things
    said = {"a": named(first, lang), "b": named(second, lang), "va": answers.unit(measure, va, lang),
            "vb": answers.unit(measure, vb, lang)}
    if abs(va - vb) <= SAME_WITHIN * max(abs(va), abs(vb), 1e-9):
        same = SAME(lang, dimension=DIMENSION[measure][lang == "zh"], **said)
        lines.append((NOT_REALLY(lang) if pair.yes_no else "") + same)
    elif pair.yes_no:  # "is A bigger than B?": yes, or no and which way it is
        yes = (va > vb) == (sign > 0)
        lines.append((YES if yes else NO)(lang) + MORE(lang, word=_word(word if yes else OPPOSITE[word], lang), **said))
    else:  # "which is bigger, A or B?": the one that is, first
        a_wins = (va > vb) == (sign > 0)
        flipped = said if a_wins else {"a": said["b"], "b": said["a"], "va": said["vb"], "vb": said["va"]}
        lines.append(MORE(lang, word=_word(word, lang), **flipped))
    return "\n".join(_capital(line) for line in lines), True


def _most(things: list[Candidate], values: list[float], word: str, measure: str, sign: int, lang: Lang) -> str:
    """'The bed 1-2-1 is the biggest: 2.72 m³ (the sofa 0-2-1: 1.61 m³, …)', with any about as big beside it."""
    ranked = sorted(zip(values, things, strict=True), key=lambda vc: -sign * vc[0])
    top = ranked[0][0]
    best = [c for v, c in ranked if abs(v - top) <= SAME_WITHIN * max(abs(top), 1e-9)]
    rest = [f"{_the(lang)}{named(c, lang)}{'：' if lang == 'zh' else ': '}{answers.unit(measure, v, lang)}"
            for v, c in ranked if c not in best]
    names = join([_the(lang) + named(c, lang) for c in best], lang)
    return MOST[len(best) > 1](lang, names=names, word=_superlative(word, lang), value=answers.unit(measure, top, lang),
                                rest=("，" if lang == "zh" else ", ").join(rest))


def _superlative(comparative: str, lang: Lang) -> str:
    english = next((s for s, c in SUPERLATIVES.items() if c == comparative), comparative)
    return english if lang == "en" else "最" + _word(comparative, lang)


def _the(lang: Lang) -> str:
    return "the " if lang == "en" else ""


def _capital(line: str) -> str:
    return line[:1].upper() + line[1:]


def _word(english: str, lang: Lang) -> str:
    return english if lang == "en" else COMPARATIVES.get(english) or ZH_OPPOSITE.get(english, english)
