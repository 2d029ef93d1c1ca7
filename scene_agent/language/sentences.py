"""A description cut into sentences, and the sentence that says which thing is meant.

Full stops end a sentence; so does a comma or 'then' before 'choose …' ('find the table, then choose the chair
next to it'), unless what came before the comma was where the speaker stands ('facing the bed, choose …'). A later
sentence that starts by choosing ('… choose the green one', 'you want the chair …') is the one that names the
thing; the sentences before it only name things it may refer to (grammar.py reads them as context).
"""

from __future__ import annotations

from scene_agent.language.tokens import Piece

SELECTING = frozenset({"choose", "select", "pick", "click", "want", "correct", "target", "answer", "find", "locate",
                       "identify"})
# Words that may come before a selecting word: "you want the chair …", "you will find this shelf …", "then choose …".
_BEFORE_SELECTING = frozenset({"you", "i", "we", "will", "would", "should", "need", "to", "can", "must", "then", "now",
                               "please", "just", "ll", "d", "also"})


def cut_sentences(pieces: list[Piece]) -> list[list[Piece]]:
    """The pieces cut at full stops, and at a comma or 'then' before 'choose …' ('find the table, then choose …'),
    unless what came before the comma was where the speaker stands ('facing the bed, choose …')."""
    out: list[list[Piece]] = [[]]
    for k, piece in enumerate(pieces):
        choose_next = selects(pieces, k + 1)
        viewed = any(p.kind == "view" for p in out[-1])
        if piece.kind == "stop" or (piece.kind == "comma" and choose_next and not viewed):
            if out[-1]:
                out.append([])
        elif not (piece.kind == "filler" and piece.words[0] == "then" and not out[-1]):
            out[-1].append(piece)
    return [s for s in out if s]


def selects(pieces: list[Piece], i: int) -> bool:
    """Whether the pieces from i on start by saying which thing is meant: 'choose …', 'then pick …', 'you want …'."""
    for piece in pieces[i:i + 4]:
        word = piece.words[0]
        if piece.kind == "filler" and word in SELECTING:
            return True
        if word not in _BEFORE_SELECTING:
            return False
    return False


def selecting_sentence(sentences: list[list[Piece]]) -> int:
    """The sentence that says which thing is meant: a later 'choose the …' overrides a first 'look for the bed'."""
    for number in range(len(sentences) - 1, 0, -1):
        first = next((k for k, p in enumerate(sentences[number]) if p.kind not in ("det",)), None)
        if first is not None and selects(sentences[number], first):
            return number
    return 0
