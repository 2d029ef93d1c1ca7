"""The benchmark's baseline "before": descriptions read as they were before `scene_agent/language/grammar.py` read them.

`bench grounding` scores this reading beside the current one on the same rows, in the same run, so a table says what
the grammar, the relations and the contrasts gained (or lost) over it. It is a frozen copy of the old reading — its
phrase splitter (one colour, one size, the first place phrase; every other word left in the head), its object words,
its head parser, its colour, size and place steps — reduced to what turns a description into candidate codes exactly
as `find(scene, text)` did then. What has not changed since is imported from the product (the scene index, head
matching, colour, size and order words, colour measures, footprints and gaps); what has is copied here as it was.
When one of the imported pieces changes in the product, copy its old form here. Do not mend it: it is a baseline.
The product never imports it.

- phrase.py: a description split into head, colour, size, order and place words;
- vocabulary.py: the object words it knew, and a scene's labels read with them;
- query.py: the head read against a scene, and a place's references read as descriptions of their own;
- narrowing.py: its colour, size and place steps (sizes, on, under and above as it measured them);
- resolve.py: the steps in order, and `find_codes`, the policy.
"""

from scene_bench.grounding.before.resolve import find_codes

__all__ = ["find_codes"]
