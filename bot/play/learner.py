"""How a learner meets the play loop: one small interface, called at known points.

A skin still being learned is learned while msbot plays with it: the learner
(`bot.learning.hooks.LiveLearner`) watches what each click did, names the
pictures it can prove, finds how the clone ends a game and starts a new one.
The loop knows it only as a `Learner`, and always holds one: the base class
below is the learner of a skin already known, which learns nothing and adds
nothing, so the loop has no "is a learner there" branches and does not import
the learning package (which imports the loop's parts, never the loop).

The points, in a game's order: `new_game`, then for each settled reading in
play `in_play`; while the loop waits for its clicks to show, `explain` (cells
no skin reads surely lasted), `under_other_windows` (a reading contradicted
by a window over the board) and `stalled` (clicks show no effect); at the end
`end_image` and `game_over`; to begin the next game, `find_restart` (the skin
knows no way), `new_board` (its way showed a board the loop did not read as a
new game) and `still_board`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from bot.actuator import Action, Actuator
from bot.board import Cell
from vision.capture import Image
from vision.reading import Reading, Status

if TYPE_CHECKING:
    from bot.play.recorder import Recorder
    from bot.play.window import GameWindow


class RestartHost(Protocol):
    """What the loop lends a learner's search for a way to start a new game."""

    window: GameWindow
    actuator: Actuator
    recorder: Recorder
    say: Callable[[str], None]
    #: The game being played, the frame its actions are recorded against, and
    #: the count of actions made (each restart try is one).
    game: int
    frame_name: str | None
    actions: int


class Learner:
    """The play loop's learner; this base one, for a skin already known, learns nothing."""

    #: A skin being learned: the loop gives the screen more time (pictures the
    #: skin has not seen yet may still be drawn) and asks `find_restart` when
    #: the skin's own restart fails.
    learning: bool = False

    def attach(self, window: GameWindow, on_action: Callable[[Action], None]) -> None:
        """The loop's game window, and what to call for each action the learner makes."""

    def margin(self, default: int) -> int:
        """Pixels the window grabs around the board (a learner watches the clone's
        controls there)."""
        return default

    def new_game(self, number: int) -> None:
        """Game `number` begins."""

    def in_play(self, image: Image, reading: Reading, total: int | None) -> Reading:
        """A settled reading of the game in play; returns the reading to play on."""
        return reading

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
        """A reading whose unsure cells lasted after msbot's clicks (`opened`, the
        solver called them `certain`; `flagged`): a better one, or None."""
        return None

    def under_other_windows(self, reading: Reading) -> Reading | None:
        """A contradicted reading that a window over the board may explain: the
        reading with that window's cells unsure, or None."""
        return None

    def stalled(self, reading: Reading, opened: list[Cell], certain: bool) -> Reading | None:
        """Clicks show no effect: the reading of the game's end if it is over, else None."""
        return None

    def prove_held(self) -> bool:
        """Nothing is left to do but held cells: whether some were proven
        covered (their pictures learned), so the board is worth reading again."""
        return False

    def end_image(self) -> Image | None:
        """The picture the learner proved the game's end on (None: not ended by it)."""
        return None

    def game_over(
        self, status: Status, image: Image | None, total: int | None, opened: Sequence[Cell] = ()
    ) -> Status:
        """The game ended as `status` on screen: the outcome to report."""
        return status

    @property
    def held(self) -> frozenset[Cell]:
        """Cells whose pictures msbot did not cause, never clicked."""
        return frozenset()

    def find_restart(self, host: RestartHost, final: Reading) -> Reading | None:
        """A new game begun when the skin knows no way (or its way failed): its
        first reading, or None when this learner cannot search."""
        return None

    def still_board(self, reading: Reading) -> Reading:
        """The new game's first reading, once the screen is still."""
        return reading

    def new_board(self, host: RestartHost, final: Reading, end: Image) -> Reading | None:
        """After the skin's own restart, whose new game the loop did not read as
        one (`end`: the screen before it): the new game's first reading as the
        restart search takes one (pictures not learned yet, an area the clone
        opened by itself), or None."""
        return None
