"""Engines and the results file: the same games whatever plays them, killed workers, resume.

The dask tests run a real local `distributed` cluster of two worker processes
(one for the whole module: starting one takes a second or two).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_bench import lying_analyse

from bot.bench.engines import EngineError, open_engine
from bot.bench.engines import dask_engine as dask_module
from bot.bench.log import BenchLog, BenchLogError, RunKey
from bot.bench.runner import BoardSpec, FalseClaimError, GameResult, play_games, summarise
from bot.cli import main

BEGINNER = BoardSpec("beginner", 9, 9, 10)


def outcomes(results: list[GameResult]) -> list[tuple[int, int, bool, int, int, int, int]]:
    """What must not depend on the engine: everything but the timings."""
    return [
        (g.index, g.seed, g.won, g.guesses, g.safe_claims, g.mine_claims, len(g.decision_times))
        for g in results
    ]


@pytest.fixture(scope="module")
def reference() -> list[tuple[int, int, bool, int, int, int, int]]:
    """80 beginner games played in this process, one after the other."""
    return outcomes(play_games(BEGINNER, "safe", 80, seed=7, jobs=1).results)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local dask cluster of two single-threaded worker processes; its address."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield str(local.scheduler_address)


def worker_pids(address: str) -> list[int]:
    import distributed

    with distributed.Client(address) as client:
        return sorted(client.run(os.getpid).values())


def test_two_local_processes_play_the_same_games(reference: list[tuple]) -> None:
    run = play_games(BEGINNER, "safe", 80, seed=7, jobs=2)
    assert (run.engine, run.workers) == ("local", 2)
    assert outcomes(run.results) == reference


def test_a_dask_cluster_of_two_workers_plays_the_same_games(
    reference: list[tuple], cluster: str
) -> None:
    run = play_games(BEGINNER, "safe", 80, seed=7, engine="dask", address=cluster)
    assert (run.engine, run.workers) == ("dask", 2)
    assert outcomes(run.results) == reference
    assert sum(g.safe_claims + g.mine_claims for g in run.results) > 0


def test_a_false_claim_on_a_dask_worker_aborts_the_run(cluster: str) -> None:
    with pytest.raises(FalseClaimError, match=r"false claim: .*game seed \d+.*on this board"):
        summarise(
            play_games(BEGINNER, "safe", 6, engine="dask", address=cluster, analyse=lying_analyse)
        )


def test_a_killed_dask_worker_has_its_games_played_again(
    reference: list[tuple], cluster: str
) -> None:
    victim = worker_pids(cluster)[0]
    killed: list[int] = []

    def kill_once(done: int) -> None:
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    run = play_games(
        BEGINNER, "safe", 80, seed=7, engine="dask", address=cluster, on_progress=kill_once
    )
    assert killed and killed[0] < 80
    assert victim not in worker_pids(cluster)
    assert outcomes(run.results) == reference


def test_a_killed_local_process_has_its_games_played_again(reference: list[tuple]) -> None:
    killed: list[int] = []

    def kill_once(done: int) -> None:
        children = multiprocessing.active_children()
        if not killed and children:
            os.kill(children[0].pid or 0, signal.SIGKILL)
            killed.append(done)

    run = play_games(BEGINNER, "safe", 80, seed=7, jobs=2, on_progress=kill_once)
    assert killed and killed[0] < 80
    assert outcomes(run.results) == reference


class Interrupted(Exception):
    pass


def test_an_interrupted_run_resumes_without_replaying_its_chunks(
    tmp_path: Path, reference: list[tuple], cluster: str
) -> None:
    results = tmp_path / "run.jsonl"

    def stop_after_three_chunks(done: int) -> None:
        if done >= 3 * 2:  # 80 games: chunks of 2
            raise Interrupted

    with pytest.raises(Interrupted):
        play_games(
            BEGINNER, "safe", 80, seed=7, results=results, on_progress=stop_after_three_chunks
        )
    lines = results.read_text().splitlines()
    assert json.loads(lines[0])["games"] == 80
    kept = [json.loads(line)["chunk"] for line in lines[1:]]
    assert kept == [0, 1, 2]
    played: list[int] = []
    # Resumed on the other engine: the chunks do not depend on it.
    run = play_games(
        BEGINNER,
        "safe",
        80,
        seed=7,
        engine="dask",
        address=cluster,
        results=results,
        on_progress=played.append,
    )
    assert run.resumed == 6
    assert played[0] == 6 and played[-1] == 80 and len(played) == 1 + (80 - 6) // 2
    assert outcomes(run.results) == reference
    again = play_games(BEGINNER, "safe", 80, seed=7, results=results)
    assert again.resumed == 80 and again.wall == 0.0
    assert outcomes(again.results) == reference


def test_a_line_cut_short_by_a_kill_is_dropped_and_played_again(
    tmp_path: Path, reference: list[tuple]
) -> None:
    results = tmp_path / "run.jsonl"
    play_games(BEGINNER, "safe", 80, seed=7, results=results)
    lines = results.read_bytes().split(b"\n")
    cut = b"\n".join(lines[:5]) + b"\n" + lines[5][: len(lines[5]) // 2]
    results.write_bytes(cut)
    run = play_games(BEGINNER, "safe", 80, seed=7, results=results)
    assert run.resumed == 4 * 2
    assert outcomes(run.results) == reference
    assert all(json.loads(line) for line in results.read_text().splitlines())


def test_a_damaged_line_inside_the_file_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    play_games(BEGINNER, "safe", 80, seed=7, results=results)
    lines = results.read_text().splitlines()
    lines[2] = lines[2][:-9]
    results.write_text("\n".join(lines) + "\n")
    with pytest.raises(BenchLogError, match="line 3 is damaged"):
        play_games(BEGINNER, "safe", 80, seed=7, results=results)


def test_a_results_file_of_another_run_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    play_games(BEGINNER, "safe", 40, seed=7, results=results)
    before = results.read_bytes()
    with pytest.raises(BenchLogError, match=r"another run \(seed 7 there, 8 here\)"):
        play_games(BEGINNER, "safe", 40, seed=8, results=results)
    assert results.read_bytes() == before


def test_a_file_another_run_is_writing_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two runs of one command on one file played every chunk twice, their lines
    interleaved (issue 19's expert zero run, started again while it still ran)."""
    results = tmp_path / "r.jsonl"
    args = ["bench", "--board", "6x6x4", "--games", "40", "--jobs", "1", "--results", str(results)]
    assert main(args) == 0
    capsys.readouterr()
    before = results.read_bytes()
    key = RunKey(
        **{k: v for k, v in json.loads(before.splitlines()[0]).items() if k != "msbot_bench"}
    )
    with BenchLog(results, key):  # the first run, still writing
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "is being written by another run" in err
        assert "Traceback" not in err
    assert results.read_bytes() == before
    assert main(args) == 0  # the first run over: the file is free again
    assert "40 read back from the results file" in capsys.readouterr().out


@pytest.fixture
def not_a_results_file(tmp_path: Path) -> Path:
    path = tmp_path / "x.txt"
    path.write_text("hello\n")
    return path


def test_a_foreign_file_is_refused_untouched(not_a_results_file: Path) -> None:
    with pytest.raises(BenchLogError, match="not an msbot bench results file"):
        play_games(BEGINNER, "safe", 40, seed=7, results=not_a_results_file)
    assert not_a_results_file.read_text() == "hello\n"


def test_an_unreachable_scheduler_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_module, "CONNECT_SECONDS", 0.3)
    code = main(["bench", "--games", "2", "--engine", "dask", "--address", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2
    assert "cannot start the dask engine on tcp://127.0.0.1:9" in err
    assert "Traceback" not in err


def test_an_address_without_dask_is_refused() -> None:
    with pytest.raises(EngineError, match="--address is for --engine dask"):
        open_engine("local", 1, "tcp://127.0.0.1:8786")


def test_cli_resumes_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = str(tmp_path / "r.jsonl")
    args = ["bench", "--board", "6x6x4", "--games", "40", "--jobs", "1", "--results", results]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    second = capsys.readouterr().out
    assert "40 read back from the results file" in second
    wins = [line for line in first.splitlines() if line.startswith("wins")]
    assert wins == [line for line in second.splitlines() if line.startswith("wins")]


def test_cli_dask_engine_starts_its_own_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    args = ["bench", "--board", "6x6x4", "--games", "30", "--seed", "2", "--json"]
    assert main([*args, "--jobs", "1"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "1", "--engine", "dask"]) == 0
    dask = json.loads(capsys.readouterr().out)
    assert (dask["engine"], dask["jobs"]) == ("dask", 1)
    assert dask["engine_start_seconds"] > 0
    same = ("wins", "guesses_per_game", "decisions", "safe_claims", "mine_claims")
    assert [dask[k] for k in same] == [local[k] for k in same]
