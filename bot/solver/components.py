"""Split the undecided frontier into independent components and group interchangeable cells.

Two frontier cells interact only through a chain of shared numbers, so the
mine placements of separate components multiply and can be counted apart;
only the global mine total couples them again (see `probability`). Inside a
component, cells touched by exactly the same numbers are interchangeable:
counting "how many mines in this group" with a binomial weight instead of
every subset turns e.g. a run of cells along a wall into one variable.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.solver.constraints import Constraint


@dataclass(frozen=True)
class Component:
    """One independent part of the frontier.

    `groups[g]` are cells that share the same set of constraints;
    `equations[k]` is ``(group indices, mines)`` for constraint k, and
    `sources[k]` the number cell it came from.
    """

    groups: tuple[tuple[int, ...], ...]
    equations: tuple[tuple[tuple[int, ...], int], ...]
    sources: tuple[int, ...]
    #: The constraints as a set of (cells, mines): equal keys count the same, whatever the
    #: order or the numbers they came from (what-if analyses reuse counts by this key).
    key: frozenset[tuple[frozenset[int], int]] = frozenset()

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(c for group in self.groups for c in group)


def split(constraints: tuple[Constraint, ...]) -> list[Component]:
    """Components of the constraint graph, each with its groups of interchangeable cells."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for con in constraints:
        cells = iter(con.cells)
        first = next(cells)
        parent.setdefault(first, first)
        root = find(first)
        for c in cells:
            parent.setdefault(c, c)
            other = find(c)
            if other != root:
                parent[other] = root
    by_root: dict[int, list[Constraint]] = {}
    for con in constraints:
        by_root.setdefault(find(next(iter(con.cells))), []).append(con)
    return [_component(cons) for _, cons in sorted(by_root.items())]


def _component(constraints: list[Constraint]) -> Component:
    membership: dict[int, list[int]] = {}
    for k, con in enumerate(constraints):
        for c in con.cells:
            membership.setdefault(c, []).append(k)
    by_key: dict[tuple[int, ...], list[int]] = {}
    for c in sorted(membership):
        by_key.setdefault(tuple(membership[c]), []).append(c)
    keys = list(by_key)
    groups = tuple(tuple(by_key[key]) for key in keys)
    members: list[list[int]] = [[] for _ in constraints]
    for g, key in enumerate(keys):
        for k in key:
            members[k].append(g)
    equations = tuple((tuple(members[k]), con.count) for k, con in enumerate(constraints))
    identity = frozenset((con.cells, con.count) for con in constraints)
    return Component(groups, equations, tuple(con.source for con in constraints), identity)
