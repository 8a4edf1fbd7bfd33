"""The dask engine: games on a `distributed` cluster, or a local one by default.

dask.distributed rather than ray: it is pure Python wheels (dask, distributed
and their small dependencies), starts a local cluster in about a second, and its
scheduler already does what a long bench needs: when a worker dies, the chunks
it held are given to another worker (`allowed-failures` times at most, then
`KilledWorker`), and a nanny restarts the worker. The workers must have msbot
installed (the same version) to import `bot.bench.game.play_task`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any

from bot.bench.engines.base import ATTEMPTS, Engine, EngineError
from bot.bench.game import GameResult, Task, play_task

#: How long to wait for a scheduler given with --address.
CONNECT_SECONDS = 20.0

#: The local cluster's settings. The workers' statistical profiler samples the
#: running task's stack every 10 ms under the GIL, for a dashboard nobody
#: opens here: off (benchmarks/bench_engines.py measured no difference beyond
#: the machine's noise either way). Workers of a cluster given by address keep
#: their own settings.
LOCAL_SETTINGS: dict[str, object] = {
    "distributed.scheduler.allowed-failures": ATTEMPTS,
    "distributed.worker.profile.enabled": False,
}


class DaskEngine(Engine):
    """Chunks as dask tasks; a local cluster of `jobs` worker processes unless `address`."""

    name = "dask"

    def __init__(self, jobs: int, address: str | None = None) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise EngineError(
                f"--engine dask needs the cluster extra ({exc}): pip install 'msbot[cluster]'"
            ) from exc
        if jobs < 1:
            raise EngineError("--jobs must be at least 1")
        self._cluster: Any = None
        try:
            if address is None:
                # The scheduler of a cluster given by address keeps its own settings.
                with dask.config.set(LOCAL_SETTINGS):
                    self._cluster = LocalCluster(
                        n_workers=jobs,
                        threads_per_worker=1,
                        processes=True,
                        # A free port: None still takes 8787, and warns beside another cluster.
                        dashboard_address=":0",
                        silence_logs=logging.ERROR,
                    )
                self._client: Any = Client(self._cluster)
            else:
                self._client = Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, RuntimeError) as exc:
            self.close()
            where = address or "a local cluster"
            raise EngineError(f"cannot start the dask engine on {where}: {exc}") from exc
        workers = self._client.scheduler_info().get("workers", {})
        threads = sum(int(w.get("nthreads", 1)) for w in workers.values())
        self.workers = threads or jobs

    def play(self, tasks: Iterable[Task]) -> Iterator[tuple[int, list[GameResult]]]:
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        futures = self._client.map(play_task, list(tasks), pure=False)
        try:
            for future in as_completed(futures):
                try:
                    result: tuple[int, list[GameResult]] = future.result()
                except KilledWorker as exc:
                    raise EngineError(
                        f"a chunk killed every dask worker it ran on; giving up ({exc})"
                    ) from exc
                future.release()
                yield result
        finally:
            self._client.cancel(futures)

    def close(self) -> None:
        client, self._client = getattr(self, "_client", None), None
        cluster, self._cluster = self._cluster, None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
