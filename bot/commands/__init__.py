"""One module per `msbot` sub-command; see `bot.cli`. Helpers they share are here."""

from __future__ import annotations

from pathlib import Path

from bot.errors import MsbotError


def output_folder(folder: str | Path, option: str) -> Path:
    """The folder an option writes into, created now so that a bad path is refused
    before anything is read, played or advised (an existing file is not a folder)."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise MsbotError(f"{option} {folder}: not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MsbotError(f"{option} {folder}: cannot create the folder: {exc}") from None
    return path
