"""A mouse that never moves: `--dry-run` and unit tests.

It records what it was asked to do and, if given a `say` function, reports
each intended click, so a person can watch the advice while playing.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.actuator._base import Button, Mouse


class DryRunMouse(Mouse):
    """Records intended presses in `pressed` instead of touching the pointer."""

    def __init__(self, say: Callable[[str], None] | None = None) -> None:
        self.pressed: list[tuple[str, int | None, int | None]] = []
        self._say = say

    def click(self, x: int, y: int, button: Button) -> None:
        self._note(button, x, y)

    def click_both(self, x: int, y: int) -> None:
        self._note("left+right", x, y)

    def click_holding(self, x: int, y: int, button: Button, keys: tuple[str, ...]) -> None:
        self._note("+".join([*keys, button]), x, y)

    def key(self, name: str) -> None:
        self.pressed.append((f"key {name}", None, None))
        if self._say is not None:
            self._say(f"would press key {name}")

    def move(self, x: int, y: int) -> None:
        self._note("move", x, y)

    def _note(self, button: str, x: int, y: int) -> None:
        self.pressed.append((button, x, y))
        if self._say is not None:
            verb = "move the pointer" if button == "move" else f"click {button}"
            self._say(f"would {verb} at ({x}, {y})")
