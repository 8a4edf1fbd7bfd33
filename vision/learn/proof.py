"""Name looks only with proof: what msbot did, what a finished board shows, what the rules allow.

A learned skin is trusted by the solver, which clicks on what it reads, so a
wrong name loses games. Every name here comes with its evidence, kept in the
skin for a person to audit:

* **own actions** (named by the live learner, `bot.learning.apprentice`): the
  look a right click put on a covered cell is the flag (the next one in the
  cycle the question mark); a look that appeared on a cell msbot opened while
  the game went on is an open cell, of a value not known yet;
* **a unique value** (`prove_values`): a look is a number v when every other
  value 0-8 (or "a mine", for what a finished board shows) makes some board
  it was seen on impossible, checked by SAT over the whole board with the
  names already proven (`bot.solver.consistent`), and, on a board the clone
  had finished drawing during play, the rule every clone follows of opening
  the neighbours of a 0 itself;
* **the same cell** (`same_cell_names`): a finished board may draw every cell
  anew (xbomb frames them in green); a cell that showed a number during the
  game shows that number after it.

Elimination is sound whatever is still unnamed: a look without a name
counts as a covered cell (it may or may not hide a mine), which only ever
admits more placements, so a value refuted with fewer names is refuted for
good. A value is named only when it alone is left. What no evidence settles
stays unnamed, and a reader shows it as unsure, never as its nearest kind.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.board import Board
from bot.solver import consistent

#: Values an open cell may show.
NUMBER_CHARS = "012345678"
#: Characters that cover a cell (a 0 next to one is a board the clone has not finished).
CLOSED_CHARS = frozenset(".F?")


@dataclass(frozen=True)
class Name:
    """What a look means (a board character) and the evidence for it, in words."""

    char: str
    evidence: str


@dataclass(frozen=True)
class Scene:
    """One board msbot saw, as looks: a settled board of a game in play, or a
    finished one (merged with what the game showed before it ended)."""

    #: (rows, cols) look ids.
    looks: np.ndarray
    #: Drawn completely while the game was in play: every 0's neighbours are open.
    in_play: bool
    #: The game's mine total when known.
    total: int | None = None
    #: Where it came from, for evidence texts ("game 2, after click 14").
    label: str = ""


@dataclass
class Proof:
    """The outcome of `prove_values`: new names, and values that fitted no look."""

    names: dict[int, Name] = field(default_factory=dict)
    #: Looks every candidate of which some scene refutes: not named, reported.
    contradictions: dict[int, str] = field(default_factory=dict)


def board_of(
    scene: Scene,
    names: Mapping[int, str],
    open_looks: Iterable[int] = (),
) -> Board:
    """The scene as board text: named looks as their characters, looks proven open
    but of an unknown value as '-', anything else as covered ('.': it may or may
    not hide a mine, the weakest assumption)."""
    count = int(scene.looks.max()) + 1 if scene.looks.size else 0
    lookup = np.full(max(count, 1), ".", dtype="<U1")
    opened = set(open_looks)
    for look in range(count):
        if look in names:
            lookup[look] = names[look]
        elif look in opened:
            lookup[look] = "-"
    chars = lookup[scene.looks]
    return Board(tuple("".join(row) for row in chars.tolist()))


#: Conflicts one SAT call may take before it gives up: on a finished 32x32
#: board (ace-minesweeper lost on its second click, its 200 mines shown, the
#: rest covered) every value of the mines' picture was on trial on 200 cells
#: at once, and one call ran for minutes. A call given up refutes nothing.
CONFLICTS = 20_000
#: Seconds of SAT calls one `prove_values` spends at most (the same rule).
PROOF_SECONDS = 5.0


class Undecided(Exception):
    """The SAT solver gave up within its budget: nothing is proven either way."""


class _Formula:
    """Every scene as one SAT problem: a variable per cell that may hide a mine,
    and per look on trial a selector per candidate character (exactly one is
    true). A candidate number v of a look constrains each of its cells to v
    mines around when its selector is true; a mine candidate makes the look's
    cells mines when its selector is true."""

    def __init__(
        self,
        names: Mapping[int, str],
        candidates: Mapping[int, str],
        scenes: Sequence[Scene],
        opened: set[int],
    ) -> None:
        from pysat.card import CardEnc, EncType
        from pysat.solvers import Minicard

        self.solver = Minicard()
        self.top = 0
        self.select: dict[tuple[int, str], int] = {}
        self.broken: list[str] = []
        for look, chars in candidates.items():
            lits = [self._new() for _ in chars]
            for ch, lit in zip(chars, lits, strict=True):
                self.select[(look, ch)] = lit
            self.solver.add_clause(lits)
            self.solver.add_atmost(lits, 1)
        for scene in scenes:
            self._scene(scene, names, candidates, opened, CardEnc, EncType)

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _scene(self, scene, names, candidates, opened, CardEnc, EncType) -> None:  # type: ignore[no-untyped-def]
        rows, cols = scene.looks.shape
        mine: dict[tuple[int, int], int] = {}
        known = np.zeros((rows, cols), dtype=bool)
        looks = scene.looks.tolist()
        for r in range(rows):
            for c in range(cols):
                look = looks[r][c]
                ch = names.get(look)
                if ch is not None:
                    if ch in "F*!":
                        known[r, c] = True
                    elif ch in ".?":
                        mine[(r, c)] = self._new()
                    continue
                if look in candidates:
                    chars = candidates[look]
                    mines = [self.select[(look, m)] for m in chars if m in "*!"]
                    if mines:
                        var = self._new()
                        mine[(r, c)] = var
                        # The cell is a mine exactly when a mine candidate is chosen.
                        self.solver.add_clause([-var, *mines])
                        for m in mines:
                            self.solver.add_clause([var, -m])
                    continue
                if look not in opened:
                    mine[(r, c)] = self._new()

        def around(r: int, c: int) -> tuple[list[int], int, bool]:
            lits, fixed, closed = [], 0, False
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols:
                        if known[rr, cc]:
                            fixed += 1
                        elif (rr, cc) in mine:
                            lits.append(mine[(rr, cc)])
                        if names.get(looks[rr][cc]) in CLOSED_CHARS:
                            closed = True
            return lits, fixed, closed

        for r in range(rows):
            for c in range(cols):
                look = looks[r][c]
                ch = names.get(look)
                if ch is not None and ch in NUMBER_CHARS:
                    lits, fixed, _ = around(r, c)
                    self._equals(lits, int(ch) - fixed, None, CardEnc, EncType, scene, (r, c))
                elif ch is None and look in candidates:
                    lits, fixed, closed = around(r, c)
                    for cand in candidates[look]:
                        if cand not in NUMBER_CHARS:
                            continue
                        sel = self.select[(look, cand)]
                        if cand == "0" and scene.in_play and closed:
                            self.solver.add_clause([-sel])
                            continue
                        self._equals(lits, int(cand) - fixed, sel, CardEnc, EncType, scene, (r, c))
        if scene.total is not None:
            lits = list(mine.values())
            need = scene.total - int(known.sum())
            if need < 0 or need > len(lits):
                self.broken.append(f"{scene.label}: the mine total {scene.total} cannot be met")
                self.solver.add_clause([])
            else:
                self.solver.add_atmost(lits, need)
                self.solver.add_atmost([-x for x in lits], len(lits) - need)

    def _equals(self, lits, bound, sel, CardEnc, EncType, scene, cell) -> None:  # type: ignore[no-untyped-def]
        """sum(lits) == bound (when `sel` is true, or always for None)."""
        guard = [] if sel is None else [-sel]
        if bound < 0 or bound > len(lits):
            if sel is None:
                self.broken.append(f"{scene.label}: the number at {cell} cannot hold")
            self.solver.add_clause(guard)
            return
        if not lits:
            return
        if sel is None:
            self.solver.add_atmost(lits, bound)
            self.solver.add_atmost([-x for x in lits], len(lits) - bound)
            return
        enc = CardEnc.equals(lits, bound, top_id=self.top, encoding=EncType.seqcounter)
        self.top = max(self.top, enc.nv)
        for clause in enc.clauses:
            self.solver.add_clause([*clause, *guard])

    def model_choices(self) -> set[tuple[int, str]] | None:
        """The candidates a model of the whole formula chooses (None: no model;
        `Undecided` when the solver gave up)."""
        if not self._solve([]):
            return None
        return self._chosen()

    def _chosen(self) -> set[tuple[int, str]]:
        model = set(self.solver.get_model() or [])
        return {key for key, lit in self.select.items() if lit in model}

    def allows(self, key: tuple[int, str]) -> set[tuple[int, str]] | None:
        """The choices of a model where `key` is chosen, or None if there is none
        (`Undecided` when the solver gave up)."""
        if not self._solve([self.select[key]]):
            return None
        return self._chosen()

    def _solve(self, assumptions: list[int]) -> bool:
        self.solver.conf_budget(CONFLICTS)
        found = self.solver.solve_limited(assumptions=assumptions)
        if found is None:
            raise Undecided(f"SAT gave up after {CONFLICTS} conflicts")
        return bool(found)

    def close(self) -> None:
        self.solver.delete()


def prove_values(
    names: Mapping[int, Name],
    candidates: Mapping[int, str],
    scenes: Sequence[Scene],
    open_looks: Iterable[int] = (),
) -> Proof:
    """Name every look of `candidates` (look -> the characters it may be) that
    takes one candidate in every mine placement fitting all of `scenes` at once
    (each look one character throughout; the looks on trial all at once, so one
    look's value can follow from another's). Names already given are proven."""
    known = {look: name.char for look, name in names.items()}
    todo = {look: chars for look, chars in candidates.items() if look not in known}
    opened = set(open_looks) - set(todo)
    proof = Proof()
    shown = [s for s in scenes if np.isin(s.looks, list(todo)).any()]
    if not todo or not shown:
        return proof
    formula = _Formula(known, todo, shown, opened)
    try:
        try:
            first = formula.model_choices()
        except Undecided:
            return proof  # not even one placement found in the budget: nothing proven
        if first is None:
            why = "; ".join(formula.broken) or "no mine placement fits the boards with the names"
            for look in todo:
                proof.contradictions[look] = why
            return proof
        alive = set(first)
        deadline = time.monotonic() + PROOF_SECONDS
        for look, chars in todo.items():
            for ch in chars:
                if (look, ch) in alive:
                    continue
                if time.monotonic() > deadline:
                    alive.add((look, ch))  # not refuted: out of time
                    continue
                try:
                    found = formula.allows((look, ch))
                except Undecided:
                    alive.add((look, ch))  # not refuted
                    continue
                if found is not None:
                    alive |= found
        for look, chars in todo.items():
            left = [ch for ch in chars if (look, ch) in alive]
            on = sum(1 for s in shown if (s.looks == look).any())
            if len(left) == 1:
                refuted = ", ".join(_spell(ch) for ch in chars if ch != left[0])
                proof.names[look] = Name(
                    left[0],
                    f"the only one of {_spell(chars)} that fits the {on} board(s) it shows on "
                    f"(SAT over every mine placement and the other pictures' values; "
                    f"no placement fits it being {refuted})",
                )
    finally:
        formula.close()
    return proof


def _spell(chars: str) -> str:
    return ", ".join("a mine" if ch == "*" else ch for ch in chars)


def same_cell_names(
    before: np.ndarray, after: np.ndarray, names: Mapping[int, Name], label: str
) -> tuple[dict[int, Name], dict[int, str]]:
    """Names for the looks of a finished board (`after`) that show, cell for
    cell, where `before` (the last board in play) showed a named number: an open
    cell keeps its value. A look that would get two values is no number (a window
    drawn over the board): it is returned among the contradictions instead."""
    values: dict[int, set[str]] = {}
    for look_a, look_b in zip(before.reshape(-1).tolist(), after.reshape(-1).tolist(), strict=True):
        name = names.get(look_a)
        if name is not None and name.char in NUMBER_CHARS and look_b not in names:
            values.setdefault(look_b, set()).add(name.char)
    out: dict[int, Name] = {}
    clashes: dict[int, str] = {}
    for look, chars in values.items():
        if len(chars) == 1:
            (ch,) = chars
            out[look] = Name(ch, f"{label}: shown where the board in play showed a {ch}")
        else:
            clashes[look] = f"{label}: shown where the board in play showed {sorted(chars)}"
    return out, clashes


def contradictions(
    scenes: Sequence[Scene], names: Mapping[int, Name], open_looks: Iterable[int] = ()
) -> list[str]:
    """Every scene no mine placement fits with all the names (empty: all fit), and
    every 0 beside a closed cell on a board drawn completely in play (a picture
    with no name is no closed cell here: it may be anything)."""
    known = {look: name.char for look, name in names.items()}
    opened = set(open_looks)
    closed_looks = [look for look, ch in known.items() if ch in CLOSED_CHARS]
    zeros = [look for look, ch in known.items() if ch == "0"]
    out = []
    for scene in scenes:
        board = board_of(scene, known, opened)
        if not consistent(board, scene.total):
            out.append(
                f"{scene.label}: no mine placement fits the board read with these names "
                f"({'/'.join(board.rows)}, {scene.total} mines)"
            )
            continue
        if scene.in_play:
            closed = np.isin(scene.looks, closed_looks)
            near = np.zeros_like(closed)
            padded = np.pad(closed, 1)
            rows, cols = closed.shape
            for dr in range(3):
                for dc in range(3):
                    if (dr, dc) != (1, 1):
                        near |= padded[dr : dr + rows, dc : dc + cols]
            bad = np.argwhere(np.isin(scene.looks, zeros) & near)
            if len(bad):
                r, c = (int(v) for v in bad[0])
                out.append(f"{scene.label}: a 0 at {(r, c)} beside a closed cell")
    return out
