"""learn-skin on real screenshots of a clone msbot has no skin for: never a wrong name.

tests/data/kmines-learn/ holds one real KMines game (Debian `kmines`, easy 9x9/10,
Xvfb, crops around the board): a fresh board, the first click's opening, a flag,
the lost board under KMines' "Reset the Game? / You have lost." dialog (five
shots: the dialog stays while the learner would keep clicking), and the lost
board once the dialog was closed with Escape. Labels were checked by eye
against the pictures (every number recounted from the mines shown).

KMines is hard for the learner in exactly the ways that produce wrong names:
its open tiles are translucent over the window's gradient background (one
kind has several looks by row), its 0 is within a few hundred of the covered
tile, its exploded mine is on orange (not red), and the dialog puts about twenty
one-cell "kinds" over the board. Before issue 6's fixes the learner named
every covered tile "F" and a piece of the dialog "0". What game logic does not
prove must stay unknown.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.image_io import load_image
from vision.learn.screenshots.pipeline import Group, learn
from vision.learn.screenshots.writer import write_skin
from vision.reader import BoardReader
from vision.skin import load_skin

DATA = Path(__file__).resolve().parent / "data" / "kmines-learn"

LOST = (
    "000000000",
    "011101110",
    "01*101*21",
    "121101..*",
    "*10001...",
    ".10001***",
    ".11212.X*",
    "..!.*....",
    ".........",
)
OPENED = tuple(row.replace("*", ".").replace("!", ".").replace("X", ".") for row in LOST)
FLAGGED = tuple(row if r != 6 else row[:7] + "F" + row[8:] for r, row in enumerate(OPENED))
#: Frames with labels (the dialog frames hide part of the board and have none).
LABELS = {
    "0-fresh.png": ("." * 9,) * 9,
    "1-opened.png": OPENED,
    "2-flagged.png": FLAGGED,
    "9-lost-dialog-closed.png": LOST,
}


def _check_names(
    group: Group, files: list[Path], labels_by_name: dict[str, tuple[str, ...]]
) -> tuple[int, list[tuple[str, int, int, str, str]]]:
    """(cells named, cells named wrongly) over the labelled frames of `group`."""
    named = 0
    wrong = []
    for f, labels in zip([files[i] for i in group.frames], group.labels, strict=True):
        truth = labels_by_name.get(f.name)
        if truth is None:
            continue
        assert labels.shape == (len(truth), len(truth[0])), f.name
        for (r, c), kind in np.ndenumerate(labels):
            got = group.naming.names.get(int(kind))
            if got is not None:
                named += 1
                if got != truth[r][c]:
                    wrong.append((f.name, r, c, got, truth[r][c]))
    return named, wrong


def test_kmines_game_names_nothing_wrongly() -> None:
    files = sorted(DATA.glob("*.png"))
    assert len(files) == 9
    learned = learn([load_image(f) for f in files], mines=10)
    (group,) = learned.groups
    names = group.naming.names
    named, wrong = _check_names(group, files, LABELS)
    assert not wrong
    # Not vacuous: the covered tile, the flag (it appeared where a covered cell was,
    # in a game that went on), the mines and the hit of the lost board are proven.
    assert {".", "F", "*", "!"} <= set(names.values())
    assert named >= 250  # of 324 labelled cells


def test_kmines_dialog_frames_are_no_finished_board() -> None:
    """The lost board under the dialog changes later (the dialog goes): it is no
    finished board, so its one-cell dialog pieces never get a number from counts."""
    files = sorted(DATA.glob("*.png"))
    learned = learn([load_image(f) for f in files])
    (group,) = learned.groups
    modes = dict(zip([files[i].name for i in group.frames], group.naming.complete, strict=True))
    assert all(
        modes[f.name] == "" for f in files if "lost-dialog-" in f.name and "closed" not in f.name
    )
    assert modes["9-lost-dialog-closed.png"] == "lost"


def test_kmines_skin_reads_its_game(tmp_path: Path) -> None:
    """Written and read back with the real reader: every cell of the labelled frames
    is read right or reported unknown; the frames in play are read whole."""
    files = sorted(DATA.glob("*.png"))
    learned = learn([load_image(f) for f in files], mines=10)
    out = tmp_path / "kmines"
    write_skin("kmines", learned, out, [str(f) for f in files])
    reader = BoardReader([load_skin(out)])
    for name, truth in LABELS.items():
        reading = reader.read_fresh(load_image(DATA / name))
        unknown = {(u.row, u.col) for u in reading.unknown}
        for r, (got, want) in enumerate(zip(reading.board.rows, truth, strict=True)):
            for c, (a, b) in enumerate(zip(got, want, strict=True)):
                assert (r, c) in unknown or a == b, f"{name} ({r}, {c}) read {a!r}, is {b!r}"
        if "lost" not in name:
            assert not unknown, name
            assert reading.status == "playing"
        else:
            assert reading.status == "lost"


LIVE = Path(__file__).resolve().parent / "data" / "kmines-live"
#: The lost board of tests/data/kmines-live (`learn-skin --live` on a real KMines:
#: fresh board, the flag cycle, the flag kept at (7, 5), the losing click, the
#: dialog, the board once --live closed the dialog with Escape), checked by eye.
LIVE_LOST = (
    "000000000",
    "000000000",
    "112110011",
    ".*.*1001*",
    "11222112.",
    "0001*..*.",
    "0001..*.!",
    "0112.X.*.",
    "01*.*....",
)
LIVE_LABELS = {
    "00.png": ("." * 9,) * 9,
    "14.png": tuple(r if i != 7 else "....." + "F" + "..." for i, r in enumerate(("." * 9,) * 9)),
    "17.png": LIVE_LOST,
}


def test_kmines_live_shots_name_nothing_wrongly() -> None:
    """KMines' lower 0s are a darker look of their own. In the solver's boards the
    kinds not named yet count as covered, so among 1-8 only "1" fitted them, and
    they were named 1; tried as 0 they fit just as well. Whatever is named must be
    right."""
    files = sorted(LIVE.glob("*.png"))
    learned = learn([load_image(f) for f in files], mines=10)
    (group,) = learned.groups
    names = group.naming.names
    _, wrong = _check_names(group, files, LIVE_LABELS)
    assert not wrong
    assert {".", "F"} <= set(names.values())


XBOMB = Path(__file__).resolve().parent / "data" / "xbomb-learn"
#: The lost board of tests/data/xbomb-learn (Debian `xbomb -square -1`, 8x8/10, Xvfb,
#: window crops): xbomb shows every cell at the loss, every mine on red, and the
#: wrongly flagged cell (2, 1) as a blank tile like a 0 ("?": not checked).
XBOMB_LOST = (
    "0111001*",
    "02*21121",
    "0?*31*10",
    "02*32210",
    "0112*100",
    "11011211",
    "*21001*2",
    "2*10012*",
)


def test_xbomb_game_names_nothing_wrongly() -> None:
    """xbomb's covered tiles are a one-pixel grey/white checkerboard (found on the
    picture smoothed over 2x2 pixels). At the loss it draws all ten mines on red
    and redraws the grid lines green around some cells, so each mine and number
    has several looks there: the solver found "1" the one value for a red mine
    look, and one red mine look seen once was taken for the exploded mine. Only
    what logic proves may be named; here that is the covered tile and the 0."""
    files = sorted(XBOMB.glob("*.png"))
    learned = learn([load_image(f) for f in files], mines=10)
    (group,) = learned.groups
    assert (group.geometries[0].rows, group.geometries[0].cols) == (8, 8)
    names = group.naming.names
    lost = group.labels[group.frames.index(len(files) - 1)]
    wrong = [
        (r, c, names[int(k)], XBOMB_LOST[r][c])
        for (r, c), k in np.ndenumerate(lost)
        if int(k) in names and XBOMB_LOST[r][c] != "?" and names[int(k)] != XBOMB_LOST[r][c]
    ]
    assert not wrong
    fresh = group.labels[group.frames.index(0)]
    assert all(names.get(int(k)) == "." for k in fresh.reshape(-1))
