"""The local engine: this machine's cores, one process per job.

`concurrent.futures` rather than `multiprocessing.Pool`: when a worker process
dies (killed, out of memory) a Pool waits forever for its results, while a
process pool reports itself broken. The chunks that were in flight are then
played again in a fresh pool. Only a few chunks per worker are in flight at a
time, so a break costs little; `ATTEMPTS` breaks in a row with no chunk
finished in between mean a chunk kills its workers, and the run stops.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from bot.bench.engines.base import ATTEMPTS, Engine, EngineError
from bot.bench.game import GameResult, Task, play_task

#: Chunks in flight per worker: one running, one queued behind it.
IN_FLIGHT = 2


class LocalEngine(Engine):
    """`jobs` processes on this machine; with one job, the games run in this process."""

    name = "local"

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise EngineError("--jobs must be at least 1")
        self.workers = jobs
        self._pool: ProcessPoolExecutor | None = None

    def play(self, tasks: Iterable[Task]) -> Iterator[tuple[int, list[GameResult]]]:
        if self.workers == 1:
            for task in tasks:
                yield play_task(task)
            return
        # Tasks are taken as workers free up (a run of 100 million games is two
        # million of them); the ones a broken pool lost go again first.
        fresh = iter(tasks)
        waiting: deque[Task] = deque()
        running: dict[Future[tuple[int, list[GameResult]]], Task] = {}
        breaks = 0
        more = True
        while waiting or running or more:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers)
            while len(running) < IN_FLIGHT * self.workers:
                if waiting:
                    task = waiting.popleft()
                else:
                    task_or_none = next(fresh, None)
                    if task_or_none is None:
                        more = False
                        break
                    task = task_or_none
                running[self._pool.submit(play_task, task)] = task
            if not running:
                continue
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            lost: list[Task] = []
            for future in finished:
                task = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    lost.append(task)
                    continue
                breaks = 0
                yield result
            if lost:
                # The pool is broken: every chunk still in it is lost too.
                lost += running.values()
                running.clear()
                self.close()
                breaks += 1
                if breaks >= ATTEMPTS:
                    raise EngineError(
                        f"the worker processes died {ATTEMPTS} times in a row with no chunk "
                        f"finished (chunks {', '.join(str(t.chunk) for t in lost)} in flight)"
                    )
                waiting.extendleft(sorted(lost, key=lambda t: t.chunk, reverse=True))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
