"""Cheap what-if analyses for guess selection: "if this cell showed v, what then?".

A what-if needs the number of placements that agree with the hypothetical
board (to weigh each revealed value) and what the solver would know next
(a certain safe cell, or else its best guess), but no SAT proof, no move and
no probability grid: `outlook` runs only the rules and the exact count, so
it costs a fraction of a full `analyse`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.board import Board
from bot.errors import InconsistentBoardError
from bot.solver.components import split
from bot.solver.constraints import extract
from bot.solver.probability import DEFAULT_BUDGET, compute
from bot.solver.rules import deduce


@dataclass(frozen=True)
class Outlook:
    """What a hypothetical position offers: its placement count and the next step's safety."""

    #: Placements that fit (0: the position cannot happen).
    weight: int
    #: Some covered cell is certainly safe: the next step makes progress for free.
    progress: bool
    #: 1 - the lowest P(mine) among covered cells (1.0 with progress or nothing left).
    next_safety: float
    #: Certainly safe cells the rules and the count find.
    safe_count: int


IMPOSSIBLE = Outlook(0, False, 0.0, 0)


def outlook(board: Board, total: int | None, budget: int = DEFAULT_BUDGET) -> Outlook:
    """Count and summarise `board`; inconsistent or too large to count gives `IMPOSSIBLE`-like
    results (weight 0 means the hypothesis cannot happen)."""
    try:
        position = extract(board)
        deduction = deduce(position, total)
    except InconsistentBoardError:
        return IMPOSSIBLE
    frontier = frozenset(c for con in deduction.constraints for c in con.cells)
    interior = position.unknown - deduction.safe - deduction.mines - frontier
    probs = compute(split(deduction.constraints), deduction, interior, budget)
    if not probs.consistent or not probs.exact:
        return IMPOSSIBLE if not probs.consistent else Outlook(0, bool(deduction.safe), 0.0, 0)
    safe_count = len(deduction.safe) + sum(1 for p in probs.frontier.values() if p == 0)
    if probs.interior is not None and probs.interior == 0:
        safe_count += len(interior)
    if safe_count:
        return Outlook(probs.weight, True, 1.0, safe_count)
    choices = [p for p in probs.frontier.values() if p < 1]
    if probs.interior is not None and probs.interior < 1:
        choices.append(probs.interior)
    if not choices:  # every covered cell is a mine: the game is won
        return Outlook(probs.weight, True, 1.0, 0)
    return Outlook(probs.weight, False, 1.0 - float(min(choices)), 0)
