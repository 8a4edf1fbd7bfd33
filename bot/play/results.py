"""What a run of `msbot play` reports: one `GameResult` per game, the `Session` totals.

Kept apart from the loop so the per-game line, the JSON objects and the summary
(what people, `--json` readers and benchmarks/bench_play.py rely on) can be
read, tested and changed without touching how games are played.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.board import FLAG, UNOPENED
from bot.play.threebv import ThreeBV
from vision.reading import Reading, Status

#: "restarted": a new game began on screen that msbot did not start (a person
#: pressed the face or a key), before this one was seen to end; watching a
#: person (dry run with --games) or playing. "over": the game ended (it took
#: no more clicks) and the screen hid how: neither won nor lost is claimed.
Outcome = Literal["won", "lost", "stopped", "restarted", "over"]


def ended_outcome(status: Status) -> Outcome:
    """The outcome of a game whose reading says it ended (`vision.reading.ENDED`)."""
    if status == "won" or status == "lost" or status == "over":
        return status
    raise ValueError(f"status {status!r} is no end")


@dataclass
class GameResult:
    """One game, as the per-game line and the summary report it."""

    game: int
    outcome: Outcome
    seconds: float = 0.0
    clicks: int = 0
    guesses: int = 0
    rows: int = 0
    cols: int = 0
    mines: int | None = None
    #: A loss on a move the solver called certain: a bug, reported loudly.
    certain_loss: bool = False
    message: str = ""
    #: Dry run: `clicks` and `guesses` were advised to a person, not made.
    advised: bool = False
    #: The game was cut short by an error (its message is printed once, on stderr).
    error: bool = False
    #: Dry run: the advice, position by position ({"position": n, "actions": [...]}).
    positions: list[dict[str, Any]] = field(default_factory=list)
    #: Milliseconds each reading of the board took during the game (vision only:
    #: `BoardReader.read` of a grabbed frame whose geometry is known).
    read_ms: list[float] = field(default_factory=list)
    #: Milliseconds of each check made right before a click on a cell (the
    #: window under the point, the cell's pixels: `bot.play.click_check`).
    check_ms: list[float] = field(default_factory=list)
    #: The board's 3BV and the part of it done (`bot.play.threebv`); None when the
    #: finished board does not show its layout (or the game did not finish).
    bbbv: ThreeBV | None = None

    @property
    def bbbv_per_s(self) -> float | None:
        """3BV done per second of play: the speed players compare."""
        if self.bbbv is None or self.seconds <= 0:
            return None
        return self.bbbv.solved / self.seconds

    @property
    def efficiency(self) -> float | None:
        """3BV done per click made (1.0: not one click more than needed)."""
        if self.bbbv is None or self.clicks <= 0 or self.advised:
            return None
        return self.bbbv.solved / self.clicks

    def line(self) -> str:
        mines = f"/{self.mines}" if self.mines is not None else ""  # no counter read
        size = f"{self.cols}x{self.rows}{mines}" if self.rows else "?"
        what = ("action", "actions") if self.advised else ("click", "clicks")
        advised = " advised" if self.advised else ""
        text = (
            f"game {self.game}: {self.outcome.upper()} {size} in {self.seconds:.2f} s, "
            f"{_count(self.clicks, *what)}{advised}, {_count(self.guesses, 'guess', 'guesses')}"
        )
        if self.bbbv is not None and not self.advised:
            done = "" if self.outcome == "won" else f"{self.bbbv.solved} of "
            text += f", 3BV {done}{self.bbbv.total}"
            if self.bbbv_per_s is not None:
                text += f" ({self.bbbv_per_s:.2f} 3BV/s)"
        if self.message and not self.error:
            text += f" ({self.message})"
        return text

    def to_json(self) -> dict[str, Any]:
        """The game as one JSON object; a dry run made no click: its actions are
        `advised_actions` and, in full, `positions` (cell, screen x/y, why)."""
        data: dict[str, Any] = {
            "game": self.game,
            "outcome": self.outcome,
            "seconds": round(self.seconds, 3),
            "clicks": 0 if self.advised else self.clicks,
            "guesses": self.guesses,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "certain_loss": self.certain_loss,
            "message": self.message,
            "advised": self.advised,
            "reads": len(self.read_ms),
            "read_ms_median": round(statistics.median(self.read_ms), 3) if self.read_ms else None,
            "check_ms_median": (
                round(statistics.median(self.check_ms), 3) if self.check_ms else None
            ),
            "3bv": self.bbbv.total if self.bbbv is not None else None,
            "3bv_solved": self.bbbv.solved if self.bbbv is not None else None,
            "3bv_per_s": _rounded(self.bbbv_per_s),
            "efficiency": _rounded(self.efficiency),
        }
        if self.advised:
            data["advised_actions"] = self.clicks
            data["positions"] = self.positions
        return data


@dataclass
class Session:
    """All games of one run and their totals."""

    games: list[GameResult] = field(default_factory=list)
    skin: str = ""
    stopped: str = ""
    #: Stopped by Ctrl+C or SIGTERM (`signal` says which), not by an error.
    interrupted: bool = False
    signal: int = 0

    def summary(self) -> dict[str, Any]:
        played = [g for g in self.games if g.outcome in ("won", "lost")]
        wins = [g for g in played if g.outcome == "won"]
        return {
            "skin": self.skin,
            "games": len(played),
            "wins": len(wins),
            "win_rate": round(len(wins) / len(played), 4) if played else 0.0,
            "mean_seconds": round(sum(g.seconds for g in played) / len(played), 3)
            if played
            else 0.0,
            "mean_win_seconds": round(sum(g.seconds for g in wins) / len(wins), 3)
            if wins
            else None,
            "clicks": sum(g.clicks for g in self.games if not g.advised),
            "advised_actions": sum(g.clicks for g in self.games if g.advised),
            "guesses": sum(g.guesses for g in self.games),
            "certain_losses": sum(g.certain_loss for g in self.games),
            "stopped_games": sum(g.outcome == "stopped" for g in self.games),
            "restarted_games": sum(g.outcome == "restarted" for g in self.games),
            "over_games": sum(g.outcome == "over" for g in self.games),
            "stopped": self.stopped,
            # Of won games, as players compare them.
            "median_3bv": _median([g.bbbv.total for g in wins if g.bbbv is not None]),
            "median_3bv_per_s": _median([v for g in wins if (v := g.bbbv_per_s) is not None]),
            "median_efficiency": _median([v for g in wins if (v := g.efficiency) is not None]),
        }

    def summary_line(self) -> str:
        """The totals; a stop by an error is not repeated here (the command line
        prints it once, on stderr), a Ctrl+C is. Stopped games are counted apart
        from the won/lost ones."""
        s = self.summary()
        if s["games"]:
            text = (
                f"{s['wins']}/{s['games']} won ({100 * s['win_rate']:.0f} %), "
                f"mean {s['mean_seconds']:.2f} s per game, "
            )
        else:
            text = "no game finished, "
        if s["stopped_games"]:
            # A stopped game is neither won nor lost; leaving it out of the
            # count alone would make "1/1 won" read as a clean run.
            text += f"{s['stopped_games']} stopped, "
        if s["restarted_games"]:
            # Left for a new game someone else began: neither won nor lost.
            text += f"{s['restarted_games']} left for a new game begun on screen, "
        if s["over_games"]:
            # Ended where the clone's window hid the last guessed cell: a win
            # or a loss would be a guess, so neither is counted.
            text += f"{s['over_games']} ended out of sight (won or lost not shown), "
        if s["advised_actions"]:
            text += f"{s['advised_actions']} actions advised (the mouse was not touched), "
        else:
            text += f"{_count(s['clicks'], 'click', 'clicks')}, "
        text += _count(s["guesses"], "guess", "guesses")
        if s["certain_losses"]:
            text += f", {s['certain_losses']} LOSSES ON CERTAIN MOVES (bug)"
        if self.stopped and self.interrupted:
            text += f"; stopped: {self.stopped}"
        return text


def board_complete(reading: Reading, total: int | None) -> bool:
    """No cell left to open, the flags are the mines and the counter agrees.

    Such a board is a won game even when the clone's face or message does not
    say so (minegauler, now and then): the loop counts it as won rather than
    stopping with "nothing left to do".
    """
    board = reading.board
    return (
        total is not None
        and board.count("".join(UNOPENED)) == 0
        and board.count(FLAG) == total
        and reading.mines_left == 0
    )


def _count(n: int, one: str, many: str) -> str:
    """'1 guess', '3 guesses': people read these lines."""
    return f"{n} {one if n == 1 else many}"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _median(values: list[float] | list[int]) -> float | None:
    return round(float(statistics.median(values)), 3) if values else None
