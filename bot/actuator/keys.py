"""Key names and combinations ("n", "F2", "ctrl+n"), as the actuators press them.

A combination is modifiers and one key joined by "+", in pyautogui's names
(ctrl, alt, shift, win/super). It is parsed once, before anything is pressed,
so `--restart-key ctrl+n` is refused (or taken) before the first click of a
run rather than when the first game ends.
"""

from __future__ import annotations

from bot.errors import ActuatorError

#: Modifier names and the X keysym each one presses.
MODIFIERS = {
    "ctrl": "Control_L",
    "control": "Control_L",
    "alt": "Alt_L",
    "shift": "Shift_L",
    "super": "Super_L",
    "win": "Super_L",
}


def parse_keys(text: str) -> tuple[str, ...]:
    """("ctrl", "n") for "ctrl+n": modifiers first, then one key; ActuatorError
    naming what is wrong otherwise."""
    parts = text.split("+") if text not in ("+",) else ["+"]
    if not text.strip() or any(not p for p in parts):
        raise ActuatorError(f"key {text!r}: give a key name such as n, F2 or ctrl+n")
    if any(ch.isspace() for ch in text):
        raise ActuatorError(f"key {text!r}: no spaces in a key name (n, F2, ctrl+n)")
    *mods, key = parts
    for mod in mods:
        if mod.lower() not in MODIFIERS:
            known = ", ".join(sorted(MODIFIERS))
            raise ActuatorError(f"key {text!r}: {mod!r} is not a modifier ({known})")
    if key.lower() in MODIFIERS:
        raise ActuatorError(f"key {text!r}: ends with a modifier, not a key")
    return (*(m.lower() for m in mods), key)
