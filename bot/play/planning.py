"""Which clicks to make on one position: every certain move at once, or one guess.

Pure functions of the board and the solver's analysis (no screen, no mouse), so
the choice of clicks, flags and chords is tested without a clone. The play
loop makes the steps in order and then waits for all of them to show.

Why a whole batch: opening a certain-safe cell never makes another certain
cell unsafe, and a flag on a certain mine changes nothing else, so every
certain move of a reading can be made before reading the screen again (one
read per batch instead of one per click). A guess is always alone: what it
opens changes every probability.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.board import FLAG, QUESTION, UNOPENED, Board, Cell
from bot.play.skinplay import PlayRules
from bot.solver import Analysis, Move


@dataclass(frozen=True)
class Step:
    """One planned action: a cell, what to do there, and why."""

    action: Literal["open", "flag", "chord"]
    cell: Cell
    why: str
    certain: bool
    #: Cells this step must open on screen (a chord opens the number's neighbours).
    opens: tuple[Cell, ...] = ()
    #: The cell shows a question mark, to take away before it is opened or flagged.
    unmark: bool = False


def plan_steps(
    board: Board,
    analysis: Analysis,
    rules: PlayRules,
    *,
    flags: bool,
    chord: bool,
    untouchable: Collection[Cell] = (),
    held: Collection[Cell] = (),
) -> list[Step]:
    """Every certain move of `analysis`, or its single best guess ([] if none).

    `flags`: flag certain mines (`--no-flags` turns it off, but a clone that
    declares the win only once every mine is flagged still gets its flags when
    nothing else is left). `chord`: chord satisfied numbers where the skin can.
    `untouchable`: cells no step may click: flags the bot did not place, which
    `board` shows covered (a click on a flag does nothing, a right click takes
    it away). A best guess among them gives no step. `held`: cells no step may
    click either, but a guess there gives way to the likeliest safe cell elsewhere
    (a learned skin's pictures msbot did not cause, `bot.learning.apprentice`).
    """
    untouchable = set(untouchable) | set(held)
    steps: list[Step] = []
    want_flags = flags
    safe = [cell for cell in analysis.safe if cell not in untouchable]
    mines = [cell for cell in analysis.mines if cell not in untouchable]
    covered = {cell for cell in board.cells() if board[cell] in UNOPENED}
    if rules.win_requires_flags and not safe and covered and covered <= set(analysis.mines):
        want_flags = True  # the clone declares the win only once every mine is flagged
    if want_flags:
        steps += [
            Step("flag", cell, "certain mine", True, unmark=board[cell] == QUESTION)
            for cell in mines
        ]
    if safe and chord and rules.chord != "none":
        chords, safe = plan_chords(board, safe)
        steps += [Step("chord", cell, "certain: chord", True, opens) for cell, opens in chords]
    steps += [Step("open", cell, "certain", True, unmark=board[cell] == QUESTION) for cell in safe]
    if not steps and analysis.move is not None:
        move = analysis.move
        if (move.row, move.col) in held and move.action == "open":
            move = _elsewhere(board, analysis, untouchable) or move
        if (move.row, move.col) in untouchable:
            return []
        certain = move.reason == "certain"
        if move.action == "flag" and not want_flags:
            return []
        why = "certain" if certain else f"{move.reason} p={move.p_mine:.3f}"
        cell = (move.row, move.col)
        unmark = move.action in ("open", "flag") and board[cell] == QUESTION
        steps.append(Step(move.action, cell, why, certain, unmark=unmark))
    return steps


def _elsewhere(board: Board, analysis: Analysis, avoid: set[Cell]) -> Move | None:
    """The covered cell least likely a mine outside `avoid`, as a guess."""
    best: tuple[float, Cell] | None = None
    for cell in board.cells():
        p = analysis.probabilities[cell[0]][cell[1]]
        if p is None or board[cell] not in UNOPENED or cell in avoid:
            continue
        if best is None or p < best[0]:
            best = (p, cell)
    if best is None:
        return None
    return Move("open", best[1][0], best[1][1], best[0], "guess")


def plan_chords(
    board: Board, safe: Sequence[Cell]
) -> tuple[list[tuple[Cell, tuple[Cell, ...]]], list[Cell]]:
    """Numbers whose flags are all placed and that would open two or more of the
    safe cells at once: chord those instead of clicking each cell.

    Returns (numbers to chord with the cells each opens, safe cells still to
    open one by one). Only flags already on screen count, so a chord never
    opens a mine the bot has not flagged; a question mark among the cells
    makes no chord (clones that skip "?" in a cascade skip it in a chord too).
    """
    remaining = set(safe)
    chords: list[tuple[Cell, tuple[Cell, ...]]] = []
    for cell in board.cells():
        n = board.number(cell)
        if not n:
            continue
        around = list(board.neighbours(cell))
        flags = sum(board[x] == FLAG for x in around)
        covered = [x for x in around if board[x] in UNOPENED]
        if (
            flags == n
            and len(covered) >= 2
            and all(x in remaining and board[x] != QUESTION for x in covered)
        ):
            chords.append((cell, tuple(covered)))
            remaining -= set(covered)
    return chords, [cell for cell in safe if cell in remaining]
