"""The skin's `play` section, as the play loop needs it.

Clone quirks are skin data (`templates/<skin>/` manifest, loaded by
`vision.skin`), not special cases in the loop: this module only turns that
section into one typed value with safe defaults, and says which part of the
screen the loop must keep grabbing (the board plus the skin's counter and
controls).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.actuator import CHORD_STYLES, ChordStyle
from bot.errors import PlayError
from bot.solver import Rule

#: Pixels of margin kept around the board and controls in the grabbed region.
MARGIN = 8


@dataclass(frozen=True)
class PlayRules:
    """How to play one clone."""

    #: The clone's first-click rule (see `bot.solver.Rule`).
    rule: Rule = "safe"
    #: How it chords (see `bot.actuator.ChordStyle`).
    chord: ChordStyle = "none"
    #: How to start the next game, step by step: control names to click
    #: ("restart") and keys to press ("key:<name>"), in order.
    restart: tuple[str, ...] = ("restart",)
    #: The clone declares a win only once every mine is flagged (xdemineur).
    win_requires_flags: bool = False
    #: Right click cycles flag -> ? -> covered.
    question_marks: bool = False
    #: What to do when the game shows "paused": a control to click, or "stop".
    pause: str = "stop"
    #: Seconds to leave between two clicks (clones that drop clicks sent too fast).
    click_gap: float = 0.0
    #: Whether the restart can be done at all: every control it clicks is one the
    #: skin can find on screen, or has a key to fall back on. A learned skin of a
    #: clone that restarts by a key it was not told has no way (see `restart_gap`).
    can_restart: bool = True
    #: Where the pointer rests after each click, from the board's top-left (a
    #: clone that draws the cell under the pointer otherwise); None: anywhere.
    pointer_rest: tuple[float, float] | None = None
    #: How a flag is placed: "right" (click) or modifiers and a button ("ctrl+left").
    flag_with: str = "right"


def _field(section: Any, name: str, default: Any) -> Any:
    if section is None:
        return default
    if isinstance(section, dict):
        return section.get(name, default)
    return getattr(section, name, default)


def play_rules(located: Any) -> PlayRules:
    """The play rules of the skin a located board was drawn with."""
    skin = getattr(located, "skin", None)
    section = _field(skin, "play", None)
    base = PlayRules()
    chord = _field(section, "chord", base.chord) or "none"
    chord = {"left+right": "both"}.get(chord, chord)
    if chord not in CHORD_STYLES:
        raise PlayError(f"skin {getattr(skin, 'name', skin)!r}: unknown chord style {chord!r}")
    restart = restart_steps(_field(section, "restart", None), base.restart)
    pause = _field(section, "pause", base.pause)
    if isinstance(pause, Mapping):  # {"resume": "<control to click>"}
        pause = pause.get("click", pause.get("resume", "stop"))
    return PlayRules(
        rule=_field(section, "rule", base.rule),
        chord=chord,
        restart=restart,
        win_requires_flags=bool(_field(section, "win_requires_flags", base.win_requires_flags)),
        question_marks=bool(_field(section, "question_marks", base.question_marks)),
        pause=str(pause or "stop"),
        click_gap=float(_field(section, "click_gap_ms", 0) or 0) / 1000.0,
        can_restart=not restart_gap(skin, restart),
        pointer_rest=_rest(_field(section, "pointer_rest", None)),
        flag_with=str(_field(section, "flag_button", "right") or "right"),
    )


def _rest(raw: Any) -> tuple[float, float] | None:
    if raw is None:
        return None
    try:
        dx, dy = (float(v) for v in raw)
    except (TypeError, ValueError):
        raise PlayError(f"skin play.pointer_rest must be [dx, dy], got {raw!r}") from None
    return (dx, dy)


def restart_gap(skin: Any, restart: tuple[str, ...]) -> list[str]:
    """The controls `restart` clicks that `skin` has no way to find on screen
    (no face or button of that name) and no key to fall back on.

    Without this the play loop would only find out by looking for the control
    on screen, and then blame the screen ("not on screen", "can no longer be
    read") for what the skin lacks."""
    if skin is None:
        return []  # no skin data to judge by (unit tests' stand-ins)
    buttons = _field(skin, "buttons", None) or {}
    has_face = _field(skin, "faces", None) is not None
    missing = []
    for step in restart:
        name, _, fallback = step.partition("|")
        if name.startswith("key:") or fallback.startswith("key:"):
            continue
        if name in buttons or (name == "restart" and has_face):
            continue
        missing.append(name)
    return missing


def restart_steps(raw: Any, default: tuple[str, ...]) -> tuple[str, ...]:
    """The skin's restart as steps: {"click": "restart"}, {"key": "n"}, a list of
    such objects done in order, or a mapping with both keys (done in file order).

    {"click": "restart", "or_key": "F2"} clicks the control, or presses the key
    when the control is not on screen (a window enlarged around its board
    leaves the face where the skin's region, drawn from the board, misses
    it): the step "restart|key:F2"."""
    if not raw:
        return default
    items = raw if isinstance(raw, list | tuple) else [raw]
    steps: list[str] = []
    for item in items:
        if isinstance(item, str):
            steps.append(item)
            continue
        if not isinstance(item, Mapping):
            raise PlayError(f"skin play.restart: cannot use {item!r}")
        for kind, value in item.items():
            if kind == "or_key" and steps and not steps[-1].startswith("key:"):
                steps[-1] += f"|key:{value}"
            elif kind == "key":
                steps.append(f"key:{value}")
            elif kind in ("click", "control"):
                steps.append(str(value))
            else:
                raise PlayError(
                    f"skin play.restart: unknown step {kind!r} "
                    "(use click, key, or or_key after a click)"
                )
    return tuple(steps) or default


def located_geometry(located: Any, margin: int = MARGIN) -> tuple[int, int, int, int]:
    """(left, top, width, height) of what must stay in view: the board and every
    region of the skin (counter, face, buttons, status texts, paused overlay),
    `margin` pixels more all round."""
    from vision.glyphs import region_box  # the one reading of a skin region's corners

    g = located.geometry
    xs = [g.left, g.left + g.width]
    ys = [g.top, g.top + g.height]
    skin = getattr(located, "skin", None)
    glyphs = [getattr(skin, name, None) for name in ("counter", "faces", "status_texts", "paused")]
    glyphs += list((getattr(skin, "buttons", None) or {}).values())
    for item in glyphs:
        region = getattr(item, "region", None)
        if region is None:
            continue
        x0, y0, x1, y1 = region_box(region, g)
        xs += [x0, x1]
        ys += [y0, y1]
    left = max(int(min(xs)) - margin, 0)
    top = max(int(min(ys)) - margin, 0)
    return left, top, int(max(xs)) + margin - left, int(max(ys)) + margin - top


def learned_total(located: Any) -> int | None:
    """The mine total a learned counter was learned showing (None: a built-in
    counter, no counter, or nothing located)."""
    counter = located.skin.counter if located is not None else None
    total = counter.extra.get("total") if counter is not None else None
    return total if isinstance(total, int) and total > 0 else None
