"""The live learner as the play loop sees it: `bot.play.learner.Learner`'s hooks.

Each hook hands the loop's question to the part that answers it: the
apprentice (`bot.learning.apprentice`: what each game shows, proven) or the
restart search (`bot.learning.restart`: how the clone begins a new game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.actuator import Action
from bot.board import Cell
from bot.learning.apprentice import Apprentice
from bot.learning.restart import find_restart, new_board
from bot.play.learner import Learner, RestartHost
from vision.capture import Image
from vision.reading import Reading, Status

if TYPE_CHECKING:
    from bot.play.window import GameWindow


class LiveLearner(Learner):
    """Learns the skin while the loop plays with it."""

    learning = True

    def __init__(self, apprentice: Apprentice) -> None:
        self.apprentice = apprentice

    def attach(self, window: GameWindow, on_action: Callable[[Action], None]) -> None:
        self.apprentice.bind(window)
        self.apprentice.on_action = on_action

    def margin(self, default: int) -> int:
        return self.apprentice.margin

    def new_game(self, number: int) -> None:
        self.apprentice.new_game(number)

    def in_play(self, image: Image, reading: Reading, total: int | None) -> Reading:
        return self.apprentice.in_play(image, reading, total)

    def explain(
        self,
        image: Image,
        reading: Reading,
        opened: list[Cell],
        certain: bool,
        before: Reading | None,
        total: int | None,
        flagged: Sequence[Cell],
    ) -> Reading | None:
        return self.apprentice.explain(image, reading, opened, certain, before, total, flagged)

    def under_other_windows(self, reading: Reading) -> Reading | None:
        return self.apprentice.under_other_windows(reading)

    def stalled(self, reading: Reading, opened: list[Cell], certain: bool) -> Reading | None:
        return self.apprentice.stalled(reading, opened, certain)

    def prove_held(self) -> bool:
        return self.apprentice.prove_held()

    def end_image(self) -> Image | None:
        ended = self.apprentice.ended
        return ended.image if ended is not None else None

    def game_over(
        self, status: Status, image: Image | None, total: int | None, opened: Sequence[Cell] = ()
    ) -> Status:
        return self.apprentice.game_over(status, image, total, opened)

    @property
    def held(self) -> frozenset[Cell]:
        return self.apprentice.held

    def find_restart(self, host: RestartHost, final: Reading) -> Reading | None:
        return find_restart(host, final, self.apprentice)

    def still_board(self, reading: Reading) -> Reading:
        return self.apprentice.still_board()

    def new_board(self, host: RestartHost, final: Reading, end: Image) -> Reading | None:
        return new_board(host, final, end, self.apprentice)
