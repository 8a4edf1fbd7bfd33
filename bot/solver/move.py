"""Move choice (the foundation baseline; `strength` features build on it).

* Any certainly safe cell is opened first: no risk, and its number feeds
  the next deduction.
* Nothing open yet: the first click depends on the rule. ``safe`` (first
  click never a mine): a corner, which has the best chance of being a zero
  among cells that are all equally safe. ``zero`` (first click opens an area):
  (3, 3), three steps in from the corner, so the opening is large yet close to
  two walls (expert, 2000 games, bench seed 2: (3, 3) won 49.95 %, (2, 2)
  49.00 %). ``none``: a corner too (every cell is equally risky, a corner is
  likeliest to be a zero).
* Otherwise the lowest P(mine); among cells within `TIE` of it, the one most
  likely to reveal information, scored by the chance that all its covered
  neighbours are safe (a zero opens an area), with a fixed row-major order as
  the last tie-break so play is deterministic.
* If every covered cell is a certain mine, flag one (the game is then won
  in every clone; the play loop may ignore it).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.solver.analysis import Move, Rule

#: Probabilities closer than this count as equal.
TIE = 1e-9


def first_click_cell(height: int, width: int, rule: Rule) -> tuple[int, int]:
    """Where to click on a board with nothing open yet."""
    if rule == "zero":
        return (min(3, (height - 1) // 2), min(3, (width - 1) // 2))
    return (0, 0)


def choose(
    height: int,
    width: int,
    candidates: Sequence[int],
    probabilities: Sequence[float | None],
    safe: Sequence[int],
    mines: Sequence[int],
    neighbours: Sequence[Sequence[int]],
    first_click: bool,
    rule: Rule,
) -> Move | None:
    """The single next action; `candidates` are the covered unflagged cells (indices)."""
    if not candidates:
        return None
    # The first-click habit applies only while nothing is known: a total that
    # makes cells certain (every cell a mine, or none) outranks it.
    if first_click and not safe and not mines:
        preferred = first_click_cell(height, width, rule)
        index = preferred[0] * width + preferred[1]
        if index not in set(candidates):
            index = min(candidates)
        p = probabilities[index]
        p_mine = 0.0 if rule != "none" else float(p or 0.0)
        return Move("open", index // width, index % width, p_mine, "first-click")
    if safe:
        index = min(safe)
        return Move("open", index // width, index % width, 0.0, "certain")
    mine_set = set(mines)
    open_candidates = [c for c in candidates if c not in mine_set]
    if not open_candidates:
        index = min(mines)
        return Move("flag", index // width, index % width, 1.0, "certain")
    best = min(float(probabilities[c] or 0.0) for c in open_candidates)
    tied = [c for c in open_candidates if float(probabilities[c] or 0.0) <= best + TIE]
    index = tied[0]
    if len(tied) > 1:
        index = max(tied, key=lambda c: (zero_chance(c, probabilities, neighbours), -c))
    return Move("open", index // width, index % width, float(probabilities[index] or 0.0), "guess")


def zero_chance(
    cell: int, probabilities: Sequence[float | None], neighbours: Sequence[Sequence[int]]
) -> float:
    """P(all covered neighbours safe), treating them as independent: a proxy for P(zero)."""
    chance = 1.0
    for n in neighbours[cell]:
        p = probabilities[n]
        if p is not None:
            chance *= 1.0 - p
    return chance
