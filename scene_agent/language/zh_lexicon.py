"""Simplified Chinese words of the scene vocabulary and of questions, with the English each one stands for.

Two uses: `zh.py` reads a Chinese question by rewriting it word by word into the English the parsers
know, and answers name things in Chinese through `zh_label`, `zh_room_type` and `zh_color` (the first
word listed for each is its display name). Words not listed stay as they are.
"""

from __future__ import annotations

from functools import lru_cache

# Canonical object labels (see vocabulary.py) → Chinese words, display name first.
OBJECT_WORDS: dict[str, tuple[str, ...]] = {
    "chair": ("椅子", "餐椅", "座椅"), "office chair": ("办公椅", "电脑椅", "转椅"), "armchair": ("扶手椅", "单人沙发"),
    "sofa": ("沙发", "长沙发"), "table": ("桌子", "桌", "工作台"), "dining table": ("餐桌", "饭桌"),
    "coffee table": ("茶几", "咖啡桌"), "desk": ("书桌", "写字台", "办公桌", "电脑桌"), "nightstand": ("床头柜",),
    "bed": ("床",), "wardrobe": ("衣柜", "衣橱"), "dresser": ("五斗柜", "梳妆台", "斗柜", "抽屉柜"),
    "cabinet": ("柜子", "橱柜", "吊柜", "储物柜", "柜"), "kitchen cabinet": ("厨柜",), "file cabinet": ("文件柜",),
    "bookshelf": ("书架", "书柜", "架子"), "tv": ("电视", "电视机"), "tv stand": ("电视柜",),
    "refrigerator": ("冰箱",), "stove": ("炉灶", "灶台", "炉子", "烤箱"), "sink": ("水槽", "洗手池", "洗手盆", "水池", "洗碗池"),
    "toilet": ("马桶", "坐便器"), "bathtub": ("浴缸",), "lamp": ("台灯", "灯"), "floor lamp": ("落地灯",),
    "plant": ("植物", "盆栽", "绿植", "花"), "rug": ("地毯", "地垫"), "stool": ("凳子", "板凳", "高脚凳"),
    "bench": ("长凳", "长椅"), "washing machine": ("洗衣机",), "clothes dryer": ("烘干机",), "monitor": ("显示器", "屏幕"),
    "window": ("窗户", "窗"), "door": ("门",), "trash can": ("垃圾桶", "垃圾箱"), "mirror": ("镜子",), "picture": ("画", "挂画", "照片"),
    "curtain": ("窗帘",), "pillow": ("枕头",), "cushion": ("抱枕", "靠垫"), "piano": ("钢琴",), "microwave": ("微波炉",),
    "dishwasher": ("洗碗机",), "computer tower": ("电脑主机", "电脑"), "laptop": ("笔记本电脑",), "whiteboard": ("白板",),
    "radiator": ("暖气片", "暖气"), "box": ("箱子", "盒子"), "backpack": ("背包",), "suitcase": ("行李箱",),
    "shower": ("淋浴", "淋浴间"), "counter": ("台面", "柜台"), "ottoman": ("脚凳",), "blinds": ("百叶窗",),
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

# Words of questions: what to do, how many, which, size, order, place, floors, and words to drop.
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
    "large": ("大的", "大"), "small": ("小的", "小"), "tall": ("高的",), "dark": ("深",), "light": ("浅",),
    "the first one": ("第一个", "第一"), "the second one": ("第二个", "第二"), "the third one": ("第三个", "第三"),
    "the fourth one": ("第四个", "第四"), "the fifth one": ("第五个", "第五"), "the last one": ("最后一个", "最后那个"),
    "the other one": ("另一个", "另外一个", "另外那个", "其他的", "其余的", "剩下的"), "both": ("两个都", "两个"),
    "it": ("它们", "它", "这个", "那个", "这些", "那些"),
    "ground floor": ("一楼", "1楼", "一层", "首层", "底层"), "second floor": ("二楼", "2楼", "二层"),
    "third floor": ("三楼", "3楼", "三层"), "upstairs": ("楼上",), "downstairs": ("楼下",), "floor": ("楼层", "层"),
    "and": ("和", "与", "跟", "以及", "还有", "那"), "is": ("是",), "there are": ("有",), "please": ("请",),
    "object": ("物体", "东西", "物品", "家具"), "in the corner": ("角落里", "角落", "墙角"), "room": ("号房间",),
}
# Postpositions that place the noun before them: "沙发旁边的植物" is "the plant next to the sofa".
POSTPOSITIONS: dict[str, tuple[str, ...]] = {
    "next to": ("旁边", "附近", "边上", "隔壁", "旁", "边"), "on": ("上面", "上边", "上"), "under": ("下面", "下边", "底下", "下方", "下"),
    "above": ("上方",), "between": ("之间", "中间"), "in": ("里面", "里边", "里", "内", "中"),
}
# Dropped: particles, the possessive/modifier 的 (handled first), measure words, fillers.
DROPPED = ("吗", "呢", "吧", "啊", "呀", "么", "我", "想", "要", "知道", "一下", "告诉", "请问", "帮我", "那盆", "这盆",
           "号", "把", "张", "台", "盏", "扇", "株", "盆", "间", "块", "只", "条", "座", "件", "套", "面", "一")
CLOSEST, FARTHEST = "最近", "最远"


@lru_cache(maxsize=1)
def lexicon() -> dict[str, str]:
    """Every Chinese word the reader knows → the English it stands for ('' for words dropped)."""
    table: dict[str, str] = {w: "" for w in DROPPED}
    for english, words in PHRASES.items():
        table.update({w: english for w in words})
    for english, words in COLOR_WORDS.items():
        table.update({w: english for w in words})
    for english, words in ROOM_WORDS.items():
        table.update({w: english for w in words})
    for english, words in OBJECT_WORDS.items():
        table.update({w: english for w in words})
    return table


@lru_cache(maxsize=1)
def postposition_of() -> dict[str, str]:
    """Every Chinese place postposition → its English relation words."""
    return {w: english for english, words in POSTPOSITIONS.items() for w in words}


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
