"""Unavoidable 50/50s: two cells that no future click can tell apart.

When the numbers say "exactly one mine in {a, b}" and every other covered
cell touches both a and b or neither, no number the game can ever show
distinguishes a mine at a from a mine at b (and the mine total cannot
either: both cases use one mine). The pair must be guessed sooner or later
at 1/2, independently of everything else, so the ``full`` strength guesses
it at once: the win chance is the same, but a lost game ends before more
time is spent on it, and the lookahead is not spent on cells that cannot
help with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.solver.constraints import Constraint


def find_fifty_fifty(
    constraints: Sequence[Constraint],
    undecided: frozenset[int],
    neighbours: Sequence[Sequence[int]],
) -> tuple[int, int] | None:
    """The first enclosed 50/50 pair among the undecided cells, if any."""
    for con in constraints:
        if con.count != 1 or len(con.cells) != 2:
            continue
        a, b = sorted(con.cells)
        around_a = {n for n in neighbours[a] if n in undecided} - {b}
        around_b = {n for n in neighbours[b] if n in undecided} - {a}
        if around_a != around_b:
            continue
        # Every other constraint must see a and b alike, or it could decide between them.
        if all((a in other.cells) == (b in other.cells) for other in constraints):
            return (a, b)
    return None
