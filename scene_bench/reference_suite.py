"""Referring expressions over the demo home: which one a description means, by colour, size, place and order, in English and Chinese.

Each entry says what a person would expect: the decision (see query_suite.py for the kinds) and the
codes it is about. A place word's reference is never among the candidates. Where the words leave a
real choice (two rugs are blue; two chairs are each next to a window) the right decision is to ask
among exactly those. `history` holds earlier turns of the same conversation (a follow-up). The
expected codes come from how the demo is laid out (scene_agent/demo/layout.py), not from running the
planner: this part was written before the rules that resolve such words existed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scene_bench.query_suite import BEDROOMS, CHAIRS, KITCHEN_CHAIRS, PLANTS, Kind

Expression = Literal["noun", "color", "size", "relation", "order", "zh"]
EXPRESSIONS: tuple[Expression, ...] = ("noun", "color", "size", "relation", "order", "zh")

WHITE_CABINETS = ("0-1-2", "0-3-7", "0-3-10", "0-5-3", "0-6-3", "1-5-4")
CORNER_PLANTS = ("0-1-3", "0-2-9", "0-4-7", "1-1-1")
WINDOW_NIGHTSTANDS = ("1-2-2", "1-3-2", "1-4-2", "1-4-3")
UPSTAIRS_RUGS = ("1-1-3", "1-2-8", "1-4-9", "1-5-5")
ALL_CABINETS = ("0-1-2", "0-3-7", "0-3-10", "0-4-6", "0-5-3", "0-6-3", "0-7-3", "1-1-2", "1-5-4")


@dataclass(frozen=True)
class ReferenceQuery:
    """One description, the decision it needs, the codes that decision is about, and what kind of words it tests."""

    query: str
    kind: Kind
    candidates: tuple[str, ...]
    expression: Expression
    history: tuple[str, ...] = ()
    held_out: bool = False


def _q(query: str, kind: Kind, candidates: tuple[str, ...] | str = (), expression: Expression = "noun",
       history: tuple[str, ...] = ()) -> ReferenceQuery:
    codes = (candidates,) if isinstance(candidates, str) else candidates
    return ReferenceQuery(query, kind, codes, expression, history)


REFERENCE_SUITE: tuple[ReferenceQuery, ...] = (
    # Colour: the words say which one; or there is no such colour; or two share it.
    _q("how tall is the green chair?", "answer", "0-3-4", "color"),
    _q("what's the volume of the red chair", "answer", "0-3-2", "color"),
    _q("show me the blue chair", "view", "0-3-3", "color"),
    _q("how big is the yellow chair", "answer", "0-3-5", "color"),
    # No chair is purple (or orange): the answer says what colours they are, and asks which one was meant.
    _q("what colour is the purple chair?", "ask_one", CHAIRS, "color"),
    _q("what's the volume of the orange chair", "ask_one", CHAIRS, "color"),
    _q("how big is the black chair", "answer", "0-4-2", "color"),
    _q("what's the volume of the dark chair", "answer", "0-4-2", "color"),
    _q("what colour is the red rug", "answer", "0-1-4", "color"),
    _q("how big is the blue rug", "ask_one", ("1-4-9", "1-5-5"), "color"),
    _q("how big is the blue rug in the bathroom", "answer", "1-5-5", "color"),
    _q("what's the volume of the yellow armchair", "answer", "0-2-2", "color"),
    _q("show me the teal armchair", "view", "0-2-3", "color"),
    _q("what's the volume of the blue wardrobe", "answer", "1-4-5", "color"),
    _q("how tall is the brown wardrobe", "answer", "1-2-6", "color"),
    _q("how tall is the pink stool", "answer", "1-4-8", "color"),
    _q("how tall is the brown stool", "answer", "0-7-4", "color"),
    _q("what's the volume of the green bed", "answer", "1-3-1", "color"),
    _q("how big is the navy bed", "answer", "1-2-1", "color"),
    _q("how big is the blue bed", "ask_one", ("1-2-1", "1-4-1"), "color"),
    _q("show me the white cabinet", "ask_one", WHITE_CABINETS, "color"),
    _q("show me the white cabinets", "view", WHITE_CABINETS, "color"),
    _q("how big is the black cabinet", "ask_one", ("0-4-6", "0-7-3"), "color"),
    _q("how many red chairs are there", "answer", "0-3-2", "color"),
    _q("how many white cabinets are there?", "answer", WHITE_CABINETS, "color"),
    # Size: superlatives and comparatives pick the one; near ties are asked about, unless the question is that size.
    _q("how big is the widest wardrobe?", "answer", "1-2-6", "size"),
    _q("what colour is the biggest wardrobe", "answer", "1-2-6", "size"),
    _q("what colour is the smallest wardrobe", "answer", "1-4-5", "size"),
    _q("how tall is the tallest wardrobe", "act_on_all", ("1-2-6", "1-3-5"), "size"),
    _q("what colour is the tallest wardrobe", "ask_one", ("1-2-6", "1-3-5"), "size"),
    _q("which is the tallest wardrobe", "act_on_all", ("1-2-6", "1-3-5"), "size"),
    _q("what colour is the tallest plant", "answer", "0-2-9", "size"),
    _q("what colour is the smallest plant", "ask_one", ("0-1-3", "1-3-7"), "size"),
    _q("how big is the largest bed", "answer", "1-2-1", "size"),
    _q("what colour is the smallest bed", "answer", "1-4-1", "size"),
    _q("which table is the longest?", "answer", "0-7-1", "size"),
    _q("what colour is the bigger desk", "answer", "0-4-1", "size"),
    _q("how big is the smaller desk", "answer", "1-4-7", "size"),
    _q("show me the largest cabinet", "view", "0-7-3", "size"),
    _q("what colour is the big armchair", "ask_one", ("0-2-2", "0-2-3"), "size"),
    _q("what colour is the bigger armchair", "ask_one", ("0-2-2", "0-2-3"), "size"),
    _q("which room is the biggest?", "answer", "0-3", "size"),
    _q("what's the smallest room", "answer", "0-6", "size"),
    _q("what colour is the smallest bedroom", "answer", "1-4", "size"),
    _q("which bedroom is the biggest?", "answer", "1-2", "size"),
    _q("which chair is the largest?", "answer", "0-4-2", "size"),
    _q("which kitchen chair is the largest", "act_on_all", KITCHEN_CHAIRS, "size"),
    _q("what colour is the tallest lamp", "answer", "0-2-8", "size"),
    _q("what's the colour of the biggest plant upstairs", "answer", "1-1-1", "size"),
    _q("what colour is the longest rug", "answer", "1-1-3", "size"),
    _q("how big is the biggest rug", "answer", "0-2-10", "size"),
    # Place: the reference is resolved on its own and never lands among the candidates.
    _q("what colour is the plant next to the sofa?", "answer", "0-2-9", "relation"),
    _q("how big is the armchair by the window?", "answer", "0-2-2", "relation"),
    _q("what colour is the chair by the window?", "ask_one", ("0-3-5", "0-4-2"), "relation"),
    _q("what colour is the chair by the window in the kitchen?", "answer", "0-3-5", "relation"),
    _q("what colour is the chair closest to the window?", "ask_one", ("0-3-5", "0-4-2"), "relation"),
    _q("how tall is the nightstand by the window?", "ask_one", WINDOW_NIGHTSTANDS, "relation"),
    _q("what colour is the nightstand by the window in the master bedroom", "answer", "1-2-2", "relation"),
    _q("what colour is the nightstand next to the window in the kids bedroom", "ask_one", ("1-4-2", "1-4-3"), "relation"),
    _q("what colour is the lamp on the desk?", "answer", "0-4-4", "relation"),
    _q("how tall is the lamp on the nightstand?", "ask_one", ("1-2-4", "1-2-5", "1-3-4", "1-4-4"), "relation"),
    _q("what colour is the lamp on the nightstand in the guest bedroom?", "answer", "1-3-4", "relation"),
    _q("what colour is the rug under the coffee table?", "answer", "0-2-10", "relation"),
    _q("how big is the rug under the bed?", "answer", "1-2-8", "relation"),
    _q("what colour is the cabinet above the sink?", "ask_one", ("0-3-10", "0-6-3"), "relation"),
    _q("what colour is the cabinet above the sink in the kitchen", "answer", "0-3-10", "relation"),
    _q("show me the table between the sofa and the tv", "view", "0-2-4", "relation"),
    _q("what colour is the rug between the sofa and the tv?", "answer", "0-2-10", "relation"),
    _q("what colour is the plant in the corner?", "ask_one", CORNER_PLANTS, "relation"),
    _q("how tall is the plant in the corner of the study?", "answer", "0-4-7", "relation"),
    # No piano here: the place words cannot be used, so the answer says so and asks among the chairs.
    _q("what colour is the chair next to the piano?", "ask_one", CHAIRS, "relation"),
    # No plant stands on a bed: the answer says so, and asks which plant (never "nothing" while there are plants).
    _q("how big is the plant on the bed?", "ask_one", PLANTS, "relation"),
    _q("what colour is the stool next to the desk?", "answer", "1-4-8", "relation"),
    _q("what colour is the stool by the table?", "answer", "0-7-4", "relation"),
    _q("which armchair is closer to the floor lamp?", "answer", "0-2-3", "relation"),
    _q("what colour is the tv on the stand", "answer", "0-2-6", "relation"),
    _q("what colour is the monitor on the desk", "answer", "0-4-3", "relation"),
    _q("what colour is the sink under the cabinet", "ask_one", ("0-3-8", "0-6-2"), "relation"),
    _q("show me the chair farthest from the window in the kitchen", "view", "0-3-3", "relation"),
    # Order and follow-ups: what was listed last, by position, the rest, both, all; or a qualifier among them.
    _q("the second one", "answer", "0-3-3", "order", ("what colour is the chair?",)),
    _q("what colour is the first one?", "answer", "1-2-1", "order", ("how big are the beds?",)),
    _q("both", "act_on_all", ("0-2-2", "0-2-3"), "order", ("what colour is the armchair?",)),
    _q("all of them", "act_on_all", BEDROOMS, "order", ("what's the colour of the bedroom?",)),
    _q("and the other ones?", "act_on_all", ("1-3-5", "1-4-5"), "order", ("what colour is the biggest wardrobe?",)),
    _q("the last one", "answer", "0-4-2", "order", ("what colour is the chair?",)),
    _q("and the last one?", "answer", "1-4-1", "order", ("how big are the beds?",)),
    _q("the red one", "answer", "0-3-2", "order", ("what colour is the chair?",)),
    _q("the biggest one", "answer", "1-2-6", "order", ("what colour is the wardrobe?",)),
    _q("the one next to the sofa", "answer", "0-2-9", "order", ("how big is the plant?",)),
    _q("the third one", "answer", "1-4", "order", ("what colour is the bedroom?",)),
    _q("how big is the second one?", "answer", "0-2-3", "order", ("what colour are the armchairs?",)),
    _q("the fifth one", "not_found", (), "order", ("what colour is the chair in the kitchen",)),
    _q("what colour are all of them", "act_on_all", UPSTAIRS_RUGS, "order", ("how big are the rugs upstairs",)),
    _q("both of them", "act_on_all", ("0-6-1", "1-5-2"), "order", ("what colour is the toilet?",)),
    # Words for things: compound and spaced forms, synonyms.
    _q("how big is the television", "answer", "0-2-6"),
    _q("what colour is the bedside table in the guest room", "ask_one", ("1-3-2", "1-3-3")),
    _q("show me the trash can", "not_found"),
    _q("how big is the fridge-freezer", "answer", "0-3-6"),
    _q("show me the windows", "view", ("0-2-11", "0-3-11", "0-4-8", "1-2-9", "1-3-8", "1-4-10", "1-5-6")),
    _q("what's the colour of the book case in the study", "answer", "0-4-5"),
    # Chinese: the same decisions, asked in Simplified Chinese.
    _q("浴室是什么颜色？", "ask_one", ("0-6", "1-5"), "zh"),
    _q("显示厨房", "view", "0-3", "zh"),
    _q("有几把椅子？", "answer", CHAIRS, "zh"),
    _q("绿色的椅子有多高？", "answer", "0-3-4", "zh"),
    _q("沙发旁边的植物是什么颜色？", "answer", "0-2-9", "zh"),
    _q("最宽的衣柜有多大？", "answer", "1-2-6", "zh"),
    _q("红色的椅子有多大", "answer", "0-3-2", "zh"),
    _q("厨房里有几把椅子？", "answer", KITCHEN_CHAIRS, "zh"),
    _q("比较厨房里的椅子", "ask_several", KITCHEN_CHAIRS, "zh"),
    _q("每把椅子的体积是多少？", "act_on_all", CHAIRS, "zh"),
    _q("显示卧室", "view", BEDROOMS, "zh"),
    _q("主卧是什么颜色？", "answer", "1-2", "zh"),
    _q("二楼有几个卧室？", "answer", BEDROOMS, "zh"),
    _q("离窗户最近的椅子是什么颜色？", "ask_one", ("0-3-5", "0-4-2"), "zh"),
    _q("厨房里窗户旁边的椅子是什么颜色", "answer", "0-3-5", "zh"),
    _q("最高的植物是什么颜色？", "answer", "0-2-9", "zh"),
    _q("哪张床最大？", "answer", "1-2-1", "zh"),
    _q("茶几下面的地毯是什么颜色？", "answer", "0-2-10", "zh"),
    _q("水槽上方的柜子是什么颜色？", "ask_one", ("0-3-10", "0-6-3"), "zh"),
    _q("书桌上的台灯是什么颜色？", "answer", "0-4-4", "zh"),
    _q("角落里的植物有多高？", "ask_one", CORNER_PLANTS, "zh"),
    _q("蓝色的地毯有多大？", "ask_one", ("1-4-9", "1-5-5"), "zh"),
    _q("紫色的椅子是什么颜色？", "ask_one", CHAIRS, "zh"),
    _q("钢琴是什么颜色？", "not_found", (), "zh"),
    _q("显示房间0-7", "view", "0-7", "zh"),
    _q("沙发有多大？", "answer", "0-2-1", "zh"),
    _q("比较卧室", "ask_several", BEDROOMS, "zh"),
    _q("所有椅子是什么颜色？", "act_on_all", CHAIRS, "zh"),
    _q("车库里的凳子是什么颜色", "answer", "0-7-4", "zh"),
    _q("黄色的扶手椅有多大", "answer", "0-2-2", "zh"),
    _q("第二个", "answer", "0-3-3", "zh", ("椅子是什么颜色？",)),
    _q("两个都要", "act_on_all", ("0-2-2", "0-2-3"), "zh", ("扶手椅是什么颜色？",)),
    _q("最大的那个", "answer", "1-2-1", "zh", ("床有多大？",)),
    _q("显示蓝色的椅子", "view", "0-3-3", "zh"),
    _q("深色的椅子有多大", "answer", "0-4-2", "zh"),
    _q("一楼有几张床？", "not_found", (), "zh"),
    _q("楼上的地毯是什么颜色", "ask_one", UPSTAIRS_RUGS, "zh"),
)


def _held(query: str, kind: Kind, candidates: tuple[str, ...] | str = (), expression: Expression = "noun",
          history: tuple[str, ...] = ()) -> ReferenceQuery:
    q = _q(query, kind, candidates, expression, history)
    return ReferenceQuery(q.query, q.kind, q.candidates, q.expression, q.history, held_out=True)


BEDS = ("1-2-1", "1-3-1", "1-4-1")

# Written after the rules above were settled, before running them (a check that they generalise); reported
# separately. What they expect is again what a person would say, whether or not the rules get it.
HELD_OUT: tuple[ReferenceQuery, ...] = (
    _held("what's the height of the teal armchair", "answer", "0-2-3", "color"),
    _held("what colour is the grey cabinet", "ask_one", ("0-4-6", "0-7-3"), "color"),
    _held("show me the pink dresser", "view", "1-4-6", "color"),
    _held("how tall is the white bed", "answer", "1-4-1", "color"),
    _held("what's the volume of the yellow chair in the kitchen", "answer", "0-3-5", "color"),
    _held("which wardrobe is the smallest?", "answer", "1-4-5", "size"),
    _held("what colour is the shortest bed", "ask_one", BEDS, "size"),
    _held("how big is the larger sink in the kitchen", "answer", "0-3-8", "size"),
    _held("show me the tallest bookshelf", "ask_one", ("0-4-5", "0-7-2"), "size"),
    _held("which room is the smallest upstairs", "act_on_all", ("1-1", "1-5"), "size"),
    _held("what colour is the lamp next to the bed in the guest room", "answer", "1-3-4", "relation"),
    _held("how tall is the plant next to the desk", "answer", "0-4-7", "relation"),
    _held("what colour is the chair near the table", "ask_one", KITCHEN_CHAIRS, "relation"),
    _held("show me the rug in front of the tv", "view", "0-2-10", "relation"),
    _held("how big is the cabinet under the stairs", "ask_one", ALL_CABINETS, "relation"),  # no stairs: asks, says so
    _held("what colour is the lamp on the floor", "answer", "0-2-8", "relation"),
    # Each bedroom's wardrobe is the one nearest its door: near is by contrast, room by room.
    _held("how big is the wardrobe next to the door", "ask_one", ("1-2-6", "1-3-5", "1-4-5"), "relation"),
    _held("what colour is the first one", "answer", "1-2-2", "order", ("how big are the nightstands in the master bedroom",)),
    _held("the one in the study", "answer", "0-4-4", "order", ("what colour is the lamp?",)),
    _held("the red one", "answer", "0-1-4", "order", ("how big is the rug?",)),
    _held("and the smallest?", "answer", "1-4-5", "order", ("which wardrobe is the biggest?",)),
    _held("what colour is the toilet upstairs", "answer", "1-5-2"),
    _held("what colour is the bin", "not_found"),
    _held("how big is the television stand", "answer", "0-2-5"),
    _held("compare the white cabinets", "ask_several", WHITE_CABINETS, "color"),
    _held("蓝色的床有多大？", "ask_one", ("1-2-1", "1-4-1"), "zh"),
    _held("最矮的衣柜是什么颜色？", "answer", "1-4-5", "zh"),
    _held("显示书房里的椅子", "view", "0-4-2", "zh"),
    _held("客厅的窗户旁边的扶手椅是什么颜色", "answer", "0-2-2", "zh"),
    _held("比较所有的床", "act_on_all", BEDS, "zh"),
    _held("车库有什么？", "answer", "0-7", "zh"),
    _held("厨房里最大的柜子是什么颜色", "answer", "0-3-7", "zh"),
    _held("哪个浴室最小？", "answer", "0-6", "zh"),
    _held("灰色的沙发有多大", "answer", "0-2-1", "zh"),
    _held("书房里的那个", "answer", "0-4-4", "zh", ("灯是什么颜色？",)),
)
