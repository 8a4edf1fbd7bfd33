"""Another program's window beside a zoo clone: notes, a spreadsheet, a chess
board or a grid of photos. Grids are what a board finder could take for a
board; nothing here may ever be clicked by msbot (the judge counts clicks on it).

In a Tk clone the decoy is a second top-level window of the same process
(`place_decoy`); beside a web clone it is its own process:

    python -m zoo.decoy --kind sheet --seed S --avoid X,Y,W,H --truth FILE
"""

from __future__ import annotations

import argparse
import random
import tkinter as tk

from zoo.spec import SCREEN
from zoo.truth import TruthLog

#: Rows, columns and cell size of each grid decoy.
GRIDS = {"sheet": (8, 6, (64, 22)), "chess": (8, 8, (30, 30)), "photos": (3, 4, (70, 52))}


def fill_decoy(window: tk.Misc, kind: str, seed: int) -> None:
    """Draw decoy `kind` into `window`."""
    if kind == "text":
        text = "Meeting notes\n- agenda\n- budget 2027\n- 9 8 7 6 5 4"
        tk.Label(window, text=text, justify="left", bg="#ffffff", font=("DejaVu Sans", -14)).pack(
            padx=10, pady=10
        )
        return
    n, m, (w, h) = GRIDS[kind]
    cv = tk.Canvas(window, width=m * w + 2, height=n * h + 2, bg="#ffffff", highlightthickness=0)
    cv.pack(padx=6, pady=6)
    rng = random.Random(seed)
    for i in range(n):
        for j in range(m):
            x0, y0 = 1 + j * w, 1 + i * h
            if kind == "sheet":
                cv.create_rectangle(x0, y0, x0 + w, y0 + h, outline="#c0c0c0", fill="#ffffff")
                if rng.random() < 0.5:
                    cv.create_text(
                        x0 + w - 4,
                        y0 + h / 2,
                        text=str(rng.randint(1, 999)),
                        anchor="e",
                        font=("DejaVu Sans", -12),
                    )
            elif kind == "chess":
                colour = "#eeeed2" if (i + j) % 2 else "#769656"
                cv.create_rectangle(x0, y0, x0 + w, y0 + h, width=0, fill=colour)
            else:
                colour = "#" + "".join(f"{rng.randint(40, 220):02x}" for _ in range(3))
                cv.create_rectangle(x0 + 3, y0 + 3, x0 + w - 3, y0 + h - 3, width=0, fill=colour)


def place_decoy(window: tk.Tk | tk.Toplevel, avoid: tuple[int, int, int, int]) -> bool:
    """Put `window` beside the rectangle `avoid` (x, y, w, h), on the screen and
    never over it; False when there is no room."""
    window.update_idletasks()
    dw, dh = window.winfo_reqwidth(), window.winfo_reqheight()
    mx, my, mw, mh = avoid
    spots = [(mx + mw + 40, my), (mx, my + mh + 40), (mx - dw - 40, my), (mx, my - dh - 40)]
    for x, y in spots:
        on_screen = x >= 0 and y >= 0 and x + dw <= SCREEN[0] and y + dh <= SCREEN[1]
        apart = x >= mx + mw or y >= my + mh or x + dw <= mx or y + dh <= my
        if on_screen and apart:
            window.geometry(f"+{x}+{y}")
            window.update()
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="a decoy window beside a zoo clone")
    parser.add_argument("--kind", required=True, choices=("text", *GRIDS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--avoid", required=True, help="X,Y,W,H of the clone's window")
    parser.add_argument("--truth", help="append the decoy's window and clicks here")
    args = parser.parse_args(argv)
    avoid = tuple(int(v) for v in args.avoid.split(","))
    truth = TruthLog(args.truth)
    root = tk.Tk(className="decoy")
    root.title("Decoy")
    root.configure(bg="#ffffff")
    fill_decoy(root, args.kind, args.seed)
    if not place_decoy(root, avoid):  # type: ignore[arg-type]
        truth.write("window", name="decoy", rect=None)  # no room: no decoy
        return 0
    rect = [root.winfo_rootx(), root.winfo_rooty(), root.winfo_width(), root.winfo_height()]
    truth.write("window", name="decoy", rect=rect)
    root.bind_all(
        "<ButtonPress>",
        lambda e: truth.write("click", x=e.x_root, y=e.y_root, button=e.num, target="decoy"),
    )
    root.mainloop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
