"""A fake mouse for tests of what the desktop says (which window lies where):
it sends nothing, and a test that clicks or types through it fails."""

from __future__ import annotations

from bot.actuator._base import Button, Mouse


class NoInput(Mouse):
    """A `Mouse` that refuses every click and key; moving the pointer does nothing.
    Subclasses answer the desktop's questions (`window_at`, `client_at`, ...)."""

    def click(self, x: int, y: int, button: Button) -> None:
        raise AssertionError("no click in this test")

    def click_both(self, x: int, y: int) -> None:
        raise AssertionError("no click in this test")

    def key(self, name: str) -> None:
        raise AssertionError("no key in this test")

    def move(self, x: int, y: int) -> None:
        pass
