"""A bench's results file: one JSON line per finished chunk of games, so a run resumes.

A run of 10⁵ or more games takes hours; a killed process, a lost cluster or a
reboot must not throw them away. The first line names the run (board, rule,
strength, seed, games, chunk size and a hash of the solver's code: everything
the results depend on); each following line holds one chunk's games exactly as
they were played. Opening the file again for the same run gives back the
finished chunks, which are not played again; a file of another run is refused
rather than mixed in. A last line cut short by a kill is dropped (and cut off
the file) before appending.

Times are stored in whole microseconds, which is finer than any figure the
bench reports.

One run writes a file at a time: a second run of the same command on the same
file (two terminals, a resume started while the first still runs) would play
every chunk twice and interleave its lines, so the file is locked while open.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.bench.game import BenchError, GameResult
from bot.limits import LimitError, parse_json

#: Written in the first line; a file of another format is refused.
FORMAT = 1


class BenchLogError(BenchError):
    """The results file cannot be read, written or belongs to another run."""


@dataclass(frozen=True)
class RunKey:
    """What a bench's results depend on: two runs with the same key play the same games."""

    board: str
    height: int
    width: int
    mines: int
    rule: str
    strength: str
    seed: int
    games: int
    chunk: int
    #: `bot.bench.game.solver_fingerprint()`: games of other solver code are not these.
    solver: str


def _us(seconds: float) -> int:
    return round(seconds * 1e6)


def encode_game(g: GameResult) -> list[Any]:
    """One game as a compact JSON list (the file of 10⁵ expert games stays tens of MB)."""
    return [
        g.index,
        g.seed,
        int(g.won),
        g.guesses,
        g.safe_claims,
        g.mine_claims,
        _us(g.game_time),
        [_us(t) for t in g.decision_times],
        [_us(t) for t in g.decision_cpu_times],
    ]


def decode_game(item: Any) -> GameResult:
    """The inverse of `encode_game`; a malformed item raises ValueError/TypeError."""
    index, seed, won, guesses, safe, mines, game_us, times, cpu = item
    return GameResult(
        index=int(index),
        seed=int(seed),
        won=bool(won),
        guesses=int(guesses),
        safe_claims=int(safe),
        mine_claims=int(mines),
        decision_times=tuple(int(t) / 1e6 for t in times),
        decision_cpu_times=tuple(int(t) / 1e6 for t in cpu),
        game_time=int(game_us) / 1e6,
    )


class BenchLog:
    """An open results file: the chunks already in it, and `append` for new ones."""

    def __init__(self, path: Path, key: RunKey) -> None:
        self.path = path
        self.key = key
        self.done: dict[int, list[GameResult]] = {}
        self._lock: int | None = None
        try:
            self._take_lock()
            self._open()
        except OSError as exc:
            self.close()
            raise BenchLogError(f"cannot use results file {path}: {exc.strerror or exc}") from exc
        except BenchLogError:
            self.close()
            raise

    def _take_lock(self) -> None:
        """Hold an exclusive lock on the file until `close` (POSIX only: elsewhere
        nothing stops a second run, which is the user's to avoid)."""
        if sys.platform == "win32":
            return
        import fcntl

        self._lock = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BenchLogError(
                f"results file {self.path} is being written by another run: "
                "wait for it to end (or stop it), then run again to resume"
            ) from None

    def close(self) -> None:
        """Let another run use the file (the lock goes with the descriptor)."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def __enter__(self) -> BenchLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> None:
        header = {"msbot_bench": FORMAT, **self.key.__dict__}
        if not self.path.exists() or self.path.stat().st_size == 0:
            with self.path.open("w", encoding="utf-8") as out:
                out.write(json.dumps(header) + "\n")
            return
        if not self.path.is_file():
            raise BenchLogError(f"results file {self.path} is not a regular file")
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        whole = len(raw) if raw.endswith(b"\n") else len(raw) - len(lines[-1])
        try:
            found = parse_json(lines[0])
        except (ValueError, LimitError):
            found = None
        if not isinstance(found, dict) or found.get("msbot_bench") != FORMAT:
            raise BenchLogError(f"{self.path} is not an msbot bench results file")
        differ = [
            f"{k} {found.get(k)!r} there, {v!r} here"
            for k, v in header.items()
            if found.get(k) != v
        ]
        if differ:
            raise BenchLogError(
                f"{self.path} holds another run ({'; '.join(differ)}): "
                "give another --results file to start this one"
            )
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                record = parse_json(line)
                chunk = int(record["chunk"])
                games = [decode_game(item) for item in record["games"]]
            except (ValueError, TypeError, KeyError, LimitError) as exc:
                if number == len(lines) and not raw.endswith(b"\n"):
                    break  # the last line, cut short by a kill: cut off below
                raise BenchLogError(f"{self.path} line {number} is damaged ({exc})") from exc
            self.done[chunk] = games
        if whole < len(raw):
            os.truncate(self.path, whole)

    @property
    def games_done(self) -> int:
        return sum(len(g) for g in self.done.values())

    def append(self, chunk: int, games: Sequence[GameResult]) -> None:
        """Add one finished chunk, flushed to the disk before the run goes on."""
        line = json.dumps({"chunk": chunk, "games": [encode_game(g) for g in games]}) + "\n"
        try:
            with self.path.open("a", encoding="utf-8") as out:
                out.write(line)
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            raise BenchLogError(
                f"cannot write results file {self.path}: {exc.strerror or exc} "
                f"({self.games_done} games are in it; run again to resume)"
            ) from exc
        self.done[chunk] = list(games)
