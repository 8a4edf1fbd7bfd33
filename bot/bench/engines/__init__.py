"""Where a bench's games are played: this machine's processes, or a cluster.

One small interface (`Engine`), one module per engine, as `vision.capture`
does for screens. An engine only plays chunks of games (`bot.bench.game.Task`)
and hands back each finished chunk, in any order; what the games are, the
results file and the summary are the same whatever plays them, so a run's wins
and claim checks do not depend on the engine nor on its number of workers.
"""

from __future__ import annotations

from bot.bench.engines.base import ENGINES, Engine, EngineError
from bot.bench.engines.local import LocalEngine


def open_engine(name: str, jobs: int, address: str | None = None) -> Engine:
    """The engine `name` with `jobs` workers (a cluster at `address` brings its own)."""
    if name not in ENGINES:
        raise EngineError(f"unknown engine {name!r} (expected one of {', '.join(ENGINES)})")
    if name == "local":
        if address is not None:
            raise EngineError("--address is for --engine dask: the local engine needs none")
        return LocalEngine(jobs)
    # Imported here: dask is an optional extra, never needed to play.
    from bot.bench.engines.dask_engine import DaskEngine

    return DaskEngine(jobs, address)


__all__ = ["ENGINES", "Engine", "EngineError", "LocalEngine", "open_engine"]
