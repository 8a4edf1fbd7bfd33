"""The reader's memory of the last read (cells, glyph searches) never changes an answer.

`BoardReader.read` classifies again only the cells whose pixels changed and
reuses a glyph search while its region is unchanged; every reading must be the
one a fresh reader gives for the same picture, whatever was read before.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.capture import freeze
from vision.glyphs import crop_region
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.reading import Reading

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"
CASES = ["xdemineur-expert-1", "gnome-mines-expert-1", "sgt-mines-expert-1", "minegauler-dense-1"]


def _same(a: Reading, b: Reading) -> None:
    assert a.board == b.board
    assert a.mines_left == b.mines_left
    assert a.status == b.status
    assert a.controls == b.controls
    assert [(u.row, u.col, u.best) for u in a.unknown] == [
        (u.row, u.col, u.best) for u in b.unknown
    ]


@pytest.mark.parametrize("name", CASES)
def test_reads_in_any_order_match_fresh_reads(name: str) -> None:
    frames = [load_image(p) for p in sorted((RECORDINGS / name / "frames").glob("*.png"))]
    fresh = BoardReader()
    located = fresh.locate(frames[0])
    expected = [BoardReader(fresh.skins).read(f, located) for f in frames]
    reader = BoardReader(fresh.skins)
    order = [0, 1, 1, 2, 0, 2, *range(len(frames) - 1, -1, -1)]
    for i in order:
        _same(reader.read(frames[i], located), expected[i])


@pytest.mark.parametrize("name", CASES)
def test_snapshots_kept_by_reference_and_copies_mixed_read_as_fresh_reads(name: str) -> None:
    """Read-only snapshots (what screens hand out) are kept as they are, other
    frames copied. A writable frame the caller fills with the next picture
    after its read is the hazard: kept by reference, the next read would see
    no change and repeat the last answer."""
    paths = sorted((RECORDINGS / name / "frames").glob("*.png"))
    frames = [load_image(p) for p in paths]
    fresh = BoardReader()
    located = fresh.locate(frames[0])
    expected = [BoardReader(fresh.skins).read(f, located) for f in frames]
    reader = BoardReader(fresh.skins)
    order = [0, 1, 1, 2, 0, 2, 1, 0, 2, 2, 0]
    for step, i in enumerate(order):
        if step % 3 == 1 and step + 1 < len(order):
            scratch = frames[i].copy()
            _same(reader.read(scratch, located), expected[i])
            scratch[:] = frames[order[step + 1]]  # the caller's buffer, reused
        else:
            _same(reader.read(freeze(frames[i].copy()), located), expected[i])


@pytest.mark.parametrize("name", CASES)
def test_a_small_change_is_read_as_a_fresh_reader_reads_it(name: str) -> None:
    """Pixels painted over here and there (as after a click): cells there are read
    again, the rest is remembered, and the reading is a fresh reader's."""
    frame = load_image(next(iter(sorted((RECORDINGS / name / "frames").glob("*.png")))))
    reader = BoardReader()
    located = reader.locate(frame)
    reader.read(frame, located)
    geo = located.geometry
    rng = np.random.default_rng(3)
    for whole_cell in (False, True, False, True):
        changed = frame.copy()
        row, col = int(rng.integers(geo.rows)), int(rng.integers(geo.cols))
        x, y = round(geo.left + col * geo.cell_w), round(geo.top + row * geo.cell_h)
        if whole_cell:  # a cell no skin draws: it must come out unknown
            w, h = round(geo.cell_w) + 1, round(geo.cell_h) + 1
            changed[y - 1 : y + h, x - 1 : x + w] = (255, 0, 255)
        else:  # any few pixels, across cell edges
            w, h = int(rng.integers(1, 3 * geo.cell_w)), int(rng.integers(1, 2 * geo.cell_h))
            changed[y : y + h, x : x + w] = rng.integers(0, 256, size=3, dtype=np.uint8)
        seen = reader.read(changed, located)
        _same(seen, BoardReader(reader.skins).read(changed, located))
        if whole_cell:
            assert (row, col) in [(u.row, u.col) for u in seen.unknown]
        _same(reader.read(frame, located), BoardReader(reader.skins).read(frame, located))


@pytest.mark.parametrize("name", CASES)
def test_a_counter_that_changes_alone_is_read_afresh(name: str) -> None:
    """Only the counter's digits change (a flag placed elsewhere than on the board):
    the glyph search matches again only there, and reads what a fresh reader reads."""
    paths = sorted((RECORDINGS / name / "frames").glob("*.png"))
    first, last = load_image(paths[0]), load_image(paths[-1])
    reader = BoardReader()
    located = reader.locate(first)
    skin, geo = located.skin, located.geometry
    assert skin.counter is not None
    region = crop_region(first, skin.counter.region, geo)
    assert region is not None
    height, width = region.grey.shape[:2]
    mixed = first.copy()
    box = (slice(region.y0, region.y0 + height), slice(region.x0, region.x0 + width))
    mixed[box] = last[box]
    before = reader.read(first, located)
    after = reader.read(mixed, located)
    _same(after, BoardReader(reader.skins).read(mixed, located))
    assert after.board == before.board
    assert after.mines_left == BoardReader(reader.skins).read(last, located).mines_left
