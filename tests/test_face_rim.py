"""A face button found by its rim when it shows an expression the skin has no image of.

A learned skin never saw the won face (`learn-skin --live` loses its games).
Here the built-in skins stand in for it: their faces without the won one,
with `any_expression`, on real won frames of the recordings. The restart
control must be found where the full skin finds its won face, and nowhere
once the face is painted over (a window over it) or when the skin does not
say `any_expression`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.face_rim import face_by_rim
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import Skin, load_skins
from vision.status import find_controls

WON = {
    "minegauler": "recordings/minegauler-beginner-1/frames/0002.png",
    "xdemineur": "recordings/xdemineur-beginner-1/frames/0002.png",
}


def _without_won(skin: Skin, any_expression: bool) -> Skin:
    assert skin.faces is not None
    images = {k: v for k, v in skin.faces.images.items() if k != "won"}
    extra = {**skin.faces.extra, "any_expression": any_expression}
    return replace(skin, faces=replace(skin.faces, images=images, extra=extra))


@pytest.mark.parametrize("clone", sorted(WON))
def test_the_won_face_is_found_by_its_rim(clone: str) -> None:
    (skin,) = load_skins([clone])
    image = load_image(WON[clone])
    full = BoardReader([skin]).read_fresh(image)
    assert full.status == "won" and "restart" in full.controls
    geo = full.geometry
    learned = _without_won(skin, any_expression=True)
    controls, face = find_controls(image, learned, geo)
    assert face is None  # no image of the won face: not matched as one
    x, y = controls["restart"]
    fx, fy = full.controls["restart"]
    assert abs(x - fx) <= 1 and abs(y - fy) <= 1
    plain, _ = find_controls(image, _without_won(skin, any_expression=False), geo)
    assert "restart" not in plain


@pytest.mark.parametrize("clone", sorted(WON))
def test_a_face_painted_over_is_not_found(clone: str) -> None:
    (skin,) = load_skins([clone])
    image = load_image(WON[clone])
    geo = BoardReader([skin]).read_fresh(image).geometry
    learned = _without_won(skin, any_expression=True)
    assert learned.faces is not None
    fx, fy = find_controls(image, learned, geo)[0]["restart"]
    covered = image.copy()
    covered[fy - 30 : fy + 30, fx - 30 : fx + 30] = image[fy - 40, fx - 40]  # background
    assert face_by_rim(covered, learned.faces, geo) is None
    # Half the button hidden is still too little of it.
    half = image.copy()
    half[fy - 30 : fy + 30, fx - 30 : fx] = (255, 255, 255)
    assert face_by_rim(half, learned.faces, geo) is None
    # A picture cut just through the face: not guessed either.
    assert face_by_rim(image[fy:, :], learned.faces, geo.shifted(0, -fy)) is None
