"""
The ``source_list`` topics of the joint-state publisher: their latest samples and the first hold.

:meth:`SourceSamples.ready` holds the first message until every source delivered or
:data:`HOLD_NS` passed, so no default pose is published for a joint a source drives
(joint_state_publisher 2.4 has no hold). The latest sample of each source is kept for a table
made later (:meth:`SourceSamples.merge_into`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .table import JointStateSample, JointStateTable
from ..findings import Finding, Severity
from ..model.robot import Robot

__all__ = ['HOLD_NS', 'SourceSamples', 'refusals_text', 'table_notes']

#: Longest hold of the first message for sources that have not delivered, ns (1 s).
HOLD_NS = 1_000_000_000


class SourceSamples:
    """
    The latest sample of each source topic, and whether the first message may go out.

    :param topics: The ``source_list`` topics.
    :param start_ns: When the node started (steady time, ns).
    :param hold_ns: The longest hold, ns.
    """

    def __init__(self, topics: Sequence[str], start_ns: int, hold_ns: int = HOLD_NS) -> None:
        self._topics = frozenset(topics)
        self._deadline = start_ns + hold_ns
        self._latest: dict[str, JointStateSample] = {}
        self._released = not self._topics

    def take(self, topic: str, sample: JointStateSample) -> None:
        """Keep ``sample`` as the latest of ``topic`` (merging it is the caller's)."""
        self._latest.pop(topic, None)  # latest last: merge_into replays in arrival order
        self._latest[topic] = sample

    def ready(self, now_ns: int) -> bool:
        """
        Whether messages may be published: every source delivered, or the hold has passed.

        :param now_ns: Steady time now, ns (the clock of ``start_ns``); once true, stays true.
        """
        if not self._released:
            self._released = self._topics <= self._latest.keys() or now_ns >= self._deadline
        return self._released

    def merge_into(self, table: JointStateTable) -> list[Finding]:
        """Merge every source's latest sample into a new ``table``; the refusals."""
        refusals: list[Finding] = []
        for sample in self._latest.values():
            refusals += table.merge(sample.name, sample.position, sample.velocity, sample.effort)
        return refusals


def refusals_text(refusals: Sequence[Finding], shown: int = 5) -> str:
    """One log line for refused joint-state values: the first ``shown``, then how many more."""
    text = '; '.join(f'joint "{r.element[6:]}": {r.message}' if r.element.startswith('joint:')
                     else r.message for r in refusals[:shown])
    return text + (f' (+{len(refusals) - shown} more)' if len(refusals) > shown else '')


def table_notes(table: JointStateTable, robot: Robot) -> list[tuple[Severity, str]]:
    """What the joint-state publisher logs of a new table (refused zeros, types, empty ranges)."""
    notes: list[tuple[Severity, str]] = []
    if table.refused_zeros:
        notes.append((Severity.WARNING, 'zeros refused: ' + refusals_text(table.refused_zeros)))
    for name in table.unknown_type_joints:
        notes.append((Severity.WARNING, f'joint "{name}": type "{robot.joint(name).joint_type}" '
                      'is not a URDF joint type; published as one position in its <limit> '
                      'range, as joint_state_publisher does'))
    for limits in table.limits.values():
        if limits.empty:
            notes.append((Severity.ERROR, f'joint "{limits.joint}": its range is empty (lower '
                          'above upper, or soft limits outside the hard ones); published at '
                          f'{limits.slider_lower:g}, the middle, as joint_state_publisher '
                          'does, and it cannot move'))
    return notes
