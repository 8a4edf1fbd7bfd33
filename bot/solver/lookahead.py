"""Cheap what-if analyses for guess selection: "if this cell showed v, what then?".

A what-if needs the number of placements that agree with the hypothetical
board (to weigh each revealed value) and what the solver would know next
(a certain safe cell, or else its best guess), but no SAT proof, no move and
no probability grid: `outlook` runs only the rules and the exact count.

It does not re-read the whole board either: `Base` is the analysed position
reduced to its undecided cells (decided cells already folded into the
constraints), and `reveal` adds the one new number to it. The rules and the
count then work on the few dozen constraints that are still open, not on
every number of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.board import Board
from bot.errors import InconsistentBoardError
from bot.solver.components import split
from bot.solver.constraints import Constraint, Position, extract, neighbour_table
from bot.solver.fifty import find_fifty_fifty
from bot.solver.probability import DEFAULT_BUDGET, CountCache, compute
from bot.solver.rules import deduce


@dataclass(frozen=True)
class Outlook:
    """What a hypothetical position offers: its placement count and the next step's safety."""

    #: Placements that fit (0: the position cannot happen).
    weight: int
    #: Some covered cell is certainly safe (or the game is won): the next step is free.
    progress: bool
    #: 1 - the lowest P(mine) among covered cells (1.0 with progress).
    next_safety: float
    #: Certainly safe cells the rules and the count find.
    safe_count: int
    #: The position holds an enclosed 50/50 (`fifty`): a coin flip no later click avoids.
    #: Only looked for when `outlook_position` is given the neighbour table.
    fifty: bool = False


IMPOSSIBLE = Outlook(0, False, 0.0, 0)


@dataclass(frozen=True)
class Base:
    """An analysed position reduced to its undecided cells, ready for what-ifs."""

    position: Position
    #: Every cell known to be a mine: flags, revealed mines and proved mines.
    mines: frozenset[int]
    neighbours: Sequence[Sequence[int]]


def make_base(
    position: Position,
    constraints: Sequence[Constraint],
    safe: frozenset[int],
    mines: frozenset[int],
    flagged: frozenset[int],
    neighbours: Sequence[Sequence[int]],
) -> Base:
    """`constraints` are the rules' leftovers; `safe`/`mines` everything proved."""
    decided = safe | mines
    reduced = []
    for con in constraints:
        if con.cells & decided:
            cells = con.cells - decided
            count = con.count - len(con.cells & mines)
            if cells:
                reduced.append(Constraint(con.source, cells, count))
        else:
            reduced.append(con)
    undecided = position.unknown - decided
    base = Position(
        position.height,
        position.width,
        undecided,
        position.known_mines + len(mines & position.unknown),
        tuple(reduced),
    )
    return Base(base, mines | flagged, neighbours)


def reveal(base: Base, cell: int, value: int) -> Position | None:
    """The base position after `cell` opens showing `value`; None if that cannot happen."""
    position = base.position
    around = base.neighbours[cell]
    cells = frozenset(n for n in around if n in position.unknown)
    count = value - sum(1 for n in around if n in base.mines)
    if count < 0 or count > len(cells):
        return None
    constraints = []
    for con in position.constraints:
        if cell in con.cells:
            rest = con.cells - {cell}
            if con.count > len(rest):
                return None
            if rest:
                constraints.append(Constraint(con.source, rest, con.count))
        else:
            constraints.append(con)
    if cells:
        constraints.append(Constraint(cell, cells, count))
    return Position(
        position.height,
        position.width,
        position.unknown - {cell},
        position.known_mines,
        tuple(constraints),
    )


def outlook_position(
    position: Position,
    total: int | None,
    budget: int = DEFAULT_BUDGET,
    cache: CountCache | None = None,
    neighbours: Sequence[Sequence[int]] | None = None,
) -> Outlook:
    """Count and summarise a position (weight 0: it cannot happen).

    Pass the same `cache` to every what-if of one decision: a reveal changes
    one or two components, the others are counted once. With `neighbours`,
    also say whether the position holds an enclosed 50/50.
    """
    try:
        deduction = deduce(position, total)
    except InconsistentBoardError:
        return IMPOSSIBLE
    frontier = frozenset(c for con in deduction.constraints for c in con.cells)
    interior = position.unknown - deduction.safe - deduction.mines - frontier
    probs = compute(split(deduction.constraints), deduction, interior, budget, cache)
    if not probs.consistent:
        return IMPOSSIBLE
    if not probs.exact:
        return Outlook(0, bool(deduction.safe), 0.0, 0)
    safe_count = len(deduction.safe) + sum(1 for p in probs.frontier.values() if p == 0)
    if probs.interior is not None and probs.interior == 0:
        safe_count += len(interior)
    fifty = False
    if neighbours is not None:
        # Cells the rules proved safe will be opened and show numbers: they still count as
        # able to tell a pair apart, so only proved mines leave the undecided set.
        undecided = position.unknown - deduction.mines
        fifty = find_fifty_fifty(deduction.constraints, undecided, neighbours) is not None
    if safe_count:
        return Outlook(probs.weight, True, 1.0, safe_count, fifty)
    choices = [p for p in probs.frontier.values() if p < 1]
    if probs.interior is not None and probs.interior < 1:
        choices.append(probs.interior)
    if not choices:  # every covered cell is a mine: the game is won
        return Outlook(probs.weight, True, 1.0, 0)
    return Outlook(probs.weight, False, 1.0 - float(min(choices)), 0, fifty)


def outlook(board: Board, total: int | None, budget: int = DEFAULT_BUDGET) -> Outlook:
    """`outlook_position` of a whole board (for tests and one-off use)."""
    try:
        position = extract(board)
    except InconsistentBoardError:
        return IMPOSSIBLE
    return outlook_position(position, total, budget)


def base_of(board: Board, total: int | None) -> Base:
    """A `Base` from the rules alone (for tests and one-off use; `analyse` passes SAT's cells)."""
    position = extract(board)
    deduction = deduce(position, total)
    flagged = frozenset(i for i, ch in enumerate("".join(board.rows)) if ch in "F*!")
    return make_base(
        position,
        deduction.constraints,
        deduction.safe,
        deduction.mines,
        flagged,
        neighbour_table(board.height, board.width),
    )
