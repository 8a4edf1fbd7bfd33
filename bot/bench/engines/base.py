"""The engine interface: play chunks of games somewhere, give back each finished one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from types import TracebackType

from bot.bench.game import BenchError, GameResult, Task

#: The engines `msbot bench --engine` knows.
ENGINES = ("local", "dask")

#: How often one chunk may lose its worker before the run gives up on it (a
#: chunk that kills every worker it runs on is a bug, not bad luck). The same
#: figure as dask's own default (`distributed.scheduler.allowed-failures`).
ATTEMPTS = 3


class EngineError(BenchError):
    """The engine cannot start, lost its cluster, or a chunk killed its workers."""


class Engine(ABC):
    """Plays `Task`s; a context manager that frees its workers on exit."""

    #: The engine's name, as `--engine` spells it.
    name: str
    #: How many games it plays at once.
    workers: int

    @abstractmethod
    def play(self, tasks: Iterable[Task]) -> Iterator[tuple[int, list[GameResult]]]:
        """Yield (chunk number, its games) for every task, in the order they finish.

        An error raised by a game (a false claim) is raised here, as it was
        raised; a worker that dies has its chunks played again elsewhere.
        """

    @abstractmethod
    def close(self) -> None:
        """Stop the workers this engine started; games in flight are dropped."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
