"""A skin being learned live: its looks, their names and proofs, written as a skin folder.

The folder is the built-in skins' format (`vision.skin`), so the reader and
the play loop use a learned skin like any other. What the learner knows is
written, and only that: a look with a name becomes a tile of its character,
a look proven to be an open cell of a value not known yet becomes a tile of
'-' (`bot.board`), any other look is left out, so a cell showing it reads
unsure. Each name's evidence goes into the manifest's "learned" section,
where a person can audit why the skin reads what it reads.

A cell is read as a kind only within `same` of one of its tiles (the bound
the looks were told apart by, `vision.learn.looks`): a picture no learned
look holds is unsure, never its nearest kind.

Writing is atomic: the new folder is written beside the old one and swapped
in, so a crash or a full disk leaves the last good skin in place.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bot.errors import VisionError
from vision.border import Border
from vision.cuts import Cuts
from vision.geometry import Geometry
from vision.image_io import save_png
from vision.learn.flag_counter import FlagCounter
from vision.learn.looks import Look, LookBook
from vision.learn.proof import Name
from vision.skin import FaceRim, Region, Skin

FILE_NAMES = {
    ".": "covered",
    "F": "flag",
    "?": "question",
    "*": "mine",
    "!": "exploded",
    "X": "wrong_flag",
    "-": "open",
}
#: A cell must be this much nearer its kind than any other (a share of `same`):
#: little, since looks of two kinds are far more than `same` apart, while two
#: looks of one kind (KMines' translucent tiles over a gradient: one digit is
#: many looks, some named, some not yet) can be close.
MARGIN_SHARE = 0.1
#: Milliseconds between two clicks on a learned clone.
CLICK_GAP_MS = 12
#: What the manifest calls a learned face region's threshold (mean squared grey difference).
FACE_THRESHOLD = 60.0


@dataclass(frozen=True)
class Control:
    """A restart button learned by clicking it: where it lies relative to the board
    and what it looked like (`faces` in the manifest, found whatever it shows)."""

    region: Region
    #: Pictures per status: "playing" (as seen during games), and "won" or
    #: "lost" only when it looked otherwise when a game ended so (a face).
    images: dict[str, list[np.ndarray]]
    evidence: str
    #: The button around the part that changed, from the fresh board: a face
    #: learned from its eyes alone (xdemineur) is found by this rim under an
    #: expression never seen (`vision.face_rim`).
    rim: FaceRim | None = None


@dataclass
class Draft:
    """Everything learned so far about one clone."""

    name: str
    #: The board's grid where it was learned (its pitch is the skin's).
    geometry: Geometry
    book: LookBook
    names: dict[int, Name] = field(default_factory=dict)
    #: Looks proven to be open cells whose value is not known yet, and why.
    opened: dict[int, str] = field(default_factory=dict)
    counter: FlagCounter | None = None
    counter_said: str = "not learned"
    control: Control | None = None
    #: A button of a screen the restart leads to, where a difficulty is chosen
    #: (the skin's button "menu"), learned by clicking it.
    menu: Control | None = None
    #: `play.restart` of the manifest ({} when none is known) and what says so.
    restart: dict[str, Any] | list[dict[str, Any]] = field(default_factory=dict)
    restart_said: str = "not learned yet"
    question_marks: bool = False
    #: Where the pointer rests between clicks, relative to the board's top-left
    #: (the clone draws the cell under the pointer otherwise); None: anywhere.
    pointer_rest: tuple[float, float] | None = None
    #: The clone's first click: "safe" unless learned otherwise.
    rule: str = "safe"
    #: How a flag is placed: "right" (click), or modifiers and a button ("ctrl+left").
    flag_with: str = "right"
    #: What the clone draws around its board, from a fresh board (`vision.border`).
    border: Border | None = None
    #: Parts beside the board drawn like covered cells that take no flag (a
    #: toolbar's buttons), (x0, y0, x1, y1) from the board's top-left: where a
    #: restart is looked for when nothing else starts a new game.
    toolbar: list[tuple[float, float, float, float]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def char_of(self, look: int) -> str | None:
        """The board character a look is read as (None: not written, reads unsure)."""
        name = self.names.get(look)
        if name is not None:
            return name.char
        return "-" if look in self.opened else None

    def kinds(self) -> list[str]:
        """The characters the skin reads, sorted."""
        return sorted({ch for look in self.book.looks if (ch := self.char_of(look.key))})

    def manifest(
        self, files: dict[str, list[str]], looks_of: dict[str, list[int]]
    ) -> dict[str, Any]:
        geo = self.geometry
        same = self.book.same
        chars = set(files)
        play: dict[str, Any] = {
            "rule": self.rule,
            # Some clones drop clicks that come within a few ms (minegauler's
            # counter then falls behind its flags): a little time between clicks.
            "click_gap_ms": CLICK_GAP_MS,
            "chord": None,
            "flag_button": self.flag_with,
            "question_marks": self.question_marks,
            "restart": self.restart,
        }
        if self.pointer_rest is not None:
            play["pointer_rest"] = [round(v, 1) for v in self.pointer_rest]
        names = []
        for ch, looks in sorted(looks_of.items()):
            for look, path in zip(looks, files[ch], strict=True):
                name = self.names.get(look)
                why = name.evidence if name is not None else self.opened.get(look, "")
                names.append({"char": ch, "tile": path, "look": look, "evidence": why})
        raw: dict[str, Any] = {
            "name": self.name,
            "about": "learned live by msbot from its own clicks (see 'learned')",
            "pitch": [geo.cell_w, geo.cell_h],
            "pitch_range": [min(geo.cell_w, geo.cell_h) - 1, max(geo.cell_w, geo.cell_h) + 1],
            "tiles": files,
            "patch": self.book.patch,
            "inset": self.book.inset,
            # The looks were cut by `find_cuts`: the reader cuts cells alike.
            "cut_on_edges": True,
            "max_distance": round(same, 1),
            "min_margin": round(MARGIN_SHARE * same, 1),
            "grow_distance": round(same / 3, 1),
            "board_status": {"lost_if_any": "!" if "!" in chars else "", "won_if_no_covered": True},
            "play": play,
            "learned": {
                "names": names,
                "counter": self.counter_said,
                "restart": self.restart_said,
                "notes": self.notes,
                "toolbar": [[round(v, 1) for v in box] for box in self.toolbar],
            },
        }
        if self.counter is not None:
            raw["learned"]["counter_evidence"] = self.counter.evidence
        return raw


def _write_png(out: Path, rel: str, picture: np.ndarray) -> None:
    """One picture of the skin folder, or VisionError naming the file."""
    try:
        save_png(out / rel, picture)
    except OSError as exc:
        raise VisionError(f"cannot write {out / rel}: {exc}") from None


def _write_folder(draft: Draft, out: Path) -> None:
    (out / "tiles").mkdir(parents=True)
    files: dict[str, list[str]] = {}
    looks_of: dict[str, list[int]] = {}
    for look in draft.book.looks:
        ch = draft.char_of(look.key)
        if ch is None:
            continue
        for i, tile in enumerate([look.tile, *look.extra]):
            rel = f"tiles/{FILE_NAMES.get(ch, ch)}_{look.key}" + (f"_{i}" if i else "") + ".png"
            _write_png(out, rel, tile)
            files.setdefault(ch, []).append(rel)
            looks_of.setdefault(ch, []).append(look.key)
    if "." not in files:
        raise VisionError("no covered tile learned: nothing to write")
    raw = draft.manifest(files, looks_of)
    if draft.counter is not None:
        (out / "counter").mkdir()
        images: dict[str, list[str]] = {}
        for ch, crops in sorted(draft.counter.digits.items()):
            for i, crop in enumerate(crops):
                base = "slash" if ch == "/" else ch
                rel = f"counter/{base}" + (f"_{i + 1}" if i else "") + ".png"
                _write_png(out, rel, crop)
                images.setdefault(ch, []).append(rel)
        raw["counter"] = {
            "region": [list(c) for c in draft.counter.region],
            "format": draft.counter.format,
            "threshold": round(draft.counter.threshold, 1),
            "spaced": draft.counter.spaced,
            "images": images,
        }
        if draft.counter.total > 0:
            # The total the digits were learned showing (`bot.play.loop`: a game
            # whose counter reads another total is played without it).
            raw["counter"]["total"] = draft.counter.total
    if draft.border is not None:
        (out / "border").mkdir()

        def write_bands(bands: Mapping[str, np.ndarray], suffix: str) -> dict[str, str]:
            files = {side: f"border/{side}{suffix}.png" for side in bands}
            for side, picture in bands.items():
                _write_png(out, files[side], np.clip(picture, 0, 255).astype(np.uint8))
            return files

        raw["border"] = {
            "thickness": draft.border.thickness,
            "limit": draft.border.limit,
            "bands": write_bands(draft.border.bands, ""),
            "more": [write_bands(m, f"_{i}") for i, m in enumerate(draft.border.more, start=1)],
        }
    if draft.control is not None:
        (out / "face").mkdir()
        faces: dict[str, list[str]] = {}
        for status, pictures in sorted(draft.control.images.items()):
            for i, img in enumerate(pictures):
                rel = f"face/{status}" + (f"_{i + 1}" if i else "") + ".png"
                _write_png(out, rel, img)
                faces.setdefault(status, []).append(rel)
        raw["faces"] = {
            "region": [list(c) for c in draft.control.region],
            "threshold": FACE_THRESHOLD,
            "images": faces,
            "any_expression": True,
        }
        if draft.control.rim is not None:
            _write_png(out, "face/rim.png", draft.control.rim.image)
            raw["faces"]["rim"] = {"image": "face/rim.png", "inner": list(draft.control.rim.inner)}
        raw["learned"]["restart_evidence"] = draft.control.evidence
    if draft.menu is not None:
        (out / "menu").mkdir()
        pictures = [pic for pics in draft.menu.images.values() for pic in pics]
        rels = []
        for i, img in enumerate(pictures):
            rel = f"menu/button_{i + 1}.png"
            _write_png(out, rel, img)
            rels.append(rel)
        raw["buttons"] = {
            "menu": {
                "region": [list(c) for c in draft.menu.region],
                "threshold": FACE_THRESHOLD,
                "images": rels,
            }
        }
        raw["learned"]["menu_evidence"] = draft.menu.evidence
    (out / "skin.json").write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")


def write_draft(draft: Draft, folder: Path) -> Path:
    """Write `draft` as the skin folder `folder`, replacing what is there at once
    (written beside it, then swapped in); the path of its skin.json."""
    parent = folder.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=parent))
    except OSError as exc:
        raise VisionError(f"cannot write the skin into {parent}: {exc}") from exc
    try:
        shutil.rmtree(tmp)
        _write_folder(draft, tmp)
        old = parent / f".{folder.name}.old"
        if old.exists():
            shutil.rmtree(old)
        if folder.exists():
            os.replace(folder, old)
        os.replace(tmp, folder)
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        raise VisionError(f"cannot write the skin {folder}: {exc}") from exc
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return folder / "skin.json"


def draft_of_skin(skin: Skin) -> Draft:
    """The draft a learned skin was written from, to go on learning with it: one
    look per tile, with the name and evidence the manifest gives it."""
    raw = skin.manifest
    learned = raw.get("learned")
    if not isinstance(learned, dict) or "names" not in learned:
        raise VisionError(f"skin {skin.name!r} was not learned live: nothing to go on with")
    evidence = {str(e.get("tile")): str(e.get("evidence", "")) for e in learned["names"]}
    book = LookBook(float(raw.get("max_distance", 40.0)), skin.patch, inset=skin.inset)
    names: dict[int, Name] = {}
    opened: dict[int, str] = {}
    for ch, files in raw["tiles"].items():
        for rel, tile in zip(files, skin.tiles[ch], strict=True):
            h, w = tile.shape[:2]
            patch = book.patches(tile, Cuts(np.array([0, w]), np.array([0, h])))[0]
            key = len(book.looks)
            book.looks.append(Look(key, tile, patch))
            why = evidence.get(str(rel), "")
            if ch == "-":
                opened[key] = why
            else:
                names[key] = Name(ch, why)
    play = raw.get("play", {})
    counter = None
    if skin.counter is not None:
        c = skin.counter
        counter = FlagCounter(
            c.region,
            {k: list(v) for k, v in c.images.items()},
            c.threshold,
            str(c.extra.get("format", "left")),
            int(c.extra.get("total", 0)),
            str(learned.get("counter_evidence", "")),
            bool(c.extra.get("spaced", False)),
        )
    control = None
    if skin.faces is not None:
        rim = skin.faces.extra.get("rim")
        control = Control(
            skin.faces.region,
            {k: list(v) for k, v in skin.faces.images.items()},
            str(learned.get("restart_evidence", "")),
            rim if isinstance(rim, FaceRim) else None,
        )
    menu = None
    if "menu" in skin.buttons:
        button = skin.buttons["menu"]
        menu = Control(
            button.region,
            {"playing": [pic for pics in button.images.values() for pic in pics]},
            str(learned.get("menu_evidence", "")),
        )
    rest = play.get("pointer_rest")
    return Draft(
        name=skin.name,
        geometry=Geometry(0, 0, skin.pitch[0], skin.pitch[1], 1, 1),
        book=book,
        names=names,
        opened=opened,
        counter=counter,
        counter_said=str(learned.get("counter", "")),
        control=control,
        menu=menu,
        restart=play.get("restart") or {},
        restart_said=str(learned.get("restart", "")),
        question_marks=bool(play.get("question_marks", False)),
        pointer_rest=None if rest is None else (float(rest[0]), float(rest[1])),
        rule=str(play.get("rule", "safe")),
        flag_with=str(play.get("flag_button", "right")),
        # A learned skin has learned bands; a hand-written border is not redrawn.
        border=skin.border if isinstance(skin.border, Border) else None,
        notes=list(learned.get("notes", [])),
        toolbar=[
            (float(a), float(b), float(c), float(d)) for a, b, c, d in learned.get("toolbar", [])
        ],
    )
