"""
Gazebo rules: ``<gazebo reference>`` must name a link or a joint.

sdformat's URDF parser (``parser_urdf.cc``) applies a ``<gazebo reference="x">`` block to the link
or joint ``x``; a block naming neither is silently dropped (its material, friction, sensors and
plugins never take effect). A block without ``reference`` applies to the whole robot.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from .registry import check, CheckContext, rule
from ..findings import Finding, Severity

REFERENCE_MISSING = rule('gazebo-reference-missing', Severity.WARNING,
                         '<gazebo reference> names neither a link nor a joint',
                         reference='sdformat URDF to SDF (the block is ignored with a warning)')
#: Similarity a suggestion needs (``difflib.get_close_matches``' default cutoff).
SUGGESTION_CUTOFF = 0.6


class NameMatcher:
    """
    The closest of a fixed set of names, as ``difflib.get_close_matches(word, names, n=1)``.

    The result is the same (highest ``SequenceMatcher.ratio()``, ties to the greater name), but
    the costly ratio is computed only for names that can still win: ``ratio() <= quick_ratio()``
    (difflib), and quick ratios of all names come from one array of character counts.

    :param names: The candidate names.
    """

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self._columns = {char: index for index, char in enumerate(sorted(set(''.join(names))))}
        width = len(self._columns) + 1
        rows = np.repeat(np.arange(len(self.names)), [len(name) for name in self.names])
        cells = rows * width + np.array([self._columns[char] for name in self.names
                                         for char in name], dtype=np.int64)
        self._counts = np.bincount(cells, minlength=len(self.names) * width).reshape(
            len(self.names), width)
        self._lengths = np.array([len(name) for name in self.names], dtype=np.float64)

    def closest(self, word: str, cutoff: float = SUGGESTION_CUTOFF) -> str | None:
        """Return the name most similar to ``word`` with a ratio >= ``cutoff``, or ``None``."""
        import difflib  # here: only a missing reference asks, and every check run imports this
        if not word or not self.names:
            close = difflib.get_close_matches(word, self.names, n=1, cutoff=cutoff)
            return close[0] if close else None
        counts = np.bincount([self._columns.get(char, len(self._columns)) for char in word],
                             minlength=self._counts.shape[1])
        counts[-1] = 0  # characters no name has match nothing
        # quick_ratio: 2 * (size of the multiset intersection) / (total length), an upper bound
        bound = 2.0 * np.minimum(self._counts, counts).sum(axis=1) / (self._lengths + len(word))
        order = np.argsort(-bound, kind='stable')
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(word)
        best: tuple[float, str] | None = None
        for index in order.tolist():
            if bound[index] < (cutoff if best is None else best[0]):
                break  # sorted: no later name can reach the best ratio either
            name = self.names[index]
            matcher.set_seq1(name)
            candidate = (matcher.ratio(), name)
            if candidate[0] >= cutoff and (best is None or candidate > best):
                best = candidate
        return None if best is None else best[1]


@check
def check_references(ctx: CheckContext) -> Iterator[Finding]:
    """Report ``<gazebo>`` blocks whose reference is not a link or joint of the robot."""
    names = set(ctx.robot.link_map) | set(ctx.robot.joint_map)
    matcher: NameMatcher | None = None
    for block in ctx.robot.gazebo:
        reference = block.reference
        if reference is None or reference in names:
            continue
        if matcher is None:
            matcher = NameMatcher(sorted(names))
        close = matcher.closest(reference)
        yield ctx.finding(REFERENCE_MISSING, f'gazebo:{reference}',
                          f'<gazebo reference="{reference}"> names neither a link nor a joint; '
                          'Gazebo ignores the block', block.location,
                          f'did you mean "{close}"?' if close else
                          'name a link or joint of the robot')
