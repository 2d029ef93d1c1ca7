"""Resolution: which rooms and objects a description means, from the scene's index and its cached attributes.

- query.py: a reading bound to the scene's names (codes, floors, labels, room words);
- matching.py: what the head of a description names (codes, labels, room words, floors), or why nothing;
- narrowing.py: colour, material, shape, size and rank; relating.py: relations to other things; sides.py: sides,
  positions and ordinals along a direction; contrast.py: keeping the best and those too close to it to tell apart;
- facing.py, viewpoint.py: which way things face and the frame left and right are read in;
- places.py, spots.py: footprints, gaps, rooms and doors; color_match.py: colour words against measured colours;
- resolve.py: the whole reading, step by step, with words that fit nothing set aside and said.
"""
