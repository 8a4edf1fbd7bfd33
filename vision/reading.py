"""What vision makes of one screenshot: the value handed to the solver and play loop."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.board import Board
from vision.geometry import Geometry

#: "over": the game is known to have ended (it takes no more clicks) but the
#: screen hides how (a clone's "You won!" or "Game over" box over the cell
#: msbot guessed last): a learner's reading, never the reader's.
Status = Literal["playing", "won", "lost", "paused", "over"]
#: The statuses of a game that has ended.
ENDED: tuple[Status, ...] = ("won", "lost", "over")


@dataclass(frozen=True)
class UnknownCell:
    """A cell the classifier could not recognise with confidence.

    `score` is the best template's distance (lower is better) and `margin` the
    gap to the second best; both are reported so a person can see why.
    """

    row: int
    col: int
    score: float
    margin: float
    best: str
    #: The tiles named it `best`, but the game's rules say that picture cannot
    #: be there (`vision.rules`): a misread held back, evidence against the skin.
    ruled: bool = False


@dataclass(frozen=True)
class Reading:
    """One screenshot, read.

    When `unknown` is not empty the board is NOT trustworthy: those cells are
    shown as covered in `board` only so the rest can be displayed. The play loop
    must never act on such a reading (`certain` says whether it may).
    """

    skin: str
    geometry: Geometry
    board: Board
    mines_left: int | None
    status: Status
    unknown: tuple[UnknownCell, ...] = field(default=())
    #: Screen points of the skin's controls, e.g. {"restart": (x, y)} for the face.
    controls: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: Cells whose picture is not read but that the play loop may go on beside
    #: (a learner holds them: pictures msbot's clicks did not cause). `board`
    #: shows them covered, so that the solver counts them as cells that may
    #: hold a mine (never fewer placements than the truth's), and none is
    #: ever clicked; a recording lists them unsure (`to_json`), never as read.
    held: frozenset[tuple[int, int]] = frozenset()

    @property
    def certain(self) -> bool:
        return not self.unknown

    @property
    def unread(self) -> frozenset[tuple[int, int]]:
        """The cells whose picture this reading does not say: unsure or held."""
        return frozenset((u.row, u.col) for u in self.unknown) | self.held

    def with_unsure(self, cells: Iterable[tuple[int, int]], why: str) -> Reading:
        """This reading with `cells` unsure too, each once (`why`: what made them
        so), those already unread left as they are; itself when none is new."""
        known = self.unread
        new = [c for c in dict.fromkeys((int(r), int(k)) for r, k in cells) if c not in known]
        if not new:
            return self
        extra = tuple(UnknownCell(r, c, 0.0, 0.0, why) for r, c in new)
        return replace(self, unknown=self.unknown + extra)

    def edges_read(self) -> bool:
        """Whether each of the board's four outer lines has a cell read (a line
        of pictures all unread may be no board at all: a smaller board of the
        same clone at the same place leaves its last rows as background)."""
        unread = self.unread
        rows, cols = self.geometry.rows, self.geometry.cols
        lines = [
            [(0, c) for c in range(cols)],
            [(rows - 1, c) for c in range(cols)],
            [(r, 0) for r in range(rows)],
            [(r, cols - 1) for r in range(rows)],
        ]
        return all(any(cell not in unread for cell in line) for line in lines)

    def to_json(self) -> dict[str, Any]:
        """The reading as the JSON object `msbot replay --json` prints (without actions)."""
        return {
            "skin": self.skin,
            "geometry": self.geometry.to_json(),
            "board": list(self.board.rows),
            "mines_left": self.mines_left,
            "status": self.status,
            "unknown": [
                {"row": u.row, "col": u.col, "score": u.score, "margin": u.margin, "best": u.best}
                | ({"ruled": True} if u.ruled else {})
                for u in self.unknown
            ]
            + [
                {"row": r, "col": c, "score": 0.0, "margin": 0.0, "best": "held"}
                for r, c in sorted(self.held)
            ],
        }
