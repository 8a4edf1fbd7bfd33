"""What `msbot play` was asked to do, as one value the loop's parts share."""

from __future__ import annotations

from dataclasses import dataclass

from bot.solver import Strength
from vision.capture import Region


@dataclass(frozen=True)
class PlayOptions:
    """What `msbot play` was asked to do (see `bot.commands.play`)."""

    games: int = 1
    dry_run: bool = False
    #: Solver strength (`--strength`): "full" by default: in simulation it wins
    #: about 3 points more of expert games than "fast", for some 35 ms of CPU
    #: per game, nothing beside a live game's clicks.
    strength: Strength = "full"
    flags: bool = True
    chord: bool = False
    #: Seconds to wait between two clicks (`--delay MS`), for people watching.
    delay: float = 0.0
    max_actions: int | None = None
    region: Region | None = None
    #: Seconds a click gets to show on screen before it is retried once.
    effect_timeout: float = 1.5
    #: Seconds more, after that retry, before a clone that shows no effect at
    #: all is given up on: a busy machine or a clone that freezes for a moment
    #: (a clone that draws something else stops the bot at once).
    stall_timeout: float = 10.0
    #: Consecutive frames, and at least `effect_timeout` seconds, a cell may
    #: stay unreadable or a reading inconsistent (mid-redraw) before stopping.
    unreadable_frames: int = 8
    #: Seconds to wait for a new game after restarting.
    restart_timeout: float = 5.0
    #: Dry run with --games: keep advising, position after position, while a
    #: person plays (without it a dry run advises on the current position once).
    watch: bool = False
    #: Dry run with --games: seconds to wait for a person's next move.
    watch_timeout: float = 600.0
    #: No new game is started after this time (`time.monotonic`); None: no limit.
    deadline: float | None = None
    #: Start one more game at the end, unplayed: `learn-skin --live` leaves a fresh
    #: board on screen for `msbot play` (a finished one may show pictures the new
    #: skin cannot read yet, so that it would not find the board).
    leave_new_game: bool = False
