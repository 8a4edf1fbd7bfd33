"""The cell classification's fast paths give exactly what the plain ones give.

- each kind's nearest template found over its slice of templates
  (`TileBank.kind_starts`) against a search of each kind's templates;
- `colour._median` against `np.median`, and `allowed_kinds` against the
  per-colour distance it stands for;
- a scaled grid's cells grouped by their byte windows (`distinct._groups`):
  pixels changed only in the padding of a window, outside the cell's
  footprint, and hash collisions forced on every cell.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_distinct import _equal  # the same check as for whole-pixel grids

from vision import distinct
from vision.classify import _per_kind, classify
from vision.colour import _median, allowed_kinds
from vision.distinct import classify_distinct
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.sampling import make_sampler, sample_patches

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"


def _located(name: str, frame: str = "0001.png") -> tuple[np.ndarray, object]:
    image = load_image(RECORDINGS / name / "frames" / frame)
    return image, BoardReader().locate(image)


def test_nearest_template_per_kind_over_slices() -> None:
    image, located = _located("gnome-mines-expert-1")
    bank = located.bank  # type: ignore[attr-defined]
    geo, nudge = located.geometry, located.nudge  # type: ignore[attr-defined]
    assert bank.kind_starts is not None
    patches = sample_patches(image, make_sampler(geo, nudge, bank.skin.inset, bank.skin.patch))
    assert patches is not None
    # The same templates with the kinds' order scrambled: no slices, searched by kind.
    order = np.random.default_rng(1).permutation(len(bank.matrix))
    mixed = replace(
        bank, matrix=bank.matrix[order], norms=bank.norms[order], kind_of=bank.kind_of[order]
    )
    assert mixed.kind_starts is None
    assert np.array_equal(_per_kind(patches, bank), _per_kind(patches, mixed))


def test_median_of_bytes_is_numpys() -> None:
    rng = np.random.default_rng(2)
    for size in (1, 2, 49, 50, 900):
        samples = rng.integers(0, 256, (33, size, 3), dtype=np.uint8)
        assert np.array_equal(_median(samples, np.float64), np.median(samples, axis=1))
        grey = samples[:, :, 0]
        mine = _median(grey, np.float32)
        assert mine.dtype == np.float32
        assert np.array_equal(mine, np.median(grey.astype(np.float32), axis=1))


def test_allowed_kinds_is_the_per_channel_distance() -> None:
    _, located = _located("gnome-mines-expert-1")
    bank = located.bank  # type: ignore[attr-defined]
    table = bank.colours
    rng = np.random.default_rng(4)
    near = table.colours[rng.integers(0, len(table.colours), 200)]
    seen = np.clip(near + rng.integers(-40, 41, near.shape), 0, 255).astype(np.float64)
    allowed, unmatched = allowed_kinds(seen, table, len(bank.kinds))
    close = np.abs(seen[:, None, :] - table.colours[None, :, :]).max(axis=2) <= table.tolerance
    assert 0 < unmatched.sum() < len(seen)  # both kinds of cells (the check can fail)
    assert np.array_equal(unmatched, ~close.any(axis=1))
    for k in range(len(bank.kinds)):
        own = close[:, table.kind_of == k].any(axis=1)
        expect = own | ~table.declared[k] | unmatched
        assert np.array_equal(allowed[:, k], expect)


def test_pixels_outside_the_footprint_keep_cells_grouped() -> None:
    """A window is cut wider than a cell's footprint (whole words); pixels changed
    in that padding are masked out (the covered cells still form one group),
    and a change inside the footprint splits the cell off; both read as `classify`."""
    image, located = _located("gnome-mines-expert-1")
    geo, bank, nudge = located.geometry, located.bank, located.nudge  # type: ignore[attr-defined]
    sampler = make_sampler(geo, nudge, bank.skin.inset, bank.skin.patch)
    plan = distinct._plan(sampler, geo, nudge, bank.colours, image.shape[2])
    assert plan.mask is not None
    first, group = distinct._groups(image, plan)
    whole = classify(image, geo, bank, nudge)
    assert whole is not None
    covered = np.flatnonzero(whole.chars.reshape(-1) == ".")
    biggest = np.bincount(group).argmax()
    assert set(covered) >= set(np.flatnonzero(group == biggest))
    masks = plan.mask.view(np.uint8).reshape(-1, plan.height, plan.width)
    painted = image.copy()
    changed = []
    for cell in covered[::37]:
        r, c = divmod(int(cell), geo.cols)
        outside = np.argwhere(masks[cell] == 0)
        if len(outside) == 0:
            continue
        dy, db = outside[len(outside) // 2]
        y, b = plan.top[r] + dy, plan.left[c] + db
        painted.reshape(image.shape[0], -1)[y, b] ^= 0xFF
        changed.append(cell)
    assert changed
    _, moved = distinct._groups(painted, plan)
    assert len(np.unique(moved)) == len(first)
    _equal(
        classify_distinct(painted, geo, bank, nudge, sampler), classify(painted, geo, bank, nudge)
    )
    # Inside the footprint: the cell is grouped apart.
    cell = int(covered[len(covered) // 2])
    r, c = divmod(cell, geo.cols)
    inside = np.argwhere(masks[cell] == 255)
    dy, db = inside[len(inside) // 2]
    painted.reshape(image.shape[0], -1)[plan.top[r] + dy, plan.left[c] + db] ^= 0xFF
    _, split = distinct._groups(painted, plan)
    assert np.count_nonzero(split == split[cell]) == 1
    _equal(
        classify_distinct(painted, geo, bank, nudge, sampler), classify(painted, geo, bank, nudge)
    )


def _windows(image: np.ndarray, plan: distinct._Plan) -> list[bytes]:
    """Each cell's class and window with the bytes outside its footprint zeroed, plainly."""
    lines = image.reshape(image.shape[0], -1)
    cols = len(plan.left)
    out = []
    for cell in range(len(plan.kind)):
        r, c = divmod(cell, cols)
        window = lines[plan.top[r] : plan.top[r] + plan.height, plan.left[c] :][:, : plan.width]
        if plan.mask is not None:
            window = window & plan.mask[cell].view(np.uint8).reshape(plan.height, plan.width)
        out.append(int(plan.kind[cell]).to_bytes(4, "little") + window.tobytes())
    return out


def _partition(group: np.ndarray) -> set[frozenset[int]]:
    return {frozenset(np.flatnonzero(group == g).tolist()) for g in np.unique(group)}


def test_hash_collisions_group_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell whose window is another's with two of its words swapped has the
    same hash (plain sums) and other bytes: it is grouped apart, exactly as a
    plain grouping of the windows groups it, and reads as `classify`; past
    MAX_COLLISIONS there is no grouping, and the board is read cell by cell."""
    image, located = _located("gnome-mines-expert-1")
    geo, bank, nudge = located.geometry, located.bank, located.nudge  # type: ignore[attr-defined]
    sampler = make_sampler(geo, nudge, bank.skin.inset, bank.skin.patch)
    plan = distinct._plan(sampler, geo, nudge, bank.colours, image.shape[2])
    first, group = distinct._groups(image, plan)
    windows = _windows(image, plan)
    per_row = plan.width // 8
    mask = (
        np.full((len(plan.kind), plan.height * per_row), 2**64 - 1, dtype=np.uint64)
        if plan.mask is None
        else plan.mask
    )
    painted, cell = image.copy(), None
    for g in np.argsort(-np.bincount(group)):  # a group of several cells, not all flat
        members = np.flatnonzero(group == g)
        lead = int(first[g])
        words = np.frombuffer(windows[lead][4:], dtype=np.uint64)
        inside = np.flatnonzero(mask[lead][: len(words) // 2] == np.uint64(2**64 - 1))
        pairs = [(i, j) for i in inside for j in inside if i < j and words[i] != words[j]]
        if len(members) > 1 and pairs:
            cell, (i, j) = int(members[-1]), pairs[len(pairs) // 2]
            break
    assert cell is not None
    r, c = divmod(cell, geo.cols)
    lines = painted.reshape(image.shape[0], -1)
    spots = [(plan.top[r] + k // per_row, plan.left[c] + k % per_row * 8) for k in (i, j)]
    (ya, xa), (yb, xb) = spots
    lines[ya, xa : xa + 8], lines[yb, xb : xb + 8] = (
        lines[yb, xb : xb + 8].copy(),
        lines[ya, xa : xa + 8].copy(),
    )
    grouped = distinct._groups(painted, plan)
    assert grouped is not None
    moved_first, moved = grouped
    assert np.count_nonzero(moved == moved[cell]) == 1
    assert len(moved_first) == len(first) + 1
    assert moved[cell] == len(first)  # grouped after the hashes: as a collision
    plain = np.unique(np.array(_windows(painted, plan), dtype=object), return_inverse=True)[1]
    assert _partition(moved) == _partition(plain)
    _equal(
        classify_distinct(painted, geo, bank, nudge, sampler), classify(painted, geo, bank, nudge)
    )
    monkeypatch.setattr(distinct, "MAX_COLLISIONS", 0)
    assert distinct._groups(painted, plan) is None
    assert distinct._groups(image, plan) is not None
    _equal(
        classify_distinct(painted, geo, bank, nudge, sampler), classify(painted, geo, bank, nudge)
    )


def test_byte_windows_of_other_layouts_read_as_every_cell() -> None:
    """The windows are cut from the image's rows of bytes: a crop (rows apart in
    memory) and a channel-reversed view (not contiguous at all) group and read
    as `classify` reads every cell."""
    image, located = _located("gnome-mines-expert-1")
    geo, bank, nudge = located.geometry, located.bank, located.nudge  # type: ignore[attr-defined]
    crop = image[:, : image.shape[1] - 3]
    flipped = np.ascontiguousarray(image[:, :, ::-1])[:, :, ::-1]
    assert not crop.flags.c_contiguous and not flipped.flags.c_contiguous
    sampler = make_sampler(geo, nudge, bank.skin.inset, bank.skin.patch)
    for picture in (crop, flipped):
        plan = distinct._plan(sampler, geo, nudge, bank.colours, picture.shape[2])
        assert distinct._groups(picture, plan) is not None  # the grouped path itself
        _equal(
            classify_distinct(picture, geo, bank, nudge, sampler),
            classify(picture, geo, bank, nudge),
        )


@pytest.mark.parametrize("name", ["gnome-mines-expert-1", "gnome-mines-intermediate-1"])
def test_a_part_of_a_scaled_grid_grouped_by_the_whole_grids_plan_reads_as_every_cell(
    name: str,
) -> None:
    """A changed part of a scaled board (`distinct.part_sampler`: the whole grid's
    grouping plan cut to the part) reads as plain `classify` of that part, and as
    the same cells of the whole board, bit for bit; on every frame, for boxes at
    the board's corners, edges and middle, a single cell and the whole board."""
    frames = sorted((RECORDINGS / name / "frames").glob("*.png"))
    for path in frames:
        image, located = _located(name, path.name)
        geo, nudge, bank = located.geometry, located.nudge, located.bank  # type: ignore[attr-defined]
        sampler = make_sampler(geo, nudge, bank.skin.inset, bank.skin.patch)
        whole = classify(image, geo, bank, nudge, sampler)
        assert whole is not None
        rows, cols = geo.rows, geo.cols
        boxes = [
            (0, rows, 0, cols),
            (0, 1, 0, 1),
            (rows - 3, rows, cols - 5, cols),
            (rows // 3, rows // 3 + 4, 2, cols - 1),
            (1, rows - 1, cols // 2, cols // 2 + 1),
        ]
        for box in boxes:
            r0, r1, c0, c1 = box
            part, part_nudge, cut = distinct.part_sampler(image, geo, nudge, sampler, bank, box)
            grouped = classify_distinct(image, part, bank, part_nudge, cut)
            plain = classify(image, part, bank, part_nudge, cut)
            assert grouped is not None and plain is not None
            _equal(grouped, plain)
            for field in ("chars", "best", "margin", "unsure"):
                got, want = getattr(grouped, field), getattr(whole, field)
                assert np.array_equal(got, want[r0:r1, c0:c1]), (box, field)
