"""Simplified Chinese words of the scene vocabulary and of questions, with the English each one stands for.

Two uses: `zh.py` reads a Chinese description by rewriting it into the English the grammar reads (`entries`: every
word with what kind of word it is — a noun, a place after its noun, a place before it, a negation, an ordinal … — and
its English), and answers name things in Chinese through `zh_label`, `zh_room_type` and `zh_color` (the first word
listed for each is its display name). Each table is English → the Chinese said for it. Words not listed stay as they
are, and the reading reports them as unused.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

# Canonical object labels (see vocabulary.py) → Chinese words, display name first.
OBJECT_WORDS: dict[str, tuple[str, ...]] = {
    "chair": ("椅子", "餐椅", "座椅"), "office chair": ("办公椅", "电脑椅", "转椅"), "armchair": ("扶手椅", "单人沙发", "沙发椅"),
    "sofa": ("沙发", "长沙发"), "table": ("桌子", "桌", "工作台"), "dining table": ("餐桌", "饭桌"),
    "coffee table": ("茶几", "咖啡桌"), "desk": ("书桌", "写字台", "办公桌", "电脑桌", "写字桌"), "nightstand": ("床头柜", "床边柜"),
    "bed": ("床", "单人床", "双人床"), "wardrobe": ("衣柜", "衣橱"), "dresser": ("五斗柜", "梳妆台", "斗柜", "抽屉柜", "梳妆桌"),
    "cabinet": ("柜子", "橱柜", "吊柜", "储物柜", "鞋柜", "边柜", "餐边柜", "矮柜", "柜"), "kitchen cabinet": ("厨柜",),
    "file cabinet": ("文件柜",), "bookshelf": ("书架", "书柜", "书橱", "架子"), "tv": ("电视", "电视机"), "tv stand": ("电视柜",),
    "refrigerator": ("冰箱", "冰柜"), "stove": ("炉灶", "灶台", "炉子", "烤箱"),
    "sink": ("水槽", "洗手池", "洗手盆", "水池", "洗碗池", "洗脸盆", "洗脸池", "面盆"),
    "toilet": ("马桶", "坐便器"), "bathtub": ("浴缸",), "lamp": ("台灯", "灯"), "floor lamp": ("落地灯",),
    "plant": ("植物", "盆栽", "绿植", "盆景", "花"), "rug": ("地毯", "地垫"), "stool": ("凳子", "板凳", "高脚凳"),
    "bench": ("长凳", "长椅"), "washing machine": ("洗衣机",), "clothes dryer": ("烘干机",), "monitor": ("显示器", "屏幕"),
    "window": ("窗户", "窗子", "窗"), "door": ("门", "房门"), "trash can": ("垃圾桶", "垃圾箱", "垃圾篓", "纸篓"),
    "mirror": ("镜子",), "picture": ("画", "挂画", "照片"), "curtain": ("窗帘",), "pillow": ("枕头",),
    "cushion": ("抱枕", "靠垫"), "piano": ("钢琴",), "microwave": ("微波炉",), "dishwasher": ("洗碗机",),
    "computer tower": ("电脑主机", "电脑"), "laptop": ("笔记本电脑",), "whiteboard": ("白板",), "radiator": ("暖气片", "暖气"),
    "box": ("箱子", "盒子"),
    "cup": ("杯子", "水杯", "马克杯", "茶杯"), "coffee maker": ("咖啡机",), "backpack": ("背包",), "suitcase": ("行李箱",),
    "shower": ("淋浴", "淋浴间"),
    "counter": ("台面", "柜台", "吧台", "料理台", "操作台"), "ottoman": ("脚凳",), "blinds": ("百叶窗",),
    # parts no scan shows on their own (relation_words.COMPONENTS)
    "wheel": ("轮子", "滚轮"), "leg": ("腿", "椅子腿", "桌腿"), "armrest": ("扶手",), "backrest": ("靠背",),
    "handle": ("把手", "拉手"), "knob": ("旋钮",),
}

# Canonical room types → Chinese words, display name first; room phrases the English parser knows.
ROOM_WORDS: dict[str, tuple[str, ...]] = {
    "bedroom": ("卧室", "睡房"), "master bedroom": ("主卧", "主卧室"), "guest bedroom": ("客卧", "客房", "次卧"),
    "kids room": ("儿童房", "儿童卧室", "孩子的房间", "小孩房"), "kitchen": ("厨房",), "living room": ("客厅", "起居室"),
    "lounge": ("休息室",), "dining room": ("餐厅", "饭厅"), "bathroom": ("浴室", "卫生间", "洗手间", "厕所", "盥洗室"),
    "study": ("书房",), "office": ("办公室",), "hallway": ("走廊", "过道", "门厅", "玄关", "大厅"), "landing": ("楼梯平台",),
    "laundry room": ("洗衣房",), "garage": ("车库",), "balcony": ("阳台",), "staircase": ("楼梯",), "closet": ("储藏室", "衣帽间"),
    "room": ("房间", "屋子"), "gym": ("健身房",), "conference room": ("会议室",), "classroom": ("教室",),
}
ROOM_TYPE_NAMES = {"living_room": "客厅", "dining_room": "餐厅", "laundry_room": "洗衣房", "conference_room": "会议室"}

# Basic colour terms and common colour names → Chinese, display name first.
COLOR_WORDS: dict[str, tuple[str, ...]] = {
    "red": ("红色", "红"), "orange": ("橙色", "橘色", "橙"), "yellow": ("黄色", "黄"), "green": ("绿色", "绿"),
    "blue": ("蓝色", "蓝"), "purple": ("紫色", "紫"), "pink": ("粉色", "粉红色", "粉红", "粉"),
    "brown": ("棕色", "褐色", "咖啡色", "棕"), "black": ("黑色", "黑"), "white": ("白色", "白"),
    "gray": ("灰色", "灰"), "beige": ("米色", "米黄色"), "navy": ("藏青色", "藏蓝色", "海军蓝", "藏青"),
    "teal": ("青色", "蓝绿色"), "gold": ("金色",), "silver": ("银色",), "sky blue": ("天蓝色",), "cream": ("奶油色",),
    "mustard": ("芥末黄",), "dark": ("深色",), "light": ("浅色", "淡色"),
}

# Words of questions: what to do, how many, which, size, order, floors, and words to drop.
PHRASES: dict[str, tuple[str, ...]] = {
    "what is": ("是多少",), "what color": ("什么颜色", "啥颜色", "哪种颜色", "什么色", "颜色"),
    "how big": ("有多大", "多大"), "how tall": ("有多高", "多高"), "how wide": ("有多宽", "多宽"),
    "how long": ("有多长", "多长"), "volume": ("体积", "容积"), "size": ("尺寸", "大小", "尺码"), "area": ("面积",),
    "how many": ("多少个", "多少", "几个", "几"), "show": ("显示", "展示", "给我看看", "给我看", "看看", "看一下", "打开",
                                                   "可视化", "查看", "让我看", "看"),
    "compare": ("比较", "对比", "相比"), "where is": ("在哪里", "在哪儿", "在哪", "哪里", "哪儿"),
    "what is in": ("里有什么", "有什么", "有哪些"), "list": ("列出",), "each": ("每一个", "每个", "每", "各个", "各"),
    "all": ("所有的", "所有", "全部的", "全部"), "which": ("哪一个", "哪个", "哪"),
    "biggest": ("最大",), "smallest": ("最小",), "tallest": ("最高",), "shortest": ("最矮", "最低"), "longest": ("最长",),
    "widest": ("最宽",), "narrowest": ("最窄",), "deepest": ("最深",),
    "darkest": ("最深色", "颜色最深", "最暗"), "lightest": ("最浅色", "颜色最浅", "最浅", "最亮"),
    "bigger": ("大一点", "大一些", "更大", "较大", "比较大"), "smaller": ("小一点", "小一些", "更小", "较小", "比较小"),
    "taller": ("高一点", "更高", "较高"), "shorter": ("矮一点", "更矮", "较矮"), "darker": ("深一点", "更深"),
    "lighter": ("浅一点", "更浅"),
    "large": ("大的", "大"), "small": ("小的", "小"), "tall": ("高的", "高高的"), "short": ("矮的", "低的", "短的"),
    "wide": ("宽的", "宽大的"), "narrow": ("窄的",), "dark": ("深",),
    "light": ("浅",), "both": ("两个都", "两个"), "ground floor": ("一楼", "1楼", "一层", "首层", "底层"),
    "second floor": ("二楼", "2楼", "二层"), "third floor": ("三楼", "3楼", "三层"), "upstairs": ("楼上",),
    "downstairs": ("楼下",), "floor": ("楼层", "层", "地板", "地面"), "and": ("和", "与", "跟", "以及", "还有", "那", "、"),
    "or": ("或者", "或是", "或"), "a": ("一个",), "this is": ("这是", "这就是"), "that is": ("那是", "那就是"), "please": ("请",),
    "object": ("物体", "东西", "物品", "家具"), "room": ("号房间",), "doorway": ("门口",), "wall": ("墙", "墙壁", "墙面"),
    "ceiling": ("天花板",), "window sill": ("窗台",), "the foot of the bed": ("床尾", "床脚"), "the head of the bed": ("床头",),
    "corner": ("角落",), "leftmost": ("最左边", "最左侧", "最左"), "rightmost": ("最右边", "最右侧", "最右"),
    "frontmost": ("最前面", "最前边", "最前"), "backmost": ("最后面", "最后边"), "topmost": ("最上面", "最上边", "最上层"),
    "bottommost": ("最下面", "最下边", "最下层"), "middle": ("正中间", "中间那个"),
    "by itself": ("单独放着", "单独摆着", "单独放", "孤零零", "单独", "独自"),
}
# Shapes and materials, said before the noun as in English ("方形的桌子": the square table; "木头的": wooden).
SHAPE_WORDS: dict[str, tuple[str, ...]] = {
    "square": ("正方形", "方形", "方方正正"), "round": ("圆形", "圆的", "圆圆的", "圆"), "rectangular": ("长方形", "矩形"),
    "l-shaped": ("L形", "L型", "l形", "l型"), "long": ("长条形", "长条", "长长的"), "flat": ("扁平", "扁"),
    "square table": ("方桌",), "round table": ("圆桌",), "long table": ("长桌",), "square stool": ("方凳",),
    "round stool": ("圆凳",), "round mirror": ("圆镜",),
}
MATERIAL_WORDS: dict[str, tuple[str, ...]] = {
    "wooden": ("木头", "木制", "木质", "实木", "木头做", "木"), "metal": ("金属", "铁质", "铁"), "steel": ("不锈钢", "钢"),
    "glass": ("玻璃",), "leather": ("真皮", "皮革", "皮质", "皮"), "fabric": ("布艺", "布料", "布"),
    "plastic": ("塑料",), "marble": ("大理石",), "stone": ("石头", "石材", "石"), "wicker": ("藤编", "藤"),
}
# Counts ("四把椅子": four chairs); longer words holding these characters (三楼, 四周, 第二) are read first.
NUMBER_WORDS: dict[str, tuple[str, ...]] = {
    "two": ("两",), "three": ("三",), "four": ("四",), "five": ("五",), "six": ("六",), "seven": ("七",),
    "eight": ("八",), "nine": ("九",), "ten": ("十",),
}
# What a thing is called back: "it" alone ("它在书桌旁边": it is next to the desk); "这个/那个" are "this/the" before a
# noun and "the one" after 的 ("红色的那个": the red one).
PRONOUN_WORDS: dict[str, tuple[str, ...]] = {"it": ("它们", "它")}
# Measure words, said between a number or 这/那 and the noun ("四把椅子", "那张床"): dropped.
MEASURE_WORDS = ("个", "把", "张", "台", "盏", "扇", "株", "盆", "间", "块", "只", "条", "座", "件", "套", "面", "位", "幅", "副",
                 "根", "组", "排", "辆", "顶")
DEMONSTRATIVES: dict[str, tuple[str, ...]] = {
    "this": ("这", *(f"这{m}" for m in MEASURE_WORDS)), "the": tuple(f"那{m}" for m in MEASURE_WORDS),
    "these": ("这些",), "those": ("那些",),
}
# Order words: "第二个" (the second one), "第二大的床" (the second largest bed), "最后一个" (the last one), "另一把椅子"
# (the other chair). Each stands for "… one" when no noun follows.
ORDINAL_WORDS: dict[str, tuple[str, ...]] = {
    "the first": ("第一",), "the second": ("第二",), "the third": ("第三",), "the fourth": ("第四",), "the fifth": ("第五",),
    "the sixth": ("第六",), "the last": ("最后一", "最后", "倒数第一"), "the other": ("另一", "另外一", "另外", "其他", "其余", "剩下"),
}
# "第二大": the second largest — an ordinal before one of these (ordinals of the first five only).
RANKED_SIZES: dict[str, str] = {"largest": "大", "smallest": "小", "tallest": "高", "shortest": "矮", "longest": "长",
                                "widest": "宽"}
# "左边第三个", "第三个从左边数": the third from the left.
COUNTED_FROM: dict[str, tuple[str, ...]] = {
    "from the left": ("从左往右数", "从左往右", "从左边开始数", "从左边数起", "从左边数", "从左边起", "从左边", "从左数",
                      "从左起", "从左"),
    "from the right": ("从右往左数", "从右往左", "从右边开始数", "从右边数起", "从右边数", "从右边起", "从右边", "从右数",
                       "从右起", "从右"),
    "from the top": ("从上往下数", "从上往下", "从上面数", "从上数", "从上面开始数"),
    "from the bottom": ("从下往上数", "从下往上", "从下面数", "从下数", "从下面开始数"),
    "from the front": ("从前往后数", "从前往后", "从前面数", "从前数"),
    "from the back": ("从后往前数", "从后往前", "从后面数", "从后数"),
}
# "两个中较大的": the larger of the two.
OF_THE: dict[str, tuple[str, ...]] = {
    f"of the {english}": tuple(f"{zh}{measure}{among}" for measure in ("个", "者", "把", "张")
                               for among in ("之中", "当中", "中", "里面", "里"))
    for english, zh in (("two", "两"), ("three", "三"), ("four", "四"), ("five", "五"))
}
# A size among a few is a comparison: "两张床中大的那张" is "the larger of the two beds".
COMPARED: dict[str, str] = {"large": "larger", "small": "smaller", "tall": "taller", "short": "shorter", "wide": "wider",
                            "narrow": "narrower", "long": "longer"}
# Imperatives that say which thing is meant ("找到离镜子最远的梳妆台": find the dresser farthest from the mirror).
SELECTING: dict[str, tuple[str, ...]] = {
    "find": ("找到", "找出", "找一找", "找一下", "寻找", "找", "定位"),
    "choose": ("要找的是", "找的是", "选的是", "选择", "选中", "选出", "挑选", "挑出", "点选", "点击", "选", "挑", "指的是",
               "我说的是", "要的是"),
}
# Not this one: "不是红色的那个" (the one that is not red), "除了办公椅以外的椅子" (any chair except the office chair).
NEGATIONS: dict[str, tuple[str, ...]] = {"not": ("不是", "并非", "并不是", "不")}
NOT_AT = ("不在", "没有放在", "没放在", "没有摆在", "没摆在", "没有挂在", "没挂在", "没有在", "没在", "不放在", "不是放在", "不是在")
EXCEPT = ("除了", "除去", "除开")
EXCEPT_END = ("以外", "之外")
# Where something is ("在书桌上": on the desk; "它在书桌旁边": it is next to the desk); 在 itself is dropped in a
# description and "is" in a statement.
AT = ("位于", "放在", "摆在", "挂在", "在")
# 有: "there are" in a question ("有几把椅子"), "with" in a description ("上面有台灯的床头柜": the nightstand with a lamp
# on it).
HAVE = ("有着", "有", "带有", "带着", "带")
HAVE_NOT = ("没有", "没带")  # "上面没有台灯的床头柜": the nightstand without a lamp on it
# Place words before the thing they place by, as in English ("靠近窗户的椅子": the chair close to the window). The words
# of "facing" (VIEW_WORDS) are one too when they do not open the clause or come before 的 ("面向窗户的椅子": the chair
# facing the window).
PREPOSITIONS: dict[str, tuple[str, ...]] = {
    "close to": ("靠近", "接近", "挨着", "靠着", "贴近", "靠"), "closest to": ("最靠近", "最接近", "离得最近"),
    "right next to": ("紧挨着", "紧靠着", "紧靠"),
}
# Where the speaker stands or looks, said before the rest ("面对床，左边的那个": facing the bed, the one on the left).
VIEW_WORDS: dict[str, tuple[str, ...]] = {
    "facing": ("面对着", "面对", "面向", "面朝", "朝着", "朝向", "对着", "正对着", "看向"),
    "with your back to": ("背对着", "背对", "背朝", "背靠"), "standing at": ("站在",),
}
ENTERING: dict[str, tuple[str, ...]] = {
    "as you enter": ("从门口看过去", "从门口看", "从门口进来", "从入口看", "从门口望去", "进门的时候", "进门时", "进门后", "一进门",
                     "刚进门", "进屋时", "进房间时", "进房间的时候", "走进房间时", "走进来时", "进来时", "进门"),
}
SEEN_FROM = ("从",)  # "从窗户看，左边的椅子": (seen) from the window, the chair on the left (with 看 after the place)
LOOKING = ("看过去", "望过去", "看去", "望去", "看")
CONDITIONS = ("如果", "假如", "当你", "当")  # "如果面对床": if facing the bed
# Places said alone, after the noun in English ("角落里的植物": the plant in the corner; "挂在墙上的画": the picture
# hanging on the wall).
SIDE_WORDS: dict[str, tuple[str, ...]] = {
    "in the corner": ("角落里", "角落中", "墙角", "拐角"), "on the wall": ("墙上", "墙面上", "墙壁上"),
    "hanging on the wall": ("挂在墙上", "挂墙上", "挂在墙壁上"), "against the wall": ("靠墙", "靠着墙", "贴墙", "靠在墙边", "靠墙边"),
    "on the floor": ("地上", "地板上", "地面上"), "on the ceiling": ("天花板上", "吊顶上"),
    "side by side": ("挨在一起", "并排放着", "并排", "靠在一起"),
    "in the middle of the room": ("房间中间", "房间中央", "房间的中间", "房间的中央", "房间正中间", "房间正中", "屋子中间",
                                  "屋子中央", "屋子的中间"),
}
# Postpositions that place the noun before them: "沙发旁边的植物" is "the plant next to the sofa".
POSTPOSITIONS: dict[str, tuple[str, ...]] = {
    "next to": ("旁边", "附近", "边上", "隔壁", "旁", "边"), "on": ("上面", "上边", "顶上", "上"),
    "under": ("下面", "下边", "底下", "下方", "下"), "above": ("上方",), "between": ("之间", "中间"),
    "in": ("里面", "里边", "里头", "里", "内", "当中", "之中", "中"), "to the left of": ("左边", "左侧", "左面", "左手边", "左方"),
    "to the right of": ("右边", "右侧", "右面", "右手边", "右方"), "in front of": ("前面", "前边", "前方", "跟前", "面前"),
    "behind": ("后面", "后边", "后方", "背后", "身后"), "opposite": ("对面", "正对面", "对过"), "around": ("周围", "四周", "周边"),
    "at the end of": ("尽头", "末端", "最里面", "最里边"), "near": ("近",), "far from": ("远",),
}
# What a postposition says with no thing before it: "左边的椅子" is "the chair on the left", "上面的柜子" "the cabinet on
# top".
ALONE: dict[str, str] = {"on": "on top", "under": "at the bottom", "above": "at the top", "between": "in the middle",
                         "to the left of": "on the left", "to the right of": "on the right", "in front of": "in the front",
                         "behind": "in the back", "at the end of": "at the end"}
# What it says of another thing held there: "上面有台灯的床头柜" is "the nightstand with a lamp on it", "柜台和水槽在上面的柜子"
# "the cabinet with the counter and sink on top".
HOLDING: dict[str, str] = {"on": "on it", "under": "under it", "above": "above it", "next to": "next to it", "in": "in it",
                           "to the left of": "to the left of it", "to the right of": "to the right of it",
                           "in front of": "in front of it", "behind": "behind it", "opposite": "opposite it",
                           "around": "around it", "between": "between them"}
ON_TOP: dict[str, str] = {"on": "on top", "above": "above it"}
# "左边第三个": a side before an ordinal is where the counting starts.
COUNTED_FROM_SIDE: dict[str, str] = {"to the left of": "from the left", "to the right of": "from the right",
                                     "in front of": "from the front", "behind": "from the back", "on": "from the top",
                                     "under": "from the bottom"}
# A flat, apartment or unit by its number: "公寓4A", "4A单元" (flat 4a).
FLAT_WORDS = ("公寓", "单元", "套房", "号房", "号公寓", "号单元", "室")
# Dropped: particles, the possessive/modifier 的 (handled first), measure words, fillers.
DROPPED = ("吗", "呢", "吧", "啊", "呀", "么", "我", "想", "要", "知道", "一下", "告诉", "请问", "帮我", "号", "一", "数", "着",
           "时", "的时候", "一些", "都", "哦", "嗯", "就是", "那边", "这边", "这里", "那里", "这儿", "那儿", "然后", "接着", "再",
           "之后", *MEASURE_WORDS)
CLOSEST, FARTHEST = "最近", "最远"

Kind = Literal["word", "noun", "de", "li", "post", "prep", "side", "at", "not_at", "have", "is", "stop", "not", "except",
               "except_end", "view", "enter", "from", "look", "if", "verb", "dem", "pronoun", "ordinal", "counted_from",
               "of_the", "dropped"]

# Question words said first in English ("沙发旁边的植物是什么颜色": what colour is the plant next to the sofa).
QUESTION_PHRASES = frozenset({"what color", "how big", "how tall", "how wide", "how long", "how many", "show", "compare",
                              "where is", "what is in", "list", "which", "please", "volume", "size", "area"})
IS = ("是",)
OF = "的"  # joins a modifier to its noun: "红色的椅子", "沙发旁边的植物"
DISTANCE = ("离", "距离", "距")  # "离窗户最近的椅子": the chair closest to the window


@lru_cache(maxsize=1)
def entries() -> dict[str, tuple[Kind, str]]:
    """Every Chinese word the reader knows → what kind of word it is and the English it stands for ('' when dropped)."""
    table: dict[str, tuple[Kind, str]] = {w: ("dropped", "") for w in DROPPED}

    def add(kind: Kind, rows: dict[str, tuple[str, ...]]) -> None:
        table.update({w: (kind, english) for english, words in rows.items() for w in words})

    table.update({w: ("stop" if english in QUESTION_PHRASES else "word", english)
                  for english, words in PHRASES.items() for w in words})
    for rows in (COLOR_WORDS, SHAPE_WORDS, MATERIAL_WORDS, NUMBER_WORDS):
        add("word", rows)
    add("noun", ROOM_WORDS)
    add("noun", OBJECT_WORDS)
    add("pronoun", PRONOUN_WORDS)
    add("dem", DEMONSTRATIVES)
    add("ordinal", ORDINAL_WORDS)
    add("ordinal", {f"{english} {ranked}": tuple(f"{w}{stem}" for w in ORDINAL_WORDS[english])
                    for english in ("the first", "the second", "the third", "the fourth", "the fifth")
                    for ranked, stem in RANKED_SIZES.items()})
    add("counted_from", COUNTED_FROM)
    add("of_the", OF_THE)
    add("verb", SELECTING)
    add("not", NEGATIONS)
    add("prep", PREPOSITIONS)
    add("view", VIEW_WORDS)
    add("enter", ENTERING)
    add("side", SIDE_WORDS)
    add("post", POSTPOSITIONS)
    table.update({w: ("not_at", "not") for w in NOT_AT})
    table.update({w: ("except", "except") for w in EXCEPT})
    table.update({w: ("except_end", "") for w in EXCEPT_END})
    table.update({w: ("at", "is") for w in AT})
    table.update({w: ("have", "there are") for w in HAVE})
    table.update({w: ("have", "there is no") for w in HAVE_NOT})
    table.update({w: ("is", "is") for w in IS})
    table.update({w: ("from", "from") for w in SEEN_FROM})
    table.update({w: ("look", "") for w in LOOKING if w not in table})
    table.update({w: ("if", "") for w in CONDITIONS})
    table.update({w: ("li", "") for w in DISTANCE})
    table[OF] = ("de", "")
    table[CLOSEST], table[FARTHEST] = ("post", "closest to"), ("post", "farthest from")
    for english in ("the first", "the second", "the third", "the fourth", "the fifth"):  # "离窗户第二近的椅子"
        nth = english.split()[1]
        for zh in ORDINAL_WORDS[english]:
            table[f"{zh}近"], table[f"{zh}远"] = ("post", f"{nth} closest to"), ("post", f"{nth} farthest from")
    return table


def zh_label(label: str) -> str:
    """The Chinese name of an object label, or the label itself when there is none."""
    words = OBJECT_WORDS.get(label)
    return words[0] if words else label


def zh_room_type(room_type: str) -> str:
    """The Chinese name of a canonical room type ('living_room' -> '客厅')."""
    if room_type in ROOM_TYPE_NAMES:
        return ROOM_TYPE_NAMES[room_type]
    words = ROOM_WORDS.get(room_type.replace("_", " "))
    return words[0] if words else room_type.replace("_", " ")


def zh_color(term: str) -> str:
    """The Chinese name of a basic colour term ('red' -> '红色')."""
    words = COLOR_WORDS.get(term)
    return words[0] if words else term
