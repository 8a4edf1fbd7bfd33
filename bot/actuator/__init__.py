"""Mouse output: `Actuator` (safe cells-to-clicks layer) over a `Mouse` backend.

`PyAutoGuiMouse` lives in `bot.actuator.live` and is imported only when really
clicking (pyautogui needs a display at import time); `DryRunMouse` never
touches the pointer.
"""

from bot.actuator._base import (
    CHORD_STYLES,
    Action,
    ActionKind,
    Actuator,
    Button,
    ChordStyle,
    Mouse,
)
from bot.actuator.dryrun import DryRunMouse

__all__ = [
    "CHORD_STYLES",
    "Action",
    "ActionKind",
    "Actuator",
    "Button",
    "ChordStyle",
    "DryRunMouse",
    "Mouse",
]
