"""Chinese questions read into the English the parsers know, and which language a text is in."""

from __future__ import annotations

import pytest

from scene_agent.agent.offline_planner import find_arguments
from scene_agent.language.intent import parse_intent
from scene_agent.language.words import detect_language
from scene_agent.language.zh import to_english
from scene_agent.language.zh_lexicon import OBJECT_WORDS, zh_color, zh_label, zh_room_type


@pytest.mark.parametrize("zh, en", [
    ("浴室是什么颜色？", "is what color bathroom"),
    ("显示厨房", "show kitchen"),
    ("有几把椅子？", "there are how many chair"),
    ("沙发旁边的植物是什么颜色", "is what color plant next to sofa"),
    ("离窗户最近的椅子是什么颜色？", "is what color chair closest to window"),
    ("沙发和电视之间的桌子", "table between sofa and tv"),
    ("主卧床头柜上的台灯", "lamp on master bedroom nightstand"),
    ("最宽的衣柜有多大", "how big widest wardrobe"),
    ("深蓝色的地毯", "dark blue rug"),
    ("1楼的植物", "floor 0 plant"),
    ("二楼的卧室", "second floor bedroom"),
    ("显示房间0-7", "show room 0-7"),
    ("第二个", "the second one"),
    ("这是一个白色的垃圾桶，它在书桌旁边。", "this is a white trash can, it is next to desk"),
    ("它是一把红色的椅子。它在窗户旁边。", "it is red chair. it is next to window"),
    ("面对床左边的", "facing bed, one on the left"),
    ("进门时左边的椅子", "as you enter, chair on the left"),
    ("选那个上面有台灯的床头柜", "choose the nightstand with lamp on it"),
    ("不是红色的那个", "one that is not red"),
    ("左边第三个", "the third from the left"),
    ("4A单元的厨房", "flat 4a's kitchen"),
    # 这个X旁边有Y: Y stands by this X, which is meant; 没有 is "without" / "there is no".
    ("这个柜子旁边有一些植物", "there are plant next to this cabinet"),
    ("这个垃圾桶上面没有台灯", "there is no lamp on this trash can"),
    ("上面没有台灯的床头柜", "nightstand without lamp on it"),
    ("桌子没有椅子", "table has no chair"),
])
def test_to_english(zh: str, en: str) -> None:
    assert to_english(zh) == en


def test_unknown_words_are_kept() -> None:
    assert to_english("雕塑旁边的椅子") == "chair next to 雕塑"


@pytest.mark.parametrize("text, lang", [("what colour is it?", "en"), ("椅子是什么颜色", "zh"), ("0-3-2", None),
                                         ("沙发 sofa", "zh"), ("", None)])
def test_detect_language(text: str, lang: str | None) -> None:
    assert detect_language(text) == lang


def test_a_chinese_question_has_intents_qualifiers_and_its_language() -> None:
    intent = parse_intent("沙发旁边的植物是什么颜色？")
    assert intent.lang == "zh" and intent.intents == ("color",)
    assert intent.phrase is not None and intent.phrase.head == "plant"
    assert [(r.kind, [ref.head for ref in r.references]) for r in intent.phrase.relations] == [("near", ["sofa"])]
    assert find_arguments(intent) == {"query": "plant next to sofa"}
    counting = parse_intent("每把椅子的体积是多少？")
    assert counting.intents == ("volume",) and "each" in counting.target


def test_display_names() -> None:
    assert (zh_label("chair"), zh_label("trash can"), zh_label("unheard of")) == ("椅子", "垃圾桶", "unheard of")
    assert (zh_room_type("living_room"), zh_room_type("bedroom"), zh_color("red")) == ("客厅", "卧室", "红色")
    assert all(words for words in OBJECT_WORDS.values())
