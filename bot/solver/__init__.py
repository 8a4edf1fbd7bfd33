"""The pure solver: what is certain, how likely each cell is a mine, and what to click next.

`analyse` runs the layers in order of cost, each on what the previous left:

1. `constraints` turns the board into "k mines among these cells" equations
   (flags and revealed mines count as mines);
2. `rules` settles the easy cells to a fixpoint;
3. `components` + `counting` + `probability` count the remaining placements
   exactly (per independent component, combined with the interior through
   exact binomials), which also shows most cells "possible both ways";
4. `sat` refutes, with one incremental Minicard solver, every cell the count
   did not already show both ways, so certain cells are exact even when a
   component was too large to count;
5. `move` picks the action.

``strength="full"`` changes only how a guess is chosen (`_full_guess`):
an enclosed 50/50 (`fifty`) is taken at once; with few placements left the
`endgame` search maximises the chance to win; otherwise `guess` scores the
best candidates by a two-step look-ahead (`lookahead`). ``fast`` (the
default) takes the lowest P(mine), ties toward a likely zero.

No I/O, no global state (only a memo of neighbour tables by board size):
the same board always gives the same analysis.
"""

from __future__ import annotations

from fractions import Fraction

from bot.board import Board
from bot.errors import InconsistentBoardError
from bot.solver.analysis import Analysis, Move, Rule, Strength
from bot.solver.components import split
from bot.solver.constraints import Position, extract, neighbour_table
from bot.solver.endgame import search
from bot.solver.fifty import find_fifty_fifty
from bot.solver.guess import GuessOptions, choose_guess
from bot.solver.lookahead import make_base
from bot.solver.move import choose, zero_chance
from bot.solver.probability import DEFAULT_BUDGET, Probabilities, compute
from bot.solver.rules import Deduction, deduce
from bot.solver.sat import conflict, decide, satisfiable

__all__ = [
    "DEFAULT_BUDGET",
    "Analysis",
    "GuessOptions",
    "Move",
    "Rule",
    "Strength",
    "analyse",
    "consistent",
]

_OPENED = frozenset("012345678X*!-")


def analyse(
    board: Board,
    total_mines: int | None = None,
    rule: Rule = "safe",
    *,
    strength: Strength = "fast",
    budget: int = DEFAULT_BUDGET,
    guess_options: GuessOptions | None = None,
) -> Analysis:
    """Analyse one position.

    `total_mines` is the number of mines on the whole board (flags included)
    when known; without it probabilities follow the "every consistent
    placement equally likely" reading documented in `bot.solver.probability`.
    `rule` only matters while nothing is open (the first click). `budget`
    caps the counting work per frontier component (see `counting`).
    `strength="full"` spends more time on guesses (`guess`) to win more
    games; `guess_options` switches its features one by one (for ablations).
    Raises `InconsistentBoardError` when no mine placement fits the board.
    """
    position = extract(board)
    deduction = deduce(position, total_mines)
    components = split(deduction.constraints)
    frontier = frozenset(c for con in deduction.constraints for c in con.cells)
    interior = position.unknown - deduction.safe - deduction.mines - frontier
    probs = compute(components, deduction, interior, budget)
    if not probs.consistent:
        raise conflict(position, list(deduction.constraints), len(interior), deduction.remaining)
    undecided: frozenset[int] = frozenset()
    interior_undecided = False
    if probs.exact:
        undecided = frozenset(c for c, p in probs.frontier.items() if 0 < p < 1)
        interior_undecided = probs.interior is not None and 0 < probs.interior < 1
    certain = decide(
        position,
        deduction.constraints,
        len(interior),
        deduction.remaining,
        undecided,
        interior_undecided,
    )
    safe = set(deduction.safe | certain.safe)
    mines = set(deduction.mines | certain.mines)
    if certain.interior_safe:
        safe |= interior
    if certain.interior_mines:
        mines |= interior
    notes = probs.notes
    if certain.unresolved or certain.interior_unresolved:
        # SAT ran out of its conflict budget: an exact count decides as well as a proof.
        if probs.exact:
            for c in certain.unresolved:
                p = probs.frontier.get(c)
                if p == 0:
                    safe.add(c)
                elif p == 1:
                    mines.add(c)
            if certain.interior_unresolved and probs.interior in (0, 1):
                (safe if probs.interior == 0 else mines).update(interior)
            notes += ("SAT hit its conflict budget; the exact count decided those cells",)
        else:
            notes += ("SAT hit its conflict budget; some certain cells may be missing",)
    size = position.height * position.width
    flat: list[float | None] = [None] * size
    p_interior = float(probs.interior) if probs.interior is not None else None
    for c in position.unknown:
        if c in safe:
            flat[c] = 0.0
        elif c in mines:
            flat[c] = 1.0
        elif c in interior:
            flat[c] = p_interior
        else:
            flat[c] = float(probs.frontier.get(c, Fraction(0)))
    width = position.width
    grid = tuple(tuple(flat[r * width : (r + 1) * width]) for r in range(position.height))
    first_click = not any(ch in _OPENED for row in board.rows for ch in row)
    table = neighbour_table(position.height, width)
    move = choose(
        position.height,
        width,
        sorted(position.unknown),
        flat,
        sorted(safe),
        sorted(mines),
        table,
        first_click,
        rule,
    )
    if strength == "full" and move is not None and move.reason == "guess":
        move = (
            _full_guess(
                board,
                total_mines,
                position,
                deduction,
                probs,
                safe,
                mines,
                interior,
                flat,
                table,
                guess_options or GuessOptions(),
            )
            or move
        )
    return Analysis(
        safe=tuple(position.cell(c) for c in sorted(safe)),
        mines=tuple(position.cell(c) for c in sorted(mines)),
        probabilities=grid,
        move=move,
        exact=probs.exact,
        notes=notes,
    )


def consistent(board: Board, total_mines: int | None = None) -> bool:
    """Whether some mine placement fits `board` (and `total_mines`, when given).

    The question a learner asks many times ("could this picture be a 3?"):
    the cheap rules, then a single SAT call, without the counting and the
    per-cell refutations of `analyse`.
    """
    try:
        position = extract(board)
        deduction = deduce(position, total_mines)
    except InconsistentBoardError:
        return False
    frontier = frozenset(c for con in deduction.constraints for c in con.cells)
    interior = position.unknown - deduction.safe - deduction.mines - frontier
    return satisfiable(deduction.constraints, frontier, len(interior), deduction.remaining)


def _full_guess(
    board: Board,
    total_mines: int | None,
    position: Position,
    deduction: Deduction,
    probs: Probabilities,
    safe: set[int],
    mines: set[int],
    interior: frozenset[int],
    flat: list[float | None],
    table: tuple[tuple[int, ...], ...],
    options: GuessOptions,
) -> Move | None:
    """The ``full`` strength guess: endgame search if few placements remain, else lookahead."""
    width = position.width
    flagged = frozenset(i for i, ch in enumerate("".join(board.rows)) if ch in "F*!")
    base = make_base(
        position, deduction.constraints, frozenset(safe), frozenset(mines), flagged, table
    )
    if options.fifty_fifty:
        pair = find_fifty_fifty(base.position.constraints, base.position.unknown, table)
        if pair is not None:
            c = pair[0]
            return Move("open", c // width, c % width, float(flat[c] or 0.0), "guess")
    if (
        options.endgame
        and probs.exact
        and total_mines is not None
        and 0 < probs.weight <= options.endgame_placements
    ):
        choice = search(
            base.position,
            total_mines - base.position.known_mines,
            table,
            options.endgame_placements,
            options.endgame_nodes,
        )
        if choice is not None:
            c = choice.cell
            return Move("open", c // width, c % width, float(flat[c] or 0.0), "guess")
    open_candidates = sorted(position.unknown - mines)
    pick = choose_guess(
        base,
        total_mines,
        open_candidates,
        flat,
        frozenset(interior - safe - mines),
        {c: zero_chance(c, flat, table) for c in open_candidates},
        options,
    )
    if pick is None:
        return None
    return Move("open", pick // width, pick % width, float(flat[pick] or 0.0), "guess")
