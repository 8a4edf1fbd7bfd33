"""The suite's zoo clones: a few seeds whose draws are fixed so that between
them they show every value of every dimension the zoo draws.

`suite_specs()` builds them (deterministic); `tests/test_zoo_play.py` plays each
with `msbot play --learn` and judges it. Clones of toolkit buttons sized by
their text (`natural_buttons`: columns widen as numbers show) are left out:
msbot does not read a board whose grid changes during a game (see the README).
"""

from __future__ import annotations

from typing import Any

from zoo.spec import ZooSpec, draw

#: Each dimension's values, spread over the suite's clones in turn.
DIMENSIONS: dict[str, tuple[Any, ...]] = {
    "covered": ("flat", "bevel", "gradient", "dither", "rounded", "noise"),
    "counter": ("led", "mines", "slash", "left", "flags", "none"),
    "restart": ("face", "button", "toolbar", "dialog", "key", "face"),
    "theme": ("light", "dark", "coloured", "mono"),
    "counter_pos": ("top", "bottom", "left", "right"),
    "end_notice": ("status", "overlay", "none", "dialog"),
    "animation": ("none", "fade", "cascade", "flash"),
    "digits": ("font", "pixel", "tktext"),
    "first_click": ("safe", "zero", "none"),
    "hover": ("none", "light", "outline"),
    "pressed": ("none", "sunken", "open"),
    "open_style": ("flat", "sunken", "outline"),
    "frame": ("none", "line", "sunken", "raised", "ridge"),
    "flag_glyph": ("pennant", "letter", "dot", "cross", "unicode"),
    "mine_glyph": ("ball", "star", "letter", "square"),
    "hit_style": ("red_bg", "red_glyph", "cross"),
    "decoy": ("none", "text", "sheet", "chess", "photos"),
    "gap": ("0", "1", "2", "3", "4"),
    "qmarks": (False, True),
    "flags_after_first": (False, True),
    "menu": (False, True),
    "win_needs_flags": (False, True),
    "wrong_flags": (True, False),
    "flags_on_win": (True, False),
    "end_shows_all": (True, False),
    "show_zero": (False, True),
    "buttons": (False, False, False, False, True, False),
    "natural_buttons": (False,),
}
#: How many clones the suite plays, and which of them are web pages.
CLONES = 6
WEB = (2, 5)
#: Boards no larger than this many cells (the suite's time).
MOST_CELLS = 110


def suite_specs() -> list[ZooSpec]:
    """The suite's clones: clone i takes value i (cycling) of each dimension, on
    the first seed from 1000 i whose board is small."""
    specs = []
    for i in range(CLONES):
        force = {name: values[i % len(values)] for name, values in DIMENSIONS.items()}
        frontend = "web" if i in WEB else "tk"
        if frontend == "web":
            force["buttons"] = False
        seed = 1000 * i
        while True:
            spec = draw(seed, frontend, force)
            if spec.rows * spec.cols <= MOST_CELLS:
                break
            seed += 1
        specs.append(spec)
    return specs


if __name__ == "__main__":
    for spec in suite_specs():
        print(spec.describe())
