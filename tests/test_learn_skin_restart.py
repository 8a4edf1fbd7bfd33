"""A learned skin can start the next game (QA findings F5, F9).

F5: `learn-skin --live` loses every game it plays, so a learned face skin
never saw the won face; `play --games N` then stopped after the first win
("no control 'restart' on screen"). The learned face is now found by its
rim whatever it shows (`vision.face_rim`); a learned skin restarting a real
minegauler after a win is in `test_learn_skin_live.py`.

F9: a learned skin of a clone that restarts by a key (sgt-mines' "n") had
no restart at all, and play blamed the screen ("the board can no longer be
read to restart the game"). It now says the skin has no way to start a new
game, and `learn-skin --restart-key KEY` gives it one. With the key, a
finished board with a few cells of a kind the skin never saw (sgt-mines
tints some cells of a lost board red) is restarted too: it stopped with
"can no longer be read" as well.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from frozen_screen import FrozenScreen

from bot.actuator import Actuator
from bot.actuator._base import Button, Mouse
from bot.cli import main
from bot.errors import VisionError
from bot.play.loop import Player
from bot.play.options import PlayOptions
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import load_skin

SGT = Path(__file__).resolve().parent.parent / "recordings/sgt-mines-intermediate-1/frames"
#: One sgt-mines game, the last frame lost.
SGT_GAME = [str(SGT / f"{i:04d}.png") for i in range(4)]


class _Inputs(Mouse):
    """Records every click and key instead of sending it."""

    def __init__(self) -> None:
        self.done: list[tuple[str, ...]] = []

    def click(self, x: int, y: int, button: Button) -> None:
        self.done.append(("click", str(x), str(y), button))

    def click_both(self, x: int, y: int) -> None:
        self.done.append(("click", str(x), str(y), "both"))

    def key(self, name: str) -> None:
        self.done.append(("key", name))

    def move(self, x: int, y: int) -> None:
        pass


def _learn_sgt(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "sgt-learned"
    assert main(["learn-skin", "sgt-learned", *SGT_GAME, "--out", str(out), *extra]) == 0
    return out


def _play_on_finished_frame(skin_dir: Path, spoilt: int = 0) -> tuple[str, list[tuple[str, ...]]]:
    """`play` on the lost sgt-mines board (frozen), with its first `spoilt` cells painted
    a colour no tile has: what stopped it, and the inputs sent."""
    inputs = _Inputs()
    options = PlayOptions(games=1, restart_timeout=0.6)
    reader = BoardReader([load_skin(skin_dir)])
    image = load_image(SGT_GAME[-1])
    g = reader.read_fresh(image).geometry
    for col in range(spoilt):
        x, y = round(g.left + (col + 0.2) * g.cell_w), round(g.top + 0.2 * g.cell_h)
        image[y : y + round(0.6 * g.cell_h), x : x + round(0.6 * g.cell_w)] = (255, 0, 255)
    player = Player(FrozenScreen(image), reader, Actuator(inputs), options)
    player.say = lambda _: None
    session = player.run()
    assert session.stopped is not None
    return session.stopped, inputs.done


def test_a_skin_with_no_way_to_restart_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F9: the finished game on screen must be replaced, the skin cannot: one clear
    message naming the cause and the cure, and not a single input sent."""
    out = _learn_sgt(tmp_path)
    said = capsys.readouterr().out
    assert "restart: none learned" in said and "--restart-key" in said
    assert "restart" not in json.loads((out / "skin.json").read_text())["play"]
    stopped, inputs = _play_on_finished_frame(out)
    assert "this skin (sgt-learned) has no way to start a new game" in stopped
    assert "start one by hand" in stopped and "--restart-key" in stopped
    assert "can no longer be read" not in stopped
    assert inputs == []


@pytest.mark.parametrize("spoilt", [0, 2])
def test_a_restart_key_given_to_learn_skin_is_what_play_presses(
    spoilt: int, tmp_path: Path
) -> None:
    """With the key the restart is made, even when a few cells of the finished board
    are of a kind the skin cannot read (a lost sgt-mines board tints some cells red,
    a kind --live may never have named): the board is still there, in place."""
    out = _learn_sgt(tmp_path, "--restart-key", "n")
    assert json.loads((out / "skin.json").read_text())["play"]["restart"] == {"key": "n"}
    stopped, inputs = _play_on_finished_frame(out, spoilt)
    # The frozen screen never shows the new game: pressed (twice: one retry), then given up.
    assert inputs == [("key", "n"), ("key", "n")]
    assert "no new game appeared after restarting (key:n)" in stopped


@pytest.mark.parametrize("key", ["", " n"])
def test_a_bad_restart_key_is_refused(
    key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["learn-skin", "s", *SGT_GAME, "--out", str(tmp_path / "s"), "--restart-key", key]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("msbot learn-skin: error: --restart-key") and "\n" not in err
    assert not (tmp_path / "s").exists()


def test_a_learned_face_with_a_restart_key_falls_back_on_the_key(tmp_path: Path) -> None:
    """A face learned from minegauler's recording (playing and won), plus the key the
    user gave: the face is clicked, whatever it shows, and the key pressed when it is
    not on screen."""
    frames = Path(__file__).resolve().parent.parent / "recordings/minegauler-beginner-1/frames"
    shots = [str(p) for p in sorted(frames.glob("*.png"))]
    out = tmp_path / "mg"
    assert main(["learn-skin", "mg", *shots, "--out", str(out), "--restart-key", "F2"]) == 0
    manifest = json.loads((out / "skin.json").read_text())
    assert manifest["faces"]["any_expression"] is True
    assert manifest["play"]["restart"] == {"click": "restart", "or_key": "F2"}
    manifest["faces"]["any_expression"] = "yes"
    (out / "skin.json").write_text(json.dumps(manifest))
    with pytest.raises(VisionError, match=r"faces\.any_expression must be true or false"):
        load_skin(out)
