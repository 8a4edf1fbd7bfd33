"""SAT refutation: which undecided cells are certainly safe or certainly mines.

One incremental Minicard solver per position. Each number is two native
Minicard cardinality constraints (``add_atmost``), no auxiliary variables.
The global "R mines among what is left" is different: with only native
constraints CDCL has to rediscover counting arguments (pigeonhole-like) and
one endgame position took 4.4 s for 12 calls; as a totalizer
(`pysat.card`, ``EncType.totalizer``) the same position takes 6 ms for all
its calls, because unit propagation then sees partial sums. The totalizer
is only over the undecided frontier and one interior representative (see
below), never "99 of 480" cells, so it stays small (O(n * k) clauses).

Only the cells the rules left undecided are variables. The interior (cells no
number touches) is interchangeable, so it is one representative variable
``z`` plus a count: with I interior cells and R mines left, the frontier
plus ``z`` must hold between ``R - (I - 1)`` and ``R`` mines. ``z`` is then
refuted like any frontier cell, which decides the whole interior at once
(e.g. all interior safe when the frontier needs every remaining mine).

For each variable: ``solve([x])`` unsat means safe, ``solve([-x])`` unsat
means mine. Every model found on the way marks each cell as "seen mine" or
"seen safe"; a cell seen both ways needs no call, and callers pass the cells
an exact count already showed both ways.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.solvers import Minicard

from bot.errors import InconsistentBoardError
from bot.solver.constraints import Constraint, Position


@dataclass(frozen=True)
class Certainty:
    safe: frozenset[int]
    mines: frozenset[int]
    interior_safe: bool
    interior_mines: bool
    #: Cells whose refutation ran out of `conflict_budget` (left for the exact count to decide).
    unresolved: frozenset[int] = frozenset()
    interior_unresolved: bool = False


#: Conflicts allowed per refutation call. Real positions need a handful; the cap only
#: keeps a pathological position from stalling a live game.
CONFLICT_BUDGET = 20_000


def _build(
    solver: Minicard,
    constraints: Iterable[Constraint],
    var: dict[int, int],
    interior: int,
    remaining: int | None,
    with_total: bool = True,
) -> bool:
    """Add the constraints; False when they are already trivially unsatisfiable."""
    for con in constraints:
        lits = [var[c] for c in con.cells]
        solver.add_atmost(lits, con.count)
        solver.add_atmost([-x for x in lits], len(lits) - con.count)
    if remaining is None or not with_total:
        return True
    lits = list(range(1, len(var) + 1)) + ([len(var) + 1] if interior else [])
    upper = remaining
    lower = remaining - (interior - 1) if interior else remaining
    if upper < 0 or lower > len(lits):
        return False
    top = len(lits)
    if upper < len(lits):
        formula = CardEnc.atmost(lits, upper, top_id=top, encoding=EncType.totalizer)
        top = max(top, formula.nv)
        solver.append_formula(formula.clauses)
    if lower > 0:
        formula = CardEnc.atleast(lits, lower, top_id=top, encoding=EncType.totalizer)
        solver.append_formula(formula.clauses)
    return True


def _satisfiable(
    constraints: list[Constraint], var: dict[int, int], interior: int, remaining: int | None
) -> bool:
    with Minicard() as solver:
        return _build(solver, constraints, var, interior, remaining) and bool(solver.solve())


def satisfiable(
    constraints: Iterable[Constraint],
    cells: Iterable[int],
    interior: int,
    remaining: int | None,
) -> bool:
    """Whether the constraints over `cells` (every cell they name), `interior`
    interchangeable cells and `remaining` mines (None: any number) have a model."""
    var = {c: i + 1 for i, c in enumerate(sorted(cells))}
    return _satisfiable(list(constraints), var, interior, remaining)


def conflict(
    position: Position, constraints: list[Constraint], interior: int, remaining: int | None
) -> InconsistentBoardError:
    """An error naming a minimal set of numbers (and the total) that contradict each other.

    Deletion-based: drop each number in turn and keep it out if the rest is
    still unsatisfiable. Only runs on the error path, so its cost is moot.
    """
    cells = sorted({c for con in constraints for c in con.cells})
    var = {c: i + 1 for i, c in enumerate(cells)}
    needed = list(constraints)
    total_needed = remaining is not None
    if total_needed and not _satisfiable(needed, var, interior, None):
        total_needed = False
    for con in list(needed):
        trial = [c for c in needed if c is not con]
        if not _satisfiable(trial, var, interior, remaining if total_needed else None):
            needed = trial
    sources = sorted({position.cell(con.source) for con in needed})
    where = ", ".join(f"({r}, {c})" for r, c in sources)
    message = "no mine placement fits the board: "
    if where:
        message += f"the numbers at {where} contradict each other"
        if total_needed:
            message += " together with the mine total"
    else:
        message += "the mine total cannot be met"
    return InconsistentBoardError(message, sources)


def decide(
    position: Position,
    constraints: tuple[Constraint, ...],
    interior: int,
    remaining: int | None,
    undecided: frozenset[int] = frozenset(),
    interior_undecided: bool = False,
) -> Certainty:
    """Refute each frontier cell (and the interior representative) both ways.

    `undecided` cells were already shown both ways by an exact count and are
    skipped; so is the interior when `interior_undecided`. Raises
    `InconsistentBoardError` when no placement exists at all.
    """
    cells = sorted({c for con in constraints for c in con.cells})
    var = {c: i + 1 for i, c in enumerate(cells)}
    n = len(cells)
    z = n + 1 if remaining is not None and interior else 0
    if not z:
        interior_undecided = True  # no total: the interior is never forced
    todo = [var[c] for c in cells if c not in undecided]
    if z and not interior_undecided:
        todo.append(z)
    if not todo:  # everything was shown both ways already, so a placement exists
        return Certainty(frozenset(), frozenset(), False, False)
    n_vars = z or n
    seen_mine = [False] * (n_vars + 1)
    seen_safe = [False] * (n_vars + 1)
    safe: set[int] = set()
    mines: set[int] = set()
    with Minicard() as solver:
        if not _build(solver, constraints, var, interior, remaining) or not solver.solve():
            raise conflict(position, list(constraints), interior, remaining)

        def record(model: list[int]) -> None:
            for lit in model[:n_vars]:
                if lit > 0:
                    seen_mine[lit] = True
                else:
                    seen_safe[-lit] = True

        record(solver.get_model())
        unresolved: set[int] = set()
        for x in todo:
            if not seen_mine[x]:
                solver.conf_budget(CONFLICT_BUDGET)
                answer = solver.solve_limited(assumptions=[x])
                if answer is None:
                    unresolved.add(x)
                    continue
                if answer:
                    record(solver.get_model())
                else:
                    safe.add(x)
                    solver.add_clause([-x])
                    continue
            if not seen_safe[x]:
                solver.conf_budget(CONFLICT_BUDGET)
                answer = solver.solve_limited(assumptions=[-x])
                if answer is None:
                    unresolved.add(x)
                elif answer:
                    record(solver.get_model())
                else:
                    mines.add(x)
                    solver.add_clause([x])
    return Certainty(
        frozenset(cells[x - 1] for x in safe if x != z),
        frozenset(cells[x - 1] for x in mines if x != z),
        z in safe,
        z in mines,
        frozenset(cells[x - 1] for x in unresolved if x != z),
        z in unresolved,
    )
