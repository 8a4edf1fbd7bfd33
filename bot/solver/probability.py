"""Exact mine probabilities: components counted apart, combined with the interior by binomials.

Definitions (what a probability *means*):

* With the mine total known, every placement of the remaining mines on the
  undecided cells that agrees with all numbers is equally likely (that is
  how the game deals mines). A frontier placement with m mines stands for
  ``C(I, R - m)`` placements overall (I interior cells, R mines left), so
  component weights ``W_c[m]`` are convolved and weighted by that binomial,
  with exact integers throughout.
* Without the total, every placement of mines on the covered cells that
  agrees with the numbers is equally likely, whatever its mine count. Then
  components are independent, each frontier placement counts once and an
  interior cell (no number touches it) is a mine with probability exactly
  1/2. This is the only assumption-free reading; the play loop and the bench
  always pass the total, which gives the realistic figures.

Fallback: a component whose counting exceeds the work budget is not
enumerated. Its cells get the *local density approximation*: the mean, over
the numbers touching the cell, of (mines still needed / undecided cells
around it). Exact components are then weighted as if the total were unknown
(independent of the others) and interior cells get the mines left over after
the expected frontier mines, spread evenly (1/2 without a total). The result
is marked inexact with a note; certain cells are still exact because SAT
decides them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from bot.solver.components import Component
from bot.solver.counting import Count, TooBig
from bot.solver.rules import Deduction

#: Default DP work budget per component (state transitions); about 0.1 s of Python.
DEFAULT_BUDGET = 200_000

CountCache = dict[frozenset[tuple[frozenset[int], int]], tuple[Component, Count | None]]


@dataclass(frozen=True)
class Probabilities:
    """P(mine) per undecided cell, exact as fractions when `exact`."""

    frontier: dict[int, Fraction]
    #: P(mine) of every interior cell (None when there is no interior cell).
    interior: Fraction | None
    interior_cells: frozenset[int]
    exact: bool
    #: False when an exact count found no placement at all (the board is inconsistent).
    consistent: bool
    notes: tuple[str, ...]
    #: How many mine placements on the undecided cells fit the board (with the total: of the
    #: remaining mines; without: of any number of mines). 0 when inexact.
    weight: int = 0


def _binom(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    return comb(n, k)


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def compute(
    components: list[Component],
    deduction: Deduction,
    interior: frozenset[int],
    budget: int = DEFAULT_BUDGET,
    cache: CountCache | None = None,
) -> Probabilities:
    """Probabilities for every undecided cell (see the module docstring for their meaning).

    `cache` (optional, owned by the caller) keeps component counts by `Component.key`, so
    many what-if positions that share most components count each of them once.
    """
    counts: list[Count | None] = []
    notes: list[str] = []
    components = list(components)
    for i, comp in enumerate(components):
        entry = cache.get(comp.key) if cache is not None else None
        if entry is None:
            try:
                entry = (comp, Count(comp, budget))
            except TooBig as why:
                entry = (comp, None)
                notes.append(
                    f"a frontier component of {len(comp.cells)} cells is too large to count "
                    f"exactly ({why}); its probabilities use the local density approximation"
                )
            if cache is not None:
                cache[comp.key] = entry
        elif entry[1] is None:
            notes.append(
                f"a frontier component of {len(comp.cells)} cells is too large to count "
                "exactly; its probabilities use the local density approximation"
            )
        components[i] = entry[0]
        counts.append(entry[1])
    remaining = deduction.remaining
    if any(c is None for c in counts):
        return _approximate(components, counts, remaining, interior, notes)
    exact_counts = [c for c in counts if c is not None]
    n_interior = len(interior)
    frontier: dict[int, Fraction] = {}
    if remaining is None:
        product = 1
        for comp, count in zip(components, exact_counts, strict=True):
            per_group, total = count.marginals([1] * (len(count.weights)))
            if total == 0:
                return Probabilities({}, None, interior, True, False, ())
            product *= total
            for group, num in zip(comp.groups, per_group, strict=True):
                for cell in group:
                    frontier[cell] = Fraction(num, total)
        p_interior = Fraction(1, 2) if n_interior else None
        return Probabilities(frontier, p_interior, interior, True, True, (), product << n_interior)
    weights = [c.weights for c in exact_counts]
    # prefix[i] = W_0 * ... * W_{i-1}; suffix[i] = W_i * ... * W_{n-1}
    prefix = [[1]]
    for w in weights:
        prefix.append(_convolve(prefix[-1], w))
    suffix = [[1]]
    for w in reversed(weights):
        suffix.append(_convolve(suffix[-1], w))
    suffix.reverse()
    everything = prefix[-1]
    # Only C(I, k) for k = remaining - (frontier mines) is ever needed: a short window.
    low = max(0, remaining - len(everything) + 1)
    row = {k: comb(n_interior, k) for k in range(low, min(remaining, n_interior) + 1)}

    def inside(k: int) -> int:
        return row.get(k, 0)

    total = sum(v * inside(remaining - m) for m, v in enumerate(everything))
    if total == 0:
        return Probabilities({}, None, interior, True, False, ())
    for i, (comp, count) in enumerate(zip(components, exact_counts, strict=True)):
        others = _convolve(prefix[i], suffix[i + 1])
        external = [
            sum(v * inside(remaining - m - j) for j, v in enumerate(others) if v)
            for m in range(len(count.weights))
        ]
        per_group, denominator = count.marginals(external)
        assert denominator == total, "component and global totals must agree"
        for group, num in zip(comp.groups, per_group, strict=True):
            for cell in group:
                frontier[cell] = Fraction(num, total)
    p_interior = None
    if n_interior:
        mines_inside = sum(
            v * _binom(n_interior - 1, remaining - m - 1) for m, v in enumerate(everything)
        )
        p_interior = Fraction(mines_inside, total)
    return Probabilities(frontier, p_interior, interior, True, True, (), total)


def _approximate(
    components: list[Component],
    counts: list[Count | None],
    remaining: int | None,
    interior: frozenset[int],
    notes: list[str],
) -> Probabilities:
    """The documented fallback when some component is too large (see the module docstring)."""
    frontier: dict[int, Fraction] = {}
    for comp, count in zip(components, counts, strict=True):
        if count is not None:
            per_group, total = count.marginals([1] * len(count.weights))
            if total == 0:
                return Probabilities({}, None, interior, True, False, ())
            for group, num in zip(comp.groups, per_group, strict=True):
                for cell in group:
                    frontier[cell] = Fraction(num, total)
            continue
        densities: dict[int, list[Fraction]] = {}
        for members, mines in comp.equations:
            size = sum(len(comp.groups[g]) for g in members)
            for g in members:
                for cell in comp.groups[g]:
                    densities.setdefault(cell, []).append(Fraction(mines, size))
        for cell, values in densities.items():
            frontier[cell] = sum(values, Fraction(0)) / len(values)
    p_interior: Fraction | None = None
    if interior:
        if remaining is None:
            p_interior = Fraction(1, 2)
        else:
            expected = sum(frontier.values(), Fraction(0))
            p_interior = min(Fraction(1), max(Fraction(0), (remaining - expected) / len(interior)))
    return Probabilities(frontier, p_interior, interior, False, True, tuple(notes))
