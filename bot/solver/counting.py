"""Exact solution counting for one frontier component, by dynamic programming along the frontier.

Plain backtracking over a long frontier visits every placement (millions on
a 40-cell expert frontier). Instead the groups of a component are put in an
order that walks along the frontier, and the only thing the rest of the walk
needs to know about the groups already decided is how many mines each
*open* number (one with groups on both sides of the cut) still needs. Those
remainders are the DP state; there are few of them because a cut through a
frontier crosses few numbers.

`Count.forward` runs once per component and yields the weight polynomial
``W[m]`` (number of placements with m mines in the component, binomially
weighted per group). `Count.marginals` then runs a backward pass that folds
in an external weight per component mine count (the interior and the other
components, see `probability`) and returns, per group, the weighted number of
placements with a mine on one given cell of that group. All arithmetic is on
Python integers: exact, no overflow.

A component whose DP needs more than `budget` state transitions raises
`TooBig` so the caller can fall back to an approximation instead of
stalling a live game.
"""

from __future__ import annotations

from math import comb

from bot.solver.components import Component


class TooBig(Exception):
    """The component needs more work than the budget allows."""


def _order(component: Component) -> list[int]:
    """A group order that keeps few numbers open at any cut (greedy, along the frontier)."""
    n_groups = len(component.groups)
    eq_of: list[list[int]] = [[] for _ in range(n_groups)]
    for k, (members, _) in enumerate(component.equations):
        for g in members:
            eq_of[g].append(k)
    left = [len(members) for members, _ in component.equations]
    is_open = [False] * len(component.equations)
    todo = set(range(n_groups))
    order: list[int] = []
    current = min(todo, key=lambda g: (len(eq_of[g]), g))
    while True:
        order.append(current)
        todo.discard(current)
        for k in eq_of[current]:
            is_open[k] = True
            left[k] -= 1
        if not todo:
            return order
        candidates = {
            g
            for k, (members, _) in enumerate(component.equations)
            if is_open[k] and left[k]
            for g in members
            if g in todo
        } or todo
        current = max(
            candidates,
            key=lambda g: (
                sum(1 for k in eq_of[g] if left[k] == 1),
                sum(1 for k in eq_of[g] if is_open[k]),
                -sum(1 for k in eq_of[g] if not is_open[k]),
                -g,
            ),
        )


class Count:
    """Forward tables of the frontier DP for one component (see the module docstring)."""

    def __init__(self, component: Component, budget: int) -> None:
        self.component = component
        order = _order(component)
        self.order = order
        n = len(order)
        pos = {g: i for i, g in enumerate(order)}
        sizes = [len(component.groups[g]) for g in order]
        self.sizes = sizes
        equations = component.equations
        first = [min(pos[g] for g in members) for members, _ in equations]
        last = [max(pos[g] for g in members) for members, _ in equations]
        # open_at[i]: equations open at the cut before step i, in a fixed order.
        open_at: list[tuple[int, ...]] = [
            tuple(k for k in range(len(equations)) if first[k] < i <= last[k]) for i in range(n + 1)
        ]
        # Per step: the layout of the remainder list (open equations, then those
        # starting here), which slots this group touches with their capacity
        # left after it, and where each slot of the next state comes from.
        self.steps: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...]]] = []
        for i in range(n):
            g = order[i]
            layout = open_at[i] + tuple(k for k in range(len(equations)) if first[k] == i)
            starts = tuple(equations[k][1] for k in layout[len(open_at[i]) :])
            touching = []
            for slot, k in enumerate(layout):
                if g in equations[k][0]:
                    cap_after = sum(sizes[pos[h]] for h in equations[k][0] if pos[h] > i)
                    touching.append((slot, cap_after))
            index = {k: slot for slot, k in enumerate(layout)}
            nxt = tuple(index[k] for k in open_at[i + 1])
            self.steps.append((starts, tuple(touching), nxt))
        self.forward: list[dict[tuple[int, ...], list[int]]] = [{(): [1]}]
        # spans[i][state]: the feasible mine counts (lo, hi) of step i's group from that state,
        # computed once here and read again by the backward pass (`marginals`).
        self.spans: list[dict[tuple[int, ...], tuple[int, int]]] = []
        work = 0
        for i in range(n):
            table: dict[tuple[int, ...], list[int]] = {}
            span: dict[tuple[int, ...], tuple[int, int]] = {}
            size = sizes[i]
            starts, touch, nxt = self.steps[i]
            for state, poly in self.forward[i].items():
                rem = list(state + starts)
                lo, hi = 0, size
                for slot, cap_after in touch:
                    r = rem[slot]
                    hi = min(hi, r)
                    lo = max(lo, r - cap_after)
                span[state] = (lo, hi)
                for x in range(lo, hi + 1):
                    work += 1
                    moved = rem.copy()
                    for slot, _ in touch:
                        moved[slot] -= x
                    new = tuple(moved[s] for s in nxt)
                    weight = comb(size, x)
                    target = table.get(new)
                    if target is None:
                        target = table[new] = [0] * (len(poly) + size)
                    for m, v in enumerate(poly):
                        if v:
                            target[m + x] += v * weight
            if work > budget:
                raise TooBig(f"{work} DP transitions after {i + 1} of {n} groups")
            self.forward.append(table)
            self.spans.append(span)
        self.work = work
        final = self.forward[n].get((), [0])
        while len(final) > 1 and final[-1] == 0:
            final = final[:-1]
        #: W[m]: weighted number of placements with m mines in this component.
        self.weights = final

    def marginals(self, external: list[int]) -> tuple[list[int], int]:
        """Per group (in `component.groups` order): weighted count of placements with a mine on
        one given cell of the group; and the total weight. Each placement with m mines counts
        `external[m]` times (0 past the end of `external`)."""
        n = len(self.order)
        backward: dict[tuple[int, ...], list[int]] = {(): list(external)}
        per_group = [0] * len(self.component.groups)
        for i in range(n - 1, -1, -1):
            size = self.sizes[i]
            starts, touch, nxt = self.steps[i]
            span = self.spans[i]
            table: dict[tuple[int, ...], list[int]] = {}
            numerator = 0
            for state, poly in self.forward[i].items():
                rem = list(state + starts)
                lo, hi = span[state]
                vec = [0] * len(poly)
                for x in range(lo, hi + 1):
                    moved = rem.copy()
                    for slot, _ in touch:
                        moved[slot] -= x
                    after = backward.get(tuple(moved[s] for s in nxt))
                    if after is None:
                        continue
                    weight = comb(size, x)
                    # vec[p] += C(size, x) * after[p + x]
                    limit = min(len(poly), len(after) - x)
                    for p in range(limit):
                        v = after[p + x]
                        if v:
                            vec[p] += weight * v
                    if x:
                        one = comb(size - 1, x - 1)
                        numerator += one * sum(
                            poly[p] * after[p + x] for p in range(limit) if poly[p]
                        )
                if any(vec):
                    table[state] = vec
            per_group[self.order[i]] = numerator
            backward = table
        total = backward.get((), [0])[0]
        return per_group, total
