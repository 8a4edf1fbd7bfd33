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

import cv2
import pytest

from vision.face_rim import face_by_rim
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import FaceRim, Glyphs, Skin, load_skins
from vision.status import find_controls

EYES = "tests/data/xdemineur-face-eyes"
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


def test_a_face_learned_from_its_eyes_alone_is_found_by_the_button_around_them() -> None:
    """Live learning cuts a face from the part that changed: on xdemineur its eyes
    (the real learned images, tests/data/xdemineur-face-eyes). The won face's
    sunglasses cover exactly that part, so the images share only flat yellow and
    the face was not found after a won game ("no control 'restart'"). The button
    around the eyes, kept as the skin's rim with the eyes masked out, finds it."""
    (skin,) = load_skins(["xdemineur"])
    playing = load_image("recordings/xdemineur-beginner-1/frames/0001.png")
    won = load_image("recordings/xdemineur-beginner-1/frames/0002.png")
    geo = BoardReader([skin]).read_fresh(won).geometry
    eyes, crossed = (load_image(f"{EYES}/{name}.png") for name in ("playing", "over"))
    # Where the eyes lie in play: the learned picture found in the playing frame.
    scores = cv2.matchTemplate(playing, eyes, cv2.TM_SQDIFF)
    _, _, (x0, y0), _ = cv2.minMaxLoc(scores)
    h, w = eyes.shape[:2]
    grow = max(w, h) // 2
    gx0, gy0, gx1, gy1 = x0 - grow, y0 - grow, x0 + w + grow, y0 + h + grow
    region = (
        (0.0, float(gx0 - 4 - geo.left)),
        (0.0, float(gy0 - 4 - geo.top)),
        (0.0, float(gx1 + 4 - geo.left)),
        (0.0, float(gy1 + 4 - geo.top)),
    )
    learned = (
        (0.0, float(x0 - 4 - geo.left)),
        (0.0, float(y0 - 4 - geo.top)),
        (0.0, float(x0 + w + 4 - geo.left)),
        (0.0, float(y0 + h + 4 - geo.top)),
    )
    # What the live runs met: the eyes' shared pixels, mostly under the sunglasses.
    assert (
        face_by_rim(won, Glyphs(learned, {"playing": (eyes,), "over": (crossed,)}, 60.0), geo)
        is None
    )
    eyes_only = Glyphs(region, {"playing": (eyes,), "over": (crossed,)}, 60.0)
    rim = FaceRim(playing[gy0:gy1, gx0:gx1].copy(), (grow, grow, w, h))
    found = face_by_rim(won, replace(eyes_only, extra={"rim": rim}), geo)
    assert found is not None
    assert abs(found[0] - (x0 + w // 2)) <= 1 and abs(found[1] - (y0 + h // 2)) <= 1
    # Painted over, the rim is not found either.
    covered = won.copy()
    covered[gy0:gy1, gx0:gx1] = won[gy0 - 40, gx0 - 40]
    assert face_by_rim(covered, replace(eyes_only, extra={"rim": rim}), geo) is None
