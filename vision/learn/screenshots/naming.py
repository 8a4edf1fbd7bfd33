"""Name the clusters of one clone: covered, 0-8, flag, mines, decided by game logic.

Appearance alone cannot say which glyph is a "3"; the rules of Minesweeper
can. Every subset M of the clusters is tried as "the clusters that are mines"
(shown mines, the exploded mine, flags) at once, as one matrix product of
neighbour counts. A frame is *complete* under M when every open cell's
cluster shows the same count of mine neighbours everywhere in that frame,
either with covered cells as safe (a lost board with its mines shown) or as
mines (a won board). The M explaining most cells of complete frames wins;
each cluster whose cells all show count v there is the number v. Numbers
never seen on a complete frame are tried 1-8 with the solver on the other
frames, and named only when exactly one value keeps them all consistent.
What is still unexplained is left unknown, never guessed.

Covered is the most common cluster on the frame most dominated by one
cluster (a fresh board); 0 is the flattest of the others.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.board import Board
from bot.errors import InconsistentBoardError
from vision.learn.cluster import distances

#: Share of a frame's open cells that may be unexplained (wrong flags, question marks).
SLACK = 0.03
#: At most this many clusters are tried as mine kinds (2**n subsets).
MAX_CANDIDATES = 13
#: Share of strongly red pixels above which a tile is the exploded mine's (a red
#: background); red digits ("3") and red-crossed wrong flags stay well below.
RED_TILE = 0.35
#: A frame whose commonest kind covers more than this share of it is taken as a
#: fresh board (when no two frames of one game show which kind cells turn from).
FRESH_SHARE = 0.5
#: Two kinds closer than this (mean squared difference) may be two looks of one
#: number (different digits and the wrong flag are thousands apart).
SHADES = 1000.0
#: At most this many kinds seen on one cell only may count as explained on a board.
LONE_FEW = 4
#: A patch whose pixels vary less than this (std per channel value) is flat.
FLAT_STD = 12.0
#: The 0 differs from the covered tile by at least this (mean squared difference);
#: covered tiles at other sub-pixel phases differ by up to ~500 (GNOME Mines),
#: real 0s by 1000 and more (all four built-in clones).
ZERO_APART = 700.0


@dataclass(frozen=True)
class Naming:
    """Board character per cluster (absent: unknown) and what the evidence was."""

    names: dict[int, str]
    #: Per frame: "lost", "won" (complete under that reading) or "" (in progress).
    complete: list[str]
    notes: list[str] = field(default_factory=list)


def _neighbour_counts(labels: np.ndarray, k: int) -> np.ndarray:
    """(k, cells): for each cluster, how many of each cell's 8 neighbours belong to it."""
    rows, cols = labels.shape
    onehot = (labels[None, :, :] == np.arange(k)[:, None, None]).astype(np.int32)
    padded = np.pad(onehot, ((0, 0), (1, 1), (1, 1)))
    total = np.zeros_like(onehot)
    for dr, dc in itertools.product((0, 1, 2), repeat=2):
        if (dr, dc) != (1, 1):
            total += padded[:, dr : dr + rows, dc : dc + cols]
    return np.asarray(total.reshape(k, -1))


def _flatness(faces: np.ndarray) -> np.ndarray:
    """Std of the middle of each face (per channel, averaged): low for flat tiles.

    The rim is left out: grid lines and gaps between tiles are part of a cell
    patch but say nothing about what the tile shows.
    """
    side = round((faces.shape[1] // 3) ** 0.5)
    rim = max(1, side // 5)
    pix = faces.reshape(len(faces), side, side, 3)[:, rim:-rim, rim:-rim].reshape(len(faces), -1, 3)
    return np.asarray(pix.std(axis=1).mean(axis=1))


def _redness(faces: np.ndarray) -> np.ndarray:
    """Share of pixels that are strongly red (BGR): the exploded mine's background."""
    pix = faces.reshape(len(faces), -1, 3)
    red = (pix[:, :, 2] > 150) & (pix[:, :, 1] < 90) & (pix[:, :, 0] < 90)
    return np.asarray(red.mean(axis=1))


@dataclass(frozen=True)
class _FrameEval:
    """Per subset: is the frame complete (and how), and each cluster's uniform count."""

    complete: np.ndarray  # (S,) 0 = no, 1 = lost, 2 = won
    explained: np.ndarray  # (S, k) cells of each cluster explained in this frame
    value: np.ndarray  # (S, k) the count, -1 when not uniform / not a number


def _evaluate(
    labels: np.ndarray,
    k: int,
    masks: np.ndarray,
    covered: int,
    zero: int | None,
    never_numbers: set[int],
    lone: frozenset[int] = frozenset(),
    alike: np.ndarray | None = None,
) -> _FrameEval:
    counts_n = _neighbour_counts(labels, k)
    flat = labels.reshape(-1)
    present = np.bincount(flat, minlength=k)
    s = len(masks)
    mine_counts = masks.astype(np.int32) @ counts_n  # (S, cells)
    best_complete = np.zeros(s, dtype=np.int8)
    best_explained = np.zeros((s, k), dtype=np.int64)
    best_value = np.full((s, k), -1, dtype=np.int64)
    for mode, counts in ((1, mine_counts), (2, mine_counts + counts_n[covered][None, :])):
        value = np.full((s, k), -1, dtype=np.int64)
        for c in np.nonzero(present)[0]:
            if c == covered or c in never_numbers:
                continue
            vals = counts[:, flat == c]
            uniform = (vals.min(axis=1) == vals.max(axis=1)) & ~masks[:, c]
            value[:, c] = np.where(uniform, vals[:, 0], -1)
        # Two clusters with one count in one frame cannot both be that number:
        # the rarer one is not (a wrong flag or question mark beside real numbers).
        # Unless they look alike: KMines' open tiles are translucent, so one digit
        # shows a lighter and a darker look over its background (~50-350 apart).
        for a, b in itertools.combinations(np.nonzero(present)[0], 2):
            if alike is not None and alike[a, b]:
                continue
            clash = (value[:, a] >= 0) & (value[:, a] == value[:, b])
            value[clash, b if present[b] <= present[a] else a] = -1
        hidden = sum(present[c] * ~masks[:, c] for c in never_numbers) if never_numbers else 0
        # A lone kind taken as a mine is unexplained too (a dialog's pieces would
        # otherwise all "be mines"; the hit mine alone fits within the slack).
        lone_mines = sum(present[c] * masks[:, c] for c in lone) if lone else 0
        open_cells = np.asarray(
            ((~masks) * present[None, :]).sum(axis=1) - present[covered] - hidden + lone_mines
        )
        # A lone kind fits any count on its one cell: a few of them on a board
        # (a rare 7 or 8) are explained by their counts, many (the pieces of a
        # dialog over the board) explain nothing.
        is_lone = np.isin(np.arange(k), sorted(lone))
        fitting = ((value >= 0) & (is_lone & (present > 0))[None, :]).sum(axis=1)
        counted = np.where(is_lone[None, :] & (fitting > LONE_FEW)[:, None], 0, present[None, :])
        explained = (value >= 0) * counted
        ok = explained.sum(axis=1) >= open_cells - np.maximum(2, SLACK * open_cells)
        ok &= open_cells > 0
        if zero is not None and present[zero]:
            ok &= value[:, zero] == 0
        if mode == 1:
            ok &= (masks * present[None, :]).sum(axis=1) > 0
        else:
            # A won board has more open cells than mines; a fresh board with a
            # flag or two is not one (its flag would "count" 8 covered mines).
            ok &= 2 * (present[covered] + (masks * present[None, :]).sum(axis=1)) < flat.size
        take = ok & (best_complete == 0)
        best_complete[take] = mode
        best_explained[take] = explained[take]
        best_value[take] = value[take]
    return _FrameEval(best_complete, best_explained, best_value)


def _pick_covered(frames: Sequence[np.ndarray], k: int, sequences: Sequence[int]) -> int | None:
    """The covered tile: what cells turn from as a game goes on (opened cells never
    change back); without two frames of one game, the most common kind on the
    frame most dominated by one kind (a fresh board)."""
    changed = np.zeros(k, dtype=np.int64)
    for i, labels in enumerate(frames):
        for j in range(i + 1, len(frames)):
            if sequences[j] == sequences[i] and frames[j].shape == labels.shape:
                moved = labels != frames[j]
                changed += np.bincount(labels[moved], minlength=k)
    if changed.any():
        return int(changed.argmax())
    best = (-1.0, 0)
    for labels in frames:
        counts = np.bincount(labels.reshape(-1), minlength=k)
        share = counts.max() / counts.sum()
        if share > best[0]:
            best = (float(share), int(counts.argmax()))
    # Most common on a board mostly of one kind: a fresh board. On a finished or
    # late board the open 0 is the commonest (a won board has no covered cell).
    return best[1] if best[0] > FRESH_SHARE else None


def name_clusters(
    frames: Sequence[np.ndarray], faces: np.ndarray, sequences: Sequence[int]
) -> Naming:
    """Names for the clusters of `frames` (label grids); see the module docstring.

    `faces` holds one patch per cluster; `sequences[i]` groups frames of one
    game in order (same board, same place), used for flags turning into wrong flags.
    """
    k = len(faces)
    notes: list[str] = []
    covered = _pick_covered(frames, k, sequences)
    if covered is None:
        notes.append(
            "which tile is the covered one is not proven (no fresh board, no two frames "
            "of one game): nothing named"
        )
        return Naming({}, [""] * len(frames), notes)
    sequences = _split_games(frames, sequences, covered)
    names: dict[int, str] = {covered: "."}
    flat = _flatness(faces)
    others = [c for c in range(k) if c != covered]
    # A flat tile close to the covered one is the covered tile at another sub-pixel
    # phase (fractional pitches split one kind into several clusters), not the 0.
    near_covered = distances(faces, faces[covered : covered + 1])[:, 0] < ZERO_APART
    flat_others = [c for c in others if flat[c] < FLAT_STD and not near_covered[c]]
    never = _changed_after_open(frames, sequences, covered)
    never |= _reverted_to_covered(frames, sequences, covered)
    never |= _changed_later(frames, sequences, covered)
    opened = _opened(frames, sequences, covered)
    # A 0 never changes and never touches a covered cell (its neighbours open
    # with it); it is named once proven: seen opening (a cell turned into it in
    # a game) or with no mine around on a finished board. A flat piece of a
    # dialog over the board is none of these.
    flat_others = [c for c in flat_others if c not in never and not _touches(frames, c, covered)]
    zero = min(flat_others, key=lambda c: flat[c]) if flat_others else None
    # A kind that only ever replaced a flag (or "?") is a wrong flag: no hit, no mine.
    marks = set(np.flatnonzero(_on_covered(faces, covered)).tolist())
    wrong = {c for c in others if _replaces_marks(frames, sequences, c, marks)}
    skip = {covered} | ({zero} if zero is not None else set()) | never | wrong
    hits = _hits(frames, faces, skip, sequences)
    # Mines and flags are drawn on a tile, never flat. When there are too many
    # kinds to try, those that never change come first, then those seen on one
    # cell only (a rare look of a mine); a dialog's pieces (they change) last.
    lone = frozenset(c for c in range(k) if _spots(frames, c) < 2)
    candidates = [
        c for c in others if c != zero and c not in hits and c not in wrong and flat[c] >= FLAT_STD
    ]
    if len(candidates) > MAX_CANDIDATES:
        total = np.bincount(np.concatenate([f.reshape(-1) for f in frames]), minlength=k)
        candidates = sorted(candidates, key=lambda c: (c in never, c in lone, -total[c]))
        candidates = candidates[:MAX_CANDIDATES]
        notes.append(f"only the {MAX_CANDIDATES} most common clusters were tried as mine kinds")
    subsets = np.array(list(itertools.product((False, True), repeat=len(candidates))), dtype=bool)
    masks = np.zeros((len(subsets), k), dtype=bool)
    masks[:, candidates] = subsets.reshape(len(subsets), -1)
    masks[:, sorted(hits)] = True
    # A kind only ever seen on one cell (a piece of a dialog over the board) fits
    # any count there: many of them on a frame leave it incomplete (`_evaluate`).
    alike = distances(faces, faces) < SHADES
    evals = [_evaluate(f, k, masks, covered, zero, never, lone, alike) for f in frames]
    # A game went on after a frame where only covered cells changed later: that
    # frame shows no finished game, whatever counts happen to fit on it.
    changed, progressed = _continued(frames, sequences, covered)
    for i in changed:
        evals[i].complete[:] = 0
    # A cluster's value must agree across every complete frame it appears in.
    value = np.full((len(masks), k), -1, dtype=np.int64)
    conflict = np.zeros((len(masks), k), dtype=bool)
    explained = np.zeros((len(masks), k), dtype=np.int64)
    for ev, labels in zip(evals, frames, strict=True):
        present = np.bincount(labels.reshape(-1), minlength=k) > 0
        done = ev.complete > 0
        here = done[:, None] & present[None, :]
        bad = here & ((ev.value < 0) | ((value >= 0) & (value != ev.value)))
        conflict |= bad
        value = np.where(here & (ev.value >= 0) & (value < 0), ev.value, value)
        explained += ev.explained * done[:, None]
    value[conflict] = -1
    score = np.where(conflict, 0, explained).sum(axis=1) * 64 - masks.sum(axis=1)
    best = int(score.argmax())
    mines = set(np.nonzero(masks[best])[0].tolist())
    complete = ["", "lost", "won"]
    frame_modes = [complete[int(ev.complete[best])] for ev in evals]
    sequences_of = list(sequences)
    if zero is not None:
        on_finished = any(
            mode and (labels == zero).any()
            for labels, mode in zip(frames, frame_modes, strict=True)
        )
        if zero in opened or on_finished:
            names[zero] = "0"
        else:
            notes.append(f"cluster {zero} looks like the 0, but nothing proves it: left unknown")
    for c in range(k):
        v = int(value[best, c])
        if v == 0 and c not in names and c not in mines and c not in never:
            # A flat look with no mine around it on a finished board, touching no
            # covered cell: a 0 (KMines' is too close to its covered tile for the
            # guess above, ~500 apart).
            if flat[c] < FLAT_STD and not _touches(frames, c, covered):
                names[c] = "0"
            continue
        if c in names or c in mines or v < 1:
            continue
        if _was_mine_kind(frames, sequences_of, c, mines) or c in never:
            notes.append(f"cluster {c} was a flag before: left to the solver")
            continue
        names[c] = str(v)
    if not hits:
        hits = _hit_by_logic(frames, faces, mines, frame_modes, progressed)
    if not hits:
        hits = _hit_by_last_click(frames, mines, frame_modes, sequences, covered, names)
    _name_mines(frames, mines, hits, names, frame_modes, sequences, progressed)
    # Wrong flags need the flag; the flag may need its look: name both ways round.
    name_wrong_flags(frames, faces, sequences, frame_modes, names)
    _name_covered_glyphs(frames, marks, sequences, names, opened)
    name_wrong_flags(frames, faces, sequences, frame_modes, names)
    # The solver names only kinds seen opening (a cell turned into them from
    # covered): a consistent value is no proof for a look nothing showed opening
    # (a covered tile cut with a strip of the board's frame "fits" as a 1).
    # ...and only kinds seen in play, on a board the game went on after: the mines
    # shown at the loss "fit" as numbers too (xbomb's red mines were named 1).
    in_play = {int(c) for i in progressed for c in np.unique(frames[i])}
    unproven = set(range(k)) - (opened & in_play)
    _name_by_solver(frames, names, notes, never | unproven, flat < FLAT_STD)
    for c in range(k):
        if c not in names:
            notes.append(f"cluster {c} left unknown")
    return Naming(names, frame_modes, notes)


def _played_on(frames: Sequence[np.ndarray], sequences: Sequence[int], c: int) -> bool:
    """Whether the game went on after a cell showed `c` (a later frame of the same game
    still shows it there, and other cells changed): then `c` ended no game."""
    for i, a in enumerate(frames):
        cells = a == c
        if not cells.any():
            continue
        for j in range(i + 1, len(frames)):
            b = frames[j]
            if sequences[j] != sequences[i] or b.shape != a.shape:
                continue
            if (b[cells] == c).all() and (a != b).any():
                return True
    return False


def _hits(
    frames: Sequence[np.ndarray], faces: np.ndarray, skip: set[int], sequences: Sequence[int]
) -> set[int]:
    """The exploded mine: a red tile, at most one per frame (reddest first, never two at once).

    Every clone draws the mine that was hit on red; a red-crossed wrong flag is
    less red and shares its frame with the hit, so it is not taken. A tile the
    game went on after is no hit (GNOME Mines draws its 8 on red); `skip` holds
    the wrong flags (GNOME Mines draws its own on red, redder than its hit).
    """
    red = _redness(faces)
    seen = np.array([[int((labels == c).sum()) for labels in frames] for c in range(len(faces))])
    chosen: set[int] = set()
    for c in np.argsort(-red).tolist():
        if c in skip or red[c] <= RED_TILE or seen[c].max() != 1:
            continue
        if _played_on(frames, sequences, c):
            continue
        if any(bool(((seen[c] > 0) & (seen[h] > 0)).any()) for h in chosen):
            continue
        # The hit must be the one red cell of its boards: xbomb draws every mine
        # on red at the loss, and one of them in a look of its own is no hit.
        reds = [d for d in range(len(faces)) if d != c and red[d] > RED_TILE]
        if any(bool(((seen[c] > 0) & (seen[d] > 0)).any()) for d in reds):
            continue
        chosen.add(c)
    return chosen


def _replaces_marks(
    frames: Sequence[np.ndarray], sequences: Sequence[int], c: int, marks: set[int]
) -> bool:
    """Whether kind `c` (not itself a mark) shows only where the latest earlier frame
    of its game showed a mark on a covered tile (a flag or question mark: `marks`),
    on every frame that has an earlier one: the wrong flag of a lost board. A flagged
    cell cannot be clicked open, so such a kind is no hit and no mine."""
    if c in marks:
        return False
    seen = False
    for i, labels in enumerate(frames):
        cells = labels == c
        before = [
            j for j in range(i) if sequences[j] == sequences[i] and frames[j].shape == labels.shape
        ]
        if not cells.any() or not before:
            continue
        if not np.isin(frames[before[-1]][cells], sorted(marks)).all():
            return False
        seen = True
    return seen


#: A hit told from the shown mines by colour must be this many times redder.
REDDER = 3.0


def _hit_by_logic(
    frames: Sequence[np.ndarray],
    faces: np.ndarray,
    mines: set[int],
    modes: Sequence[str],
    progressed: set[int],
) -> set[int]:
    """The exploded mine when no tile is red enough (GNOME Mines draws a red mine on
    an open tile): the mine kind shown exactly once on every board it is on, all of
    them boards complete as lost. When two kinds fit (a lost board showing one
    other mine) the clearly redder one is the hit; otherwise none is named."""
    fits = []
    for c in sorted(mines):
        counts = [
            (int((labels == c).sum()), mode) for labels, mode in zip(frames, modes, strict=True)
        ]
        shown = [(n, mode, i) for i, (n, mode) in enumerate(counts) if n]
        # Once on every board it is on, and on a lost one; frames after the loss
        # that are not complete (a dialog over the board) may show it too, but
        # never a board the game went on after.
        if (
            shown
            and all(n == 1 and i not in progressed for n, _, i in shown)
            and any(mode == "lost" for _, mode, _ in shown)
        ):
            fits.append(c)
    if len(fits) == 1:
        return set(fits)
    if len(fits) > 1:
        red = _redness(faces)
        top = max(fits, key=lambda c: red[c])
        rest = max(red[c] for c in fits if c != top)
        if red[top] > 0.01 and red[top] >= REDDER * rest:
            return {top}
    return set()


def _hit_by_last_click(
    frames: Sequence[np.ndarray],
    mines: set[int],
    modes: Sequence[str],
    sequences: Sequence[int],
    covered: int,
    names: dict[int, str],
) -> set[int]:
    """The exploded mine when no number touches it (logic cannot count it as a mine):
    on a board complete as lost, seen right after a board of the same game, every
    cell that was covered before shows a mine kind but one, and that one is of a
    kind not named yet and shown once on every board it is on, all lost: the
    click that lost the game opened it."""
    found: set[int] = set()
    for j, b in enumerate(frames):
        before = [
            i for i in range(j) if sequences[i] == sequences[j] and frames[i].shape == b.shape
        ]
        if modes[j] != "lost" or not before:
            continue
        a = frames[before[-1]]
        opened = b[(a == covered) & (b != covered)]
        other = [int(c) for c in opened.tolist() if int(c) not in mines]
        if len(other) == 1 and other[0] not in names:
            found.add(other[0])
    if len(found) != 1:
        return set()
    (c,) = found
    shown = [(int((labels == c).sum()), mode) for labels, mode in zip(frames, modes, strict=True)]
    if all(n == 1 and mode == "lost" for n, mode in shown if n):
        return {c}
    return set()


def _name_mines(
    frames: Sequence[np.ndarray],
    mines: set[int],
    hits: set[int],
    names: dict[int, str],
    modes: Sequence[str],
    sequences: Sequence[int],
    progressed: set[int],
) -> None:
    """A lost board shows the hit mine, so a mine kind seen on a board without it
    (in play, or won) is the flag; the rest are shown mines. A board complete as
    lost counts as lost for a kind that appears on it all at once at the end of a
    game seen before (GNOME Mines' hit mine is not red enough to be found). "In
    play" is proven, not assumed: the game went on after that frame (`progressed`)
    or it is complete as won; a board the hit was not found on may be lost too
    (KMines draws its hit mine on orange, and a dialog over the lost board)."""
    lost = [any((labels == h).any() for h in hits) for labels in frames]
    for c in sorted(hits):
        names[c] = "!"
    for c in sorted(mines - hits):
        on_unlost = False
        for i, labels in enumerate(frames):
            if not (labels == c).any() or lost[i]:
                continue
            if i not in progressed and modes[i] != "won":
                continue
            earlier = [
                frames[j]
                for j in range(i)
                if sequences[j] == sequences[i] and frames[j].shape == labels.shape
            ]
            at_end = modes[i] == "lost" and earlier and not any((e == c).any() for e in earlier)
            if not at_end:
                on_unlost = True
        names[c] = "F" if on_unlost else "*"


def name_wrong_flags(
    frames: Sequence[np.ndarray],
    faces: np.ndarray,
    sequences: Sequence[int],
    modes: list[str],
    names: dict[int, str],
) -> None:
    """Wrong flags: shown only on boards with mines shown, where the same game had a flag.

    Also run again once the flag is named from another cell size (`vision.learn.screenshots.sizes`).
    """
    flags = {c for c, n in names.items() if n == "F"}
    for c in range(len(faces)):
        if c in names:
            continue
        seen = [int((labels == c).sum()) for labels in frames]
        if not flags:
            continue
        # Wrong flag: only on boards with mines shown, where the same game had a flag.
        was_flag = True
        for i, labels in enumerate(frames):
            if not seen[i]:
                continue
            if modes[i] != "lost":
                was_flag = False
                break
            before = [
                frames[j]
                for j in range(i)
                if sequences[j] == sequences[i] and frames[j].shape == labels.shape
            ]
            cells = labels == c
            # Every such cell showed a flag at some time before (flags come one by one).
            flagged = np.zeros_like(cells)
            for b in before:
                flagged |= np.isin(b, list(flags))
            if not before or not flagged[cells].all():
                was_flag = False
                break
        if was_flag:
            names[c] = "X"


def _changed_after_open(
    frames: Sequence[np.ndarray], sequences: Sequence[int], covered: int
) -> set[int]:
    """Kinds a cell turned into only ever from another uncovered look: never numbers.

    An opened cell never changes, so a kind that only ever replaces a flag (a
    question mark, a wrong flag on a lost board) cannot be a number. A kind
    also seen turning from covered may still be one: GNOME Mines opens wrongly
    flagged cells in a cascade, so a flag can turn into a number too.
    """
    from_open: set[int] = set()
    from_covered: set[int] = set()
    for j, b in enumerate(frames):
        # The frame just before in the same game: further back, a cell may have
        # been covered, then flagged, then shown as a wrong flag.
        before = [
            i for i in range(j) if sequences[i] == sequences[j] and frames[i].shape == b.shape
        ]
        if not before:
            continue
        a = frames[before[-1]]
        moved = (a != b) & (b != covered)
        from_open.update(np.unique(b[moved & (a != covered)]).tolist())
        from_covered.update(np.unique(b[moved & (a == covered)]).tolist())
    return from_open - from_covered


def _opened(frames: Sequence[np.ndarray], sequences: Sequence[int], covered: int) -> set[int]:
    """Kinds a covered cell turned into between two frames of one game (a click did it)."""
    out: set[int] = set()
    for i, a in enumerate(frames):
        for j in range(i + 1, len(frames)):
            b = frames[j]
            if sequences[j] == sequences[i] and b.shape == a.shape:
                out.update(np.unique(b[(a == covered) & (b != covered)]).tolist())
    return out


def _split_games(frames: Sequence[np.ndarray], sequences: Sequence[int], covered: int) -> list[int]:
    """`sequences` with a new number wherever a new game starts in the same place:
    most cells the frame before showed open are covered again (screenshots of
    several games given at once, in order). Without this, every number of the
    first game would "go back to covered" and be no number."""
    out = list(sequences)
    fresh = max(sequences, default=-1) + 1
    last: dict[int, int] = {}
    for j, b in enumerate(frames):
        i = last.get(sequences[j])
        last[sequences[j]] = j
        if i is None or frames[i].shape != b.shape:
            out[j] = out[i] if i is not None and frames[i].shape == b.shape else out[j]
            continue
        a = frames[i]
        was_open = a != covered
        back = int(((b == covered) & was_open).sum())
        if 2 * back > int(was_open.sum()) > 0:
            out[j] = fresh
            fresh += 1
        else:
            out[j] = out[i]
    return out


def _changed_later(
    frames: Sequence[np.ndarray], sequences: Sequence[int], covered: int
) -> set[int]:
    """Kinds a cell showed and that the last frame of the game shows as another
    uncovered look: never 0-8, since an opened cell never changes (a flag becomes
    a wrong flag; a dialog over the board goes away). Only the last frame counts:
    a number hidden for a while by a dialog shows again there."""
    out: set[int] = set()
    for i, a in enumerate(frames):
        later = _rest_of_game(frames, sequences, covered, i)
        if later:
            b = frames[later[-1]]
            moved = (a != b) & (a != covered) & (b != covered)
            out.update(np.unique(a[moved]).tolist())
    return out


def _rest_of_game(
    frames: Sequence[np.ndarray], sequences: Sequence[int], covered: int, i: int
) -> list[int]:
    """The later frames of frame i's game, up to a new game: most uncovered cells
    of frame i show covered again, or nearly all of them change (opened cells
    never change in a game; a dialog over the board hides only part of it)."""
    a = frames[i]
    was = a == covered
    opened = int((~was).sum())
    out = []
    for j in range(i + 1, len(frames)):
        b = frames[j]
        if sequences[j] != sequences[i] or b.shape != a.shape:
            continue
        back = int(((b == covered) & ~was).sum())
        if 2 * back > opened or 5 * int(((a != b) & ~was).sum()) > 4 * opened:
            break
        out.append(j)
    return out


def _continued(
    frames: Sequence[np.ndarray], sequences: Sequence[int], covered: int
) -> tuple[set[int], set[int]]:
    """(changed, progressed): frames some cell of which a later frame of the same
    game shows otherwise, and those where a covered cell is among them.

    A finished game's board never changes again, so a changed frame is no
    finished board (a dialog over the board may go away later); a progressed
    frame showed a game still in play (a covered cell was opened or flagged, or
    the mines came out at the loss), so a mine kind on it is a flag.
    """
    changed: set[int] = set()
    progressed: set[int] = set()
    for i, a in enumerate(frames):
        was = a == covered
        for j in _rest_of_game(frames, sequences, covered, i):
            moved = a != frames[j]
            if moved.any():
                changed.add(i)
            if (moved & was).any():
                progressed.add(i)
                break
    return changed, progressed


def _spots(frames: Sequence[np.ndarray], c: int) -> int:
    """On how many different cells (row, col) kind `c` is seen, over all frames."""
    where: set[tuple[int, int]] = set()
    for labels in frames:
        where.update((int(r), int(q)) for r, q in np.argwhere(labels == c))
        if len(where) > 1:
            break
    return len(where)


def _touches(frames: Sequence[np.ndarray], c: int, other: int) -> bool:
    """Whether a cell of kind `c` has a neighbour of kind `other` in any frame."""
    for labels in frames:
        mine = labels == c
        if not mine.any():
            continue
        near = np.pad(labels == other, 1)
        rows, cols = labels.shape
        around = np.zeros_like(mine)
        for dr, dc in itertools.product((0, 1, 2), repeat=2):
            if (dr, dc) != (1, 1):
                around |= near[dr : dr + rows, dc : dc + cols]
        if (mine & around).any():
            return True
    return False


def _reverted_to_covered(
    frames: Sequence[np.ndarray], sequences: Sequence[int], covered: int
) -> set[int]:
    """Kinds a cell showed and later lost again to the covered tile: never numbers.

    An opened cell never closes again, so what goes back to covered was put
    there by a right click (a flag, a question mark), whatever its neighbours say.
    """
    out: set[int] = set()
    for i, a in enumerate(frames):
        for j in range(i + 1, len(frames)):
            b = frames[j]
            if sequences[j] == sequences[i] and b.shape == a.shape:
                out.update(np.unique(a[(a != covered) & (b == covered)]).tolist())
    return out


def _was_mine_kind(
    frames: Sequence[np.ndarray], sequences: list[int], c: int, mines: set[int]
) -> bool:
    """Whether most cells of `c` showed a mine kind (a flag) earlier in the same game.

    Such a cluster is usually no number but a wrong flag; yet GNOME Mines opens
    wrongly flagged cells in a cascade, so a number can have a cell or two that
    were flags (a "1" once went unnamed so). Only a kind whose cells were flags
    for the most part is not named by the counts of a complete board here, only
    by the solver (which checks every board it is on).
    """
    flagged = total = 0
    for i, labels in enumerate(frames):
        cells = labels == c
        if not cells.any():
            continue
        was = np.zeros(int(cells.sum()), dtype=bool)
        for j in range(i):
            if sequences[j] == sequences[i] and frames[j].shape == labels.shape:
                was |= np.isin(frames[j][cells], sorted(mines))
        flagged += int(was.sum())
        total += len(was)
    return 2 * flagged > total


def _on_covered(faces: np.ndarray, covered: int) -> np.ndarray:
    """Per kind: a glyph drawn on the covered tile (its rim is the covered rim, its
    middle is not): a flag or a question mark. A hovered covered tile differs on
    the rim too, so it is none."""
    side = round((faces.shape[1] // 3) ** 0.5)
    rim = max(1, side // 5)
    tiles = faces.reshape(len(faces), side, side, 3)
    ring = np.ones((side, side), dtype=bool)
    ring[rim:-rim, rim:-rim] = False
    outer = tiles[:, ring]
    inner = tiles[:, ~ring]
    rim_d = ((outer - outer[covered]) ** 2).mean(axis=(1, 2))
    mid_d = ((inner - inner[covered]) ** 2).mean(axis=(1, 2))
    glyph = (rim_d < 100.0) & (mid_d > 4 * np.maximum(rim_d, 100.0))
    glyph[covered] = False
    return np.asarray(glyph)


def _name_covered_glyphs(
    frames: Sequence[np.ndarray],
    marks: set[int],
    sequences: Sequence[int],
    names: dict[int, str],
    opened: set[int],
) -> None:
    """Flag and question mark: covered tiles with a glyph (their rim is the covered
    rim: `marks`, from `_on_covered`).

    A flag the game logic did not need (no number beside it) is found here.
    Right clicks cycle flag -> ? -> covered, so a cluster whose cells were the
    other one earlier in the same game is the question mark; with a single
    candidate and no flag named yet it is the flag. Hover variants of the
    covered tile differ on the rim too and stay unknown.
    """
    glyphs = sorted(marks)
    flags = [c for c in glyphs if names.get(c) == "F"]
    # Seen only on lost boards: a wrong flag, not something a right click makes.
    hits = [c for c, n in names.items() if n == "!"]
    in_play = [
        c for c in glyphs if any((f == c).any() and not np.isin(f, hits).any() for f in frames)
    ]
    # A flag appears where a covered cell was (a right click there): a look a cell
    # never turned into is no flag, however flag-like (a covered tile cut a pixel off).
    free = [c for c in in_play if c not in names and c in opened]
    if not flags and len(free) == 1:
        names[free[0]] = "F"
        return
    if not flags and len(free) == 2:
        # Right clicks make the flag first: on a cell that shows both, the
        # kind that came first is the flag.
        a, b = free
        for i, fa in enumerate(frames):
            for j in range(i + 1, len(frames)):
                fb = frames[j]
                if sequences[j] != sequences[i] or fb.shape != fa.shape:
                    continue
                if ((fa == a) & (fb == b)).any():
                    names[a], names[b] = "F", "?"
                    return
                if ((fa == b) & (fb == a)).any():
                    names[b], names[a] = "F", "?"
                    return
        return
    if flags and len(free) == 1 and "?" not in names.values():
        names[free[0]] = "?"


def _board(labels: np.ndarray, names: dict[int, str], extra: dict[int, str]) -> Board:
    """The frame as board text; clusters without a name read as covered, and so do
    flags: a flag is a guess (`--live` flags cells at random), not a mine."""
    lookup = np.array([extra.get(c, names.get(c, ".")) for c in range(labels.max() + 1)])
    chars = lookup[labels]
    chars[(chars == "?") | (chars == "F")] = "."
    return Board(tuple("".join(row) for row in chars.tolist()))


def _consistent(board: Board) -> bool:
    from bot.solver import analyse

    try:
        analyse(board)
    except InconsistentBoardError:
        return False
    return True


def _name_by_solver(
    frames: Sequence[np.ndarray],
    names: dict[int, str],
    notes: list[str],
    never: set[int],
    flat: np.ndarray,
) -> None:
    """Numbers never seen on a complete board: the one value 1-8 the solver accepts.

    A flat kind (no glyph: `flat[c]`) may be a 0, so 0 is tried for it too.

    Only logic names here: a value counts as excluded only when the solver rejects
    it, never because another cluster already has that name (two looks of one digit
    exist), and kinds known not to be numbers (they changed after showing) are skipped.
    """
    used = {n for n in names.values() if n.isdigit()}
    k = max(int(f.max()) for f in frames) + 1
    for c in range(k):
        if c in names or c in never:
            continue
        where = [f for f in frames if (f == c).any()]
        fits = []
        # A flat kind is tried as 0 too: a 0 with covered cells around "fits"
        # only as a 1 among 1-8 (KMines' darker 0 was named 1 so).
        for v in "012345678" if flat[c] else "12345678":
            if all(_consistent(_board(f, names, {c: v})) for f in where):
                fits.append(v)
        if fits == ["0"]:
            notes.append(f"cluster {c}: only 0 fits; left unknown")
        elif len(fits) == 1 and fits[0] in used:
            notes.append(f"cluster {c}: only {fits[0]} fits, already another kind; left unknown")
        elif len(fits) == 1:
            names[c] = fits[0]
            used.add(fits[0])
            notes.append(f"cluster {c} named {fits[0]} by the solver (the only value that fits)")
        elif fits:
            notes.append(f"cluster {c}: values {', '.join(fits)} all fit; left unknown")
