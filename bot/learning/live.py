"""Learn a clone from its live window and play it: `learn-skin --live` and `play --learn`.

One path for both commands: a first look at the fresh board
(`bot.learning.first_look`) writes a first skin (covered, flag, question
mark, counter), then the play loop plays games with it while the apprentice
learns what each game shows (`bot.learning.apprentice`) and how to start the
next one (`bot.learning.restart`). A skin learned before is taken up again
where it was left (`vision.learn.draft.draft_of_skin`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from bot.actuator import Actuator
from bot.errors import MsbotError, PlayError
from bot.learning.apprentice import Apprentice
from bot.learning.first_look import first_look
from bot.learning.hooks import LiveLearner
from bot.play.loop import Player
from bot.play.options import PlayOptions
from bot.play.recorder import Recorder, has_stop_frame, with_stop_frame
from bot.play.results import Session
from vision.capture import Image, Region, Screen
from vision.cuts import edges_nudge
from vision.geometry import Geometry
from vision.learn.draft import Draft, draft_of_skin, write_draft
from vision.learn.grid import BoardRect
from vision.locate import Located
from vision.reader import BoardReader
from vision.skin import load_skin


def start_draft(
    screen: Screen,
    actuator: Actuator,
    name: str,
    options: PlayOptions,
    *,
    board: BoardRect | None = None,
    mines: int | None = None,
    restart_key: str | None = None,
    say: Callable[[str], None] = print,
    recorder: Recorder | None = None,
) -> tuple[Draft, Geometry, tuple[int, int] | None]:
    """A first skin from a first look at the fresh board on the screen, where
    that board is (screen coordinates), and the cell the first look opened to
    start the game (None: it opened none)."""

    def keep(image: Image, region: Region, why: str) -> None:
        if recorder is not None:
            recorder.frame(image, None, game=0, region=region, note=why)

    done = len(actuator.history)
    try:
        look = first_look(screen, actuator, options.region, board, say, mines, keep=keep)
    except PlayError as exc:
        # The screen it stopped on is kept, whatever stopped it (no board
        # found: nothing was kept before).
        text = str(exc)
        if has_stop_frame(text):
            raise
        try:
            image = screen.grab(options.region)
        except MsbotError:
            raise exc from None
        raise PlayError(with_stop_frame(text, image, recorder, options.region)) from None
    finally:
        # The first look's clicks and keys are recorded too (game 0): a recording
        # holds everything msbot did to the screen, learning included.
        if recorder is not None:
            for action in actuator.history[done:]:
                recorder.action(action.to_json(), game=0, frame=None)
            recorder.flush()
    draft = Draft(
        name=name,
        geometry=look.in_region,
        book=look.book,
        names=dict(look.names),
        counter=look.counter,
        counter_said=look.counter_said,
        question_marks=len(look.cycle) == 3,
        pointer_rest=look.pointer_rest,
        flag_with=look.flag_with,
        border=look.border,
        notes=list(look.notes),
        toolbar=list(look.toolbar),
    )
    if restart_key is not None:
        draft.restart = {"key": restart_key}
        draft.restart_said = f"press {restart_key} (given with --restart-key)"
    return draft, look.geometry, look.opened_first


def play_learning(
    screen: Screen,
    actuator: Actuator,
    draft: Draft,
    folder: Path,
    options: PlayOptions,
    recorder: Recorder | None = None,
    say: Callable[[str], None] = print,
    where: Geometry | None = None,
    opened_first: tuple[int, int] | None = None,
) -> Session:
    """Play `options.games` games with the skin of `draft`, learning as they go;
    the skin in `folder` is kept up to date all along. `where`: the board on the
    screen, when the skin cannot locate it yet (it has seen few of its pictures);
    `opened_first`: the cell the first look opened (the first game goes on from it)."""
    write_draft(draft, folder)
    reader = BoardReader([load_skin(folder)])
    apprentice = Apprentice(draft, folder, actuator, say)
    apprentice.opened_first = opened_first
    learner = LiveLearner(apprentice)
    player = Player(screen, reader, actuator, options, recorder, say=say, learner=learner)
    if where is not None:
        base = options.region
        geo = where if base is None else where.shifted(-base.left, -base.top)

        def known(image: np.ndarray) -> Located:
            skin = reader.skins[0]
            nudge = edges_nudge(image, geo) if skin.cut_on_edges else None
            return Located(skin, geo, reader.banks[0], nudge)

        player.window.known = known
    return player.run()


def resume_draft(folder: Path) -> Draft:
    """The draft of a skin learned live before, to go on learning with it."""
    return draft_of_skin(load_skin(folder))
