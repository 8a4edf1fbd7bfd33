"""Endgame search: when few mine placements are left, play to WIN, not just to survive a click.

With a handful of placements left (`PLACEMENT_LIMIT`), every one of them is
listed explicitly as a bitmask over the undecided cells, and the game tree is
searched exactly: a state is the set of placements still possible; opening a
cell splits the placements where it is safe by the number it would show;
cells safe in every placement are opened first for free (their numbers only
add information); the value of a state is the best, over cells to open, of
the chance to win from there. States are memoised (the same set of
placements is reached by different orders of clicks).

A revealed 0 is treated as the plain information "no mine around", which is
what the flood fill of a real game reveals next anyway (its neighbours become
free opens). The search stops at `NODE_BUDGET` states and then gives way to
the lookahead guess; otherwise its choice is optimal for the win rate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.solver.constraints import Position

#: Search only when at most this many placements of the remaining mines fit the board.
PLACEMENT_LIMIT = 200
#: Give up (and let the lookahead guess) after this many distinct search states.
NODE_BUDGET = 4000


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class EndgameChoice:
    cell: int
    win_chance: float
    p_mine: float


def placements(position: Position, remaining: int, limit: int) -> list[int] | None:
    """Every placement of `remaining` mines on the position's unknown cells that fits its
    constraints, as bitmasks over `sorted(position.unknown)`; None if more than `limit`."""
    cells = sorted(position.unknown)
    index = {c: i for i, c in enumerate(cells)}
    cons = [([index[c] for c in con.cells], con.count) for con in position.constraints]
    touched: list[list[int]] = [[] for _ in cells]
    for k, (members, _) in enumerate(cons):
        for i in members:
            touched[i].append(k)
    # Constrained cells first, so contradictions show early; interior cells last.
    order = sorted(range(len(cells)), key=lambda i: (not touched[i], i))
    need = [count for _, count in cons]
    free = [len(members) for members, _ in cons]
    found: list[int] = []

    def place(depth: int, mask: int, left: int) -> None:
        unassigned = len(order) - depth
        if left < 0 or left > unassigned:
            return
        if depth == len(order):
            found.append(mask)
            if len(found) > limit:
                raise _OutOfBudget
            return
        i = order[depth]
        for mine in (False, True):
            ok = True
            for k in touched[i]:
                free[k] -= 1
                need[k] -= mine
            for k in touched[i]:
                if need[k] < 0 or need[k] > free[k]:
                    ok = False
            if ok:
                place(depth + 1, mask | (mine << i), left - mine)
            for k in touched[i]:
                free[k] += 1
                need[k] += mine

    try:
        place(0, 0, remaining)
    except _OutOfBudget:
        return None
    return found


def search(
    position: Position,
    remaining: int,
    neighbours: Sequence[Sequence[int]],
    placement_limit: int = PLACEMENT_LIMIT,
    node_budget: int = NODE_BUDGET,
) -> EndgameChoice | None:
    """The cell that maximises the chance to win, or None (too many placements or states)."""
    masks = placements(position, remaining, placement_limit)
    if not masks:
        return None
    cells = sorted(position.unknown)
    index = {c: i for i, c in enumerate(cells)}
    around = [sum(1 << index[n] for n in neighbours[c] if n in index) for c in cells]
    all_cells = range(len(cells))
    memo: dict[tuple[int, ...], float] = {}
    root_choice: list[tuple[float, int]] = []

    def split(state: tuple[int, ...], i: int) -> list[tuple[int, ...]]:
        bit = 1 << i
        parts: dict[int, list[int]] = {}
        for s in state:
            m = masks[s]
            if not m & bit:
                parts.setdefault((m & around[i]).bit_count(), []).append(s)
        return [tuple(p) for p in parts.values()]

    def win(state: tuple[int, ...], root: bool = False) -> float:
        if len(state) == 1:
            return 1.0
        known = memo.get(state)
        if known is not None and not root:
            return known
        if len(memo) >= node_budget:
            raise _OutOfBudget
        union = 0
        inter = -1
        for s in state:
            union |= masks[s]
            inter &= masks[s]
        n = len(state)
        # Free information first: a cell safe everywhere whose number is not yet known.
        for i in all_cells:
            if not union >> i & 1:
                parts = split(state, i)
                if len(parts) > 1:
                    value = sum(len(p) * win(p) for p in parts) / n
                    memo[state] = value
                    if root:
                        root_choice.append((value, i))
                    return value
        undecided = [i for i in all_cells if (union >> i & 1) and not (inter >> i & 1)]
        safe_count = {i: sum(1 for s in state if not masks[s] >> i & 1) for i in undecided}
        undecided.sort(key=lambda i: -safe_count[i])
        best = 0.0
        for i in undecided:
            if safe_count[i] / n <= best:
                break
            value = sum(len(p) * win(p) for p in split(state, i)) / n
            if root:
                root_choice.append((value, i))
            if value > best:
                best = value
        memo[state] = best
        return best

    try:
        win(tuple(range(len(masks))), root=True)
    except _OutOfBudget:
        return None
    if not root_choice:
        return None
    value, i = max(root_choice, key=lambda t: (t[0], -t[1]))
    mines_there = sum(1 for m in masks if m >> i & 1)
    return EndgameChoice(cells[i], value, mines_there / len(masks))
