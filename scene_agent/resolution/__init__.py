"""Resolution: which rooms and objects a description means, from the scene's index and its cached attributes.

- query.py: a description read against the scene's names (codes, floors, labels, room words);
- matching.py: what the head of a description names (codes, labels, room words, floors), or why nothing;
- narrowing.py: colour, size, place and order words applied to candidates, with margins for near ties;
- places.py: footprints and heights: gaps, on, under, above, between, corners; color_match.py: colour words;
- resolve.py: the whole description, its place references first.
"""
