"""Cheap deductions, iterated to a fixpoint, before any SAT call or counting.

Most cells a game reveals are decided by three patterns a person uses too:

* a satisfied number: all its mines are known, its other cells are safe;
* a full number: as many unknown cells as mines left, all are mines;
* the pair rule between two overlapping numbers A and B: if A needs
  ``|A \\ B|`` more mines than B, every cell of A outside B is a mine and every
  cell of B outside A is safe (the subset rule is its special case
  ``A ⊆ B``).

And with the total known: no mines left means every unknown cell is safe,
as many mines as unknown cells means all are mines.

Settling these in plain Python leaves SAT and counting only the genuinely
hard remainder, which is what keeps the median decision fast.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import InconsistentBoardError
from bot.solver.constraints import Constraint, Position


@dataclass(frozen=True)
class Deduction:
    """Cells the rules decided and the constraints left over (reduced, none trivial)."""

    safe: frozenset[int]
    mines: frozenset[int]
    constraints: tuple[Constraint, ...]
    #: Mines still to place among the unknown cells not decided here (None: total unknown).
    remaining: int | None


class _State:
    """The decided cells, with the numbers that decided them (for error messages)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.value: dict[int, bool] = {}
        self.why: dict[int, tuple[int, ...]] = {}

    def fail(self, message: str, sources: tuple[int, ...]) -> InconsistentBoardError:
        cells = sorted({self.position.cell(s) for s in sources if s >= 0})
        where = ", ".join(f"({r}, {c})" for r, c in cells)
        if -1 in sources:  # a cell the mine total decided takes part
            message += " given the mine total"
        return InconsistentBoardError(
            f"no mine placement fits the board: {message}" + (f" (cells {where})" if where else ""),
            cells,
        )

    def assign(
        self, cells: frozenset[int] | set[int], mine: bool, sources: tuple[int, ...]
    ) -> bool:
        changed = False
        for cell in cells:
            old = self.value.get(cell)
            if old is None:
                self.value[cell] = mine
                self.why[cell] = sources
                changed = True
            elif old != mine:
                raise self.fail(
                    "the numbers disagree about a covered cell", sources + self.why[cell]
                )
        return changed


def _reduce(state: _State, constraints: list[Constraint]) -> tuple[list[Constraint], bool]:
    """Drop decided cells from every constraint, settle trivial ones, merge duplicates."""
    value = state.value
    out: dict[frozenset[int], Constraint] = {}
    changed = False
    for con in constraints:
        cells = con.cells
        count = con.count
        if any(c in value for c in cells):
            count -= sum(1 for c in cells if value.get(c) is True)
            cells = frozenset(c for c in cells if c not in value)
            if count < 0 or count > len(cells):
                sources = (con.source, *(s for c in con.cells for s in state.why.get(c, ())))
                raise state.fail("a number cannot hold", sources)
            con = Constraint(con.source, cells, count)
        if not cells:
            continue
        if count == 0 or count == len(cells):
            changed |= state.assign(cells, count > 0, (con.source,))
            continue
        twin = out.get(cells)
        if twin is None:
            out[cells] = con
        elif twin.count != count:
            raise state.fail("two numbers disagree", (twin.source, con.source))
    return list(out.values()), changed


def _pairs(state: _State, constraints: list[Constraint]) -> bool:
    """The pair rule over every two constraints that share a cell."""
    by_cell: dict[int, list[int]] = {}
    for k, con in enumerate(constraints):
        for c in con.cells:
            by_cell.setdefault(c, []).append(k)
    changed = False
    for k, a in enumerate(constraints):
        partners = {j for c in a.cells for j in by_cell[c] if j > k}
        for j in partners:
            b = constraints[j]
            only_a = a.cells - b.cells
            only_b = b.cells - a.cells
            diff = a.count - b.count
            for first, second, d in ((only_a, only_b, diff), (only_b, only_a, -diff)):
                if d > len(first):
                    raise state.fail("two numbers disagree", (a.source, b.source))
                if d == len(first) and (first or second):
                    changed |= state.assign(first, True, (a.source, b.source))
                    changed |= state.assign(second, False, (a.source, b.source))
    return changed


def deduce(position: Position, total: int | None) -> Deduction:
    """Apply the cheap rules to a fixpoint; contradictions raise `InconsistentBoardError`."""
    state = _State(position)
    constraints = list(position.constraints)
    remaining: int | None = None
    while True:
        constraints, changed = _reduce(state, constraints)
        if changed:
            continue
        if total is not None:
            mines = sum(1 for v in state.value.values() if v)
            remaining = total - position.known_mines - mines
            left = position.unknown.difference(state.value)
            if remaining < 0 or remaining > len(left):
                raise state.fail(
                    f"the mine total {total} leaves {remaining} mines "
                    f"for {len(left)} covered cells",
                    tuple(s for v in state.why.values() for s in v),
                )
            if left and (remaining == 0 or remaining == len(left)):
                state.assign(left, remaining > 0, (-1,))
                continue
        if _pairs(state, constraints):
            continue
        break
    safe = frozenset(c for c, v in state.value.items() if not v)
    mines_set = frozenset(c for c, v in state.value.items() if v)
    return Deduction(safe, mines_set, tuple(constraints), remaining)
