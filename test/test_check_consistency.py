"""
The checker and the kinematics agree.

What checks with 0 errors KinematicModel and the joint-state table load; what they refuse
does not check clean.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_rule_cases import FAMILIES

from urdf_tools_ros.core.checks import check_description
from urdf_tools_ros.core.errors import DescriptionLoadError, RobotDescriptionError
from urdf_tools_ros.core.findings import Severity
from urdf_tools_ros.core.joint_state.table import JointStateTable
from urdf_tools_ros.core.kinematics.forward import KinematicModel
from urdf_tools_ros.core.source.loader import load_string

LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def joint(inner: str, joint_type: str = 'revolute') -> str:
    return ('<robot name="r"><link name="a"/><link name="b"/>'
            f'<joint name="j" type="{joint_type}"><parent link="a"/><child link="b"/>{inner}'
            '</joint></robot>')


#: Classes of malformed joints: each must be an error in the check exactly when FK refuses it.
EXTRA = {
    'axis-underflow': joint(LIMIT + '<axis xyz="0 1e-13 0"/>'),
    'axis-overflow': joint(LIMIT + '<axis xyz="0 1e308 1"/>'),
    'axis-zero': joint(LIMIT + '<axis xyz="0 0 0"/>'),
    'axis-near-unit': joint(LIMIT + '<axis xyz="0 -1 1e-8"/>'),
    'type-empty': joint(LIMIT, ''),
    'type-missing': '<robot name="r"><link name="a"/><link name="b"/><joint name="j">'
                    '<parent link="a"/><child link="b"/></joint></robot>',
    'duplicate-axis': joint(LIMIT + '<axis xyz="0 0 1"/><axis xyz="1 0 0"/>'),
    'duplicate-mimic': '<robot name="r"><link name="a"/><link name="b"/><link name="c"/>'
                       f'<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                       f'{LIMIT}</joint><joint name="k" type="revolute"><parent link="b"/>'
                       f'<child link="c"/>{LIMIT}<mimic joint="j" offset="0.5"/>'
                       '<mimic joint="j" multiplier="2"/></joint></robot>',
    'duplicate-safety-controller': joint(
        LIMIT + '<safety_controller soft_lower_limit="0.2" soft_upper_limit="0.8" '
        'k_position="1" k_velocity="1"/><safety_controller k_velocity="1"/>'),
    'inverted-limit': joint('<limit lower="1" upper="-1" effort="1" velocity="1"/>'),
    'soft-limits-exclude': joint(LIMIT + '<safety_controller soft_lower_limit="2" '
                                 'k_velocity="1"/>'),
    'mimic-dangling': joint(LIMIT + '<mimic joint="nope"/>'),
    'origin-nan': joint(LIMIT + '<origin xyz="nan 0 0"/>'),
    'limit-nan': joint('<limit lower="nan" upper="1" effort="1" velocity="1"/>'),
    'no-limit': joint(''),
}


def documents() -> Iterator[tuple[str, str]]:
    """``(id, URDF)`` for both twins of every rule case, and :data:`EXTRA`."""
    for family in FAMILIES.values():
        for case in family.CASES:
            code, bad, _, _, _, good = case.values
            yield f'{case.id}-bad', bad
            yield f'{case.id}-good', good
    yield from EXTRA.items()


CASES = dict(documents())


def refusal(text: str) -> str | None:
    """Why KinematicModel or the joint-state table refuses the description, or None."""
    description = load_string(text)
    try:
        KinematicModel(description.robot)
        JointStateTable(description.robot)
    except RobotDescriptionError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize('case', sorted(CASES))
def test_clean_check_means_the_kinematics_loads_it(case: str) -> None:
    text = CASES[case]
    try:
        description = load_string(text)
    except DescriptionLoadError:
        return  # not loadable at all: nothing to compare
    errors = [f for f in check_description(description) if f.severity is Severity.ERROR]
    refused = refusal(text)
    if not errors:
        assert refused is None, f'checks clean but the kinematics refuses it: {refused}'
    if refused is not None:
        assert errors, f'the kinematics refuses it ({refused}) but it checks clean'


@pytest.mark.parametrize('axis', ['0 1e-13 0', '0 1e308 1', '0 0 0'])
def test_axis_refusal_has_the_same_reason_in_check_and_fk(axis: str) -> None:
    text = joint(LIMIT + f'<axis xyz="{axis}"/>')
    (finding,) = [f for f in check_description(load_string(text))
                  if f.code == 'joint-axis-zero']
    assert finding.severity is Severity.ERROR
    refused = refusal(text)
    assert refused is not None
    reason = finding.message.split('" ', 2)[-1]  # after axis xyz="..."
    assert reason in refused, (reason, refused)
    with pytest.raises(RobotDescriptionError) as info:  # the error carries the same problem
        KinematicModel(load_string(text).robot)
    carried = info.value.finding
    assert carried is not None
    assert (carried.code, carried.element, carried.location) == \
        (finding.code, finding.element, finding.location)


def test_near_unit_axis_is_accepted_by_both() -> None:
    text = EXTRA['axis-near-unit']
    assert refusal(text) is None
    assert not [f for f in check_description(load_string(text))
                if f.severity is Severity.ERROR]
