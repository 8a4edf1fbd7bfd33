"""One bench game: the solver plays a simulated game and every claim it makes is checked.

Each decision the player asks the solver for its analysis of the visible
board, opens every certain-safe cell at once (certain cells cannot interfere
with each other) or, when there is none, the solver's chosen move. It never
flags: the simulator wins when every safe cell is open. Before anything else
counts, EVERY cell the analysis calls safe must be safe and every cell it calls
a mine must be a mine in the hidden truth; one false claim aborts the whole
bench with a `FalseClaimError` carrying what is needed to replay the position.

A game depends only on the board, the rule, the solver and its seed, which
derives from the bench seed and the game's index: so the results do not depend
on how many processes or machines play them, nor in which order.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast, get_args

import numpy as np

from bot.bench.simulator import Game, Rule
from bot.board import UNOPENED, Board, Cell
from bot.errors import MsbotError
from bot.limits import check_board_size
from bot.solver import Strength
from bot.solver import analyse as solver_analyse

#: Named boards: (rows, columns, mines).
BOARDS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}


class BenchError(MsbotError):
    """The bench cannot run or the solver misbehaved (no move, a move on an open cell)."""


class FalseClaimError(BenchError):
    """The solver called a mine safe or a safe cell a mine: the bench result is void."""


class MoveLike(Protocol):
    """What the bench reads of `bot.solver.Move`."""

    @property
    def action(self) -> str: ...
    @property
    def row(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def p_mine(self) -> float | None: ...
    @property
    def reason(self) -> str: ...


class AnalysisLike(Protocol):
    """What the bench reads of `bot.solver.Analysis`."""

    @property
    def safe(self) -> Sequence[Cell]: ...
    @property
    def mines(self) -> Sequence[Cell]: ...
    @property
    def move(self) -> MoveLike | None: ...


Analyser = Callable[[Board, int, Rule], AnalysisLike]


@dataclass(frozen=True)
class BoardSpec:
    """A board size: a name for people and its rows, columns and mines."""

    name: str
    height: int
    width: int
    mines: int


def parse_board_spec(text: str) -> BoardSpec:
    """`beginner`, `intermediate`, `expert` or `RxCxM` (rows x columns x mines)."""
    key = text.strip().lower()
    if key in BOARDS:
        h, w, m = BOARDS[key]
        return BoardSpec(key, h, w, m)
    match = re.fullmatch(r"(\d+)x(\d+)x(\d+)", key)
    if not match:
        raise BenchError(
            f"unknown board {text!r}: use beginner, intermediate, expert or RxCxM "
            "(rows x columns x mines, e.g. 16x30x99)"
        )
    h, w, m = (int(g) for g in match.groups())
    if h < 1 or w < 1 or m >= h * w:
        raise BenchError(f"board {text!r} is impossible: {m} mines on {h}x{w} cells")
    check_board_size(h, w, f"board {text!r}")
    return BoardSpec(f"{h}x{w}x{m}", h, w, m)


def solver_fingerprint() -> str:
    """A short hash of the code a bench game's outcome depends on (the solver,
    the simulator, this module): a results file made by other code is another run."""
    here = Path(__file__).resolve().parent
    root = here.parent  # bot/
    files = sorted((root / "solver").rglob("*.py"))
    digest = hashlib.sha256()
    for path in [*files, here / "simulator.py", root / "board.py", Path(__file__).resolve()]:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def game_seed(bench_seed: int, index: int) -> int:
    """The seed of game `index`: a hash of (bench seed, index), independent of --jobs."""
    state = np.random.SeedSequence([bench_seed, index]).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


def default_strength() -> str:
    """The strength `analyse` uses when none is given, for the report."""
    return str(inspect.signature(solver_analyse).parameters["strength"].default)


def load_analyser(strength: str | None = None) -> Analyser:
    """The real solver's `analyse`, with `strength` bound when asked for."""
    if strength is None:
        return solver_analyse
    if strength not in get_args(Strength):
        raise BenchError(
            f"unknown strength {strength!r} (expected one of {', '.join(get_args(Strength))})"
        )
    return functools.partial(solver_analyse, strength=cast(Strength, strength))


# -- one game -------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """How one game went; times in seconds."""

    index: int
    seed: int
    won: bool
    guesses: int
    #: How many safe and mine claims of the solver were checked against the truth.
    safe_claims: int
    mine_claims: int
    decision_times: tuple[float, ...]
    decision_cpu_times: tuple[float, ...]
    game_time: float


def _where(spec: BoardSpec, rule: Rule, index: int, seed: int, board: Board) -> str:
    return (
        f"game {index} (game seed {seed}; replay with "
        "bot.bench.simulator.Game("
        f"{spec.height}, {spec.width}, {spec.mines}, {rule!r}, seed={seed})), "
        f"on this board:\n{board.to_text()}"
    )


def check_claims(
    game: Game, board: Board, analysis: AnalysisLike, spec: BoardSpec, rule: Rule, index: int
) -> tuple[int, int]:
    """Raise `FalseClaimError` unless every safe/mine claim agrees with the hidden truth.

    Returns how many safe and mine claims were checked.

    `board` is the position the solver analysed; the game must have its mines
    placed (claims made on the all-covered board are checked after the first
    click has placed them).
    """
    for r, c in analysis.safe:
        if game.is_mine((r, c)):
            raise FalseClaimError(
                f"false claim: the solver called {(r, c)} safe but it is a mine; "
                + _where(spec, rule, index, game.seed, board)
            )
    for r, c in analysis.mines:
        if not game.is_mine((r, c)):
            raise FalseClaimError(
                f"false claim: the solver called {(r, c)} a mine but it is safe; "
                + _where(spec, rule, index, game.seed, board)
            )
    return len(analysis.safe), len(analysis.mines)


def _cells_to_open(
    board: Board, analysis: AnalysisLike, spec: BoardSpec, rule: Rule, index: int, seed: int
) -> tuple[list[Cell], bool]:
    """The cells this decision opens and whether that is a guess."""
    if analysis.safe:
        cells = [(int(r), int(c)) for r, c in analysis.safe]
        guess = False
    else:
        move = analysis.move
        if move is None or move.action != "open":
            raise BenchError(
                f"the solver offered no cell to open ({move!r}); "
                + _where(spec, rule, index, seed, board)
            )
        cells = [(int(move.row), int(move.col))]
        guess = move.reason != "certain" and move.p_mine != 0
    for cell in cells:
        if not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
            raise BenchError(
                f"the solver chose {cell}, outside the board; "
                + _where(spec, rule, index, seed, board)
            )
        if board[cell] not in UNOPENED:
            raise BenchError(
                f"the solver chose {cell}, which is not covered; "
                + _where(spec, rule, index, seed, board)
            )
    return cells, guess


def play_game(spec: BoardSpec, rule: Rule, index: int, seed: int, analyse: Analyser) -> GameResult:
    """Play one game to its end, checking every claim of every decision."""
    start = time.perf_counter()
    game = Game(spec.height, spec.width, spec.mines, rule, seed)
    times: list[float] = []
    cpu_times: list[float] = []
    guesses = 0
    claims = [0, 0]
    # Every decision opens at least one cell, so this bounds a misbehaving solver.
    limit = spec.height * spec.width + 1
    while game.status == "playing":
        if len(times) >= limit:
            raise BenchError(
                f"no progress after {limit} decisions; "
                + _where(spec, rule, index, seed, game.board())
            )
        board = game.board()
        t0 = time.perf_counter()
        c0 = time.thread_time()
        try:
            analysis = analyse(board, spec.mines, rule)
        except MsbotError as exc:
            # A real game's board is always consistent: this is a solver bug.
            raise BenchError(
                f"the solver failed ({exc}); " + _where(spec, rule, index, seed, board)
            ) from exc
        times.append(time.perf_counter() - t0)
        cpu_times.append(time.thread_time() - c0)
        cells, guess = _cells_to_open(board, analysis, spec, rule, index, seed)
        guesses += guess
        for cell in cells:
            if game.status == "playing":
                game.open(cell)
        # After the moves, so that the first click has placed the mines.
        safe, mines = check_claims(game, board, analysis, spec, rule, index)
        claims[0] += safe
        claims[1] += mines
    return GameResult(
        index=index,
        seed=seed,
        won=game.status == "won",
        guesses=guesses,
        safe_claims=claims[0],
        mine_claims=claims[1],
        decision_times=tuple(times),
        decision_cpu_times=tuple(cpu_times),
        game_time=time.perf_counter() - start,
    )


# -- a chunk of games, as an engine runs it --------------------------------------


@dataclass(frozen=True)
class Task:
    """One chunk of games for an engine to play: picklable, and all a worker needs."""

    chunk: int
    spec: BoardSpec
    rule: Rule
    bench_seed: int
    indices: Sequence[int]
    strength: str | None
    analyse: Analyser | None


def play_task(task: Task) -> tuple[int, list[GameResult]]:
    """Play a chunk's games on whichever process or machine the engine chose."""
    analyse = task.analyse or load_analyser(task.strength)
    return task.chunk, [
        play_game(task.spec, task.rule, i, game_seed(task.bench_seed, i), analyse)
        for i in task.indices
    ]
