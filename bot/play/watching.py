"""`msbot play --dry-run`: advice to a person, who keeps the mouse.

A dry run reads the screen and plans exactly as play does, but its actuator
has a mouse that never moves: each planned step is printed (cell, screen
point, why), kept in the game's JSON and, with `--annotate DIR`, drawn on the
picture. With `--games N` it keeps watching: after each position it waits for
the person's next move (any change of the board), follows them into their
next game, and says how each game ended.

A person is not the bot: they may take a flag back, and may start a new game
before the watcher saw the last one end (`looks_like_new_game`), so the
watcher's checks are looser than the player's and a restart is an outcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, Protocol

import cv2

from bot.actuator import Actuator
from bot.board import Cell
from bot.play.consistency import looks_like_new_game
from bot.play.options import PlayOptions
from bot.play.planning import Step
from bot.play.recorder import Recorder, write_atomic
from bot.play.results import GameResult, ended_outcome
from bot.play.waiting import Pending, Waiter, mine_total
from bot.play.window import GameWindow
from bot.solver import Analysis
from vision.capture import Image, Region
from vision.reading import ENDED, Reading


class Advisor(Protocol):
    """What the watcher uses of the play loop (`bot.play.loop.Player`): its
    window, waiter and planner, and where it keeps the game's state."""

    window: GameWindow
    waiter: Waiter
    actuator: Actuator
    recorder: Recorder
    options: PlayOptions
    clock: Callable[[], float]
    say: Callable[[str], None]
    current: GameResult | None
    started: float | None
    frame_name: str | None
    last_reading: Reading | None
    last_analysis: Analysis | None
    positions: int
    annotate_dir: str | None

    def plan(
        self, reading: Reading, total: int | None, flagged_by_bot: Collection[Cell] = ()
    ) -> list[Step] | None: ...

    def act(self, step: Step, game: int) -> None: ...


def watch_game(player: Advisor, number: int, reading: Reading) -> GameResult:
    """Dry run: advise on each new position until this game ends."""
    result = GameResult(number, "stopped", advised=True)
    started = player.clock()
    player.current, player.started = result, started
    prev: Reading | None = None
    pending = Pending(total=None)
    image = player.window.last_image
    while True:
        if prev is not None:
            image, reading = player.waiter.wait_change(prev, pending)
        else:
            image, reading = player.waiter.next_reading(pending, None)
        if prev is not None and looks_like_new_game(prev.board, reading.board, reading.unread):
            result.outcome = "restarted"
            result.message = "a new game began before this one was seen to end"
            player.last_reading = reading
            break
        if pending.total is None:
            pending.total = mine_total(reading)
        g = reading.geometry
        result.rows, result.cols, result.mines = g.rows, g.cols, pending.total
        player.frame_name = player.recorder.frame(
            image, reading, game=number, region=player.window.region
        )
        player.last_reading = reading
        if reading.status in ENDED:
            result.outcome = ended_outcome(reading.status)
            break
        player.actuator.bind(reading.geometry, reading.controls)
        steps = player.plan(reading, pending.total, pending.all_flagged)
        if steps is None:
            time.sleep(0.005)
            continue
        player.positions += 1
        player.say(f"position {player.positions}: {len(steps)} action(s)")
        advice: list[dict[str, Any]] = []
        for step in steps:
            player.act(step, number)
            done = player.actuator.history[-1]
            player.say(
                f"  {step.action} cell ({step.cell[0]}, {step.cell[1]}) "
                f"at screen ({done.x}, {done.y}): {step.why}"
            )
            advice.append(advice_json(step, done.x, done.y))
            result.clicks += 1
            result.guesses += 0 if step.certain else 1
        result.positions.append({"position": player.positions, "actions": advice})
        if player.annotate_dir is not None and player.window.region is not None:
            analysis = player.last_analysis
            write_annotation(
                Path(player.annotate_dir),
                player.positions,
                image,
                reading,
                steps,
                analysis.probabilities if analysis is not None else None,
                player.window.region,
            )
        if not player.options.watch:
            result.message = "dry run: advice given, nothing clicked"
            break
        prev = reading
    result.seconds = player.clock() - started
    return result


def advice_json(step: Step, x: int | None, y: int | None) -> dict[str, Any]:
    """One advised action as the game's JSON `positions` list holds it."""
    return {
        "action": step.action,
        "row": step.cell[0],
        "col": step.cell[1],
        "x": x,
        "y": y,
        "why": step.why,
        "certain": step.certain,
    }


def write_annotation(
    folder: Path,
    position: int,
    image: Image,
    reading: Reading,
    steps: Sequence[Step],
    probabilities: Sequence[Sequence[float | None]] | None,
    region: Region,
) -> None:
    """`--annotate DIR`: the advised position drawn as `position-NNNN.png`, the
    same drawing as `msbot replay --annotate` (`vision.annotate`)."""
    from vision.annotate import Mark, annotate

    folder.mkdir(parents=True, exist_ok=True)
    marks = [
        Mark(s.action, s.cell[0], s.cell[1], s.certain, _p_mine(probabilities, s.cell))
        for s in steps
    ]
    title = f"dry run, position {position}: the advice (nothing was clicked)"
    picture = annotate(
        image,
        reading,
        probabilities,
        marks,
        offset=(region.left, region.top),
        title=title,
        crop=False,
    )
    ok, png = cv2.imencode(".png", picture)
    if ok:
        write_atomic(folder / f"position-{position:04d}.png", png.tobytes())


def _p_mine(
    probabilities: Sequence[Sequence[float | None]] | None, cell: tuple[int, int]
) -> float | None:
    if probabilities is None:
        return None
    return probabilities[cell[0]][cell[1]]
