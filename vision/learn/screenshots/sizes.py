"""Name the kinds of one cell size after the kinds named at another size of the clone.

GNOME Mines scales its cells with the window. At a whole-pixel pitch each kind
is one tight cluster and game logic names it; at a fractional pitch (29.7 px,
90.7 px) every cell is drawn at another sub-pixel phase, one kind splits into
many clusters and no board comes out complete, so logic alone names little.
The same glyph shrunk to the comparison patch looks alike at every size, so an
unnamed cluster takes the name of the closest tile named by logic at another
size, when that tile is close and every other name is far. The names taken
must then keep every board of the size consistent (the solver); otherwise the
size keeps only its own names. What matches nothing stays unknown.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoardError
from vision.learn.cluster import distances

#: A cluster this close (mean squared difference) to a named tile may take its name...
CLOSE = 250.0
#: ...when every tile of another name is at least this many times farther.
APART = 3.0


def _board(labels: np.ndarray, names: dict[int, str]) -> Board | None:
    if not all(int(c) in names for c in np.unique(labels)):
        return None
    lookup = np.array([names.get(c, ".") for c in range(int(labels.max()) + 1)])
    chars = lookup[labels]
    chars[chars == "?"] = "."
    return Board(tuple("".join(r) for r in chars.tolist()))


def _consistent(boards: Sequence[Board | None]) -> bool:
    from bot.solver import analyse

    for board in boards:
        if board is None or any(ch in "*!X" for row in board.rows for ch in row):
            continue  # a lost board: the solver checks boards in play
        try:
            analyse(Board(tuple(r.replace("F", ".") for r in board.rows)))
        except InconsistentBoardError:
            return False
    return True


def borrow_names(
    faces: Sequence[np.ndarray],
    names: Sequence[dict[int, str]],
    labels: Sequence[Sequence[np.ndarray]],
) -> list[tuple[int, dict[int, str]]]:
    """Per group: the names its unnamed clusters take from other groups' named tiles.

    `faces[g]` holds group g's cluster patches, `names[g]` its names from logic,
    `labels[g]` its frames' label grids. Returns (group, new names) pairs kept.
    """
    out: list[tuple[int, dict[int, str]]] = []
    for g, own in enumerate(names):
        ref_faces = [faces[h][c] for h in range(len(faces)) if h != g for c in names[h]]
        ref_chars = [names[h][c] for h in range(len(faces)) if h != g for c in names[h]]
        if not ref_faces:
            continue
        chars = np.array(ref_chars)
        d = distances(np.asarray(faces[g]), np.stack(ref_faces))
        taken: dict[int, str] = {}
        for c in range(len(faces[g])):
            if c in own:
                continue
            best = int(d[c].argmin())
            other = d[c][chars != chars[best]]
            if d[c, best] <= CLOSE and (not len(other) or other.min() >= APART * d[c, best]):
                taken[c] = str(chars[best])
        if not taken:
            continue
        merged = {**own, **taken}
        if _consistent([_board(lab, merged) for lab in labels[g]]):
            out.append((g, taken))
    return out
