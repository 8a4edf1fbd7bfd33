"""The solver's value types: what `analyse` returns to the play loop, the bench and the CLI.

They are frozen so an analysis can be cached, compared in tests and shared
between threads without copying.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.board import Cell

#: How a clone treats the first click: ``safe`` never a mine (Windows XP),
#: ``zero`` opens an area (Windows 7, GNOME), ``none`` no protection.
Rule = Literal["safe", "zero", "none"]

#: ``fast`` keeps every decision within the foundation's time budget; ``full``
#: spends more time per guess to win more games (the solver-strength issue).
Strength = Literal["fast", "full"]

Action = Literal["open", "flag", "chord"]


@dataclass(frozen=True)
class Move:
    """The single next action: open (left click), flag (right click) or chord.

    `reason` is ``certain`` (proved safe or proved mine), ``guess`` (lowest
    risk among undecided cells) or ``first-click`` (nothing is open yet and
    the rule says what a first click can do).
    """

    action: Action
    row: int
    col: int
    p_mine: float
    reason: str


@dataclass(frozen=True)
class Analysis:
    """Everything the solver knows about one position.

    `safe` and `mines` list every covered, unflagged cell that is certainly
    safe or certainly a mine (sorted, row-major). `probabilities[r][c]` is the
    chance that cell (r, c) hides a mine, None for cells that are not covered
    or are flagged. `exact` is False when a frontier component was too large
    to count within the time budget and probabilities came from the
    documented approximation (`bot.solver.probability`); certain cells are
    exact in every case. `notes` says why, in words.
    """

    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    probabilities: tuple[tuple[float | None, ...], ...]
    move: Move | None
    exact: bool
    notes: tuple[str, ...] = ()
