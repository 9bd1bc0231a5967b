"""
Every rule family's tables (``rule_cases.py``).

The catalog is frozen, every rule has a case and fires once on its failing URDF, where the
case says, and not on the passing twin.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from types import ModuleType

import pytest
from rule_cases import run_beside, run_family
import test_checks_gazebo
import test_checks_gazebo_lumping
import test_checks_geometry
import test_checks_inertial
import test_checks_joints
import test_checks_materials
import test_checks_structure
import test_checks_transmissions

from urdf_tools_ros.core.checks import RULES

#: family name -> its test module.
FAMILIES = {module.__name__.removeprefix('test_checks_'): module for module in (
    test_checks_gazebo, test_checks_gazebo_lumping, test_checks_geometry, test_checks_inertial,
    test_checks_joints, test_checks_materials, test_checks_structure, test_checks_transmissions)}


@pytest.mark.parametrize('family, code, bad, element, line, text, good', [
    pytest.param(family, *case.values, id=f'{name}-{case.id}')
    for name, family in FAMILIES.items() for case in family.CASES])
def test_rule_fires_on_the_bad_twin_only(tmp_path: Path, family: ModuleType, code: str, bad: str,
                                         element: str, line: int, text: str, good: str) -> None:
    files = getattr(family, 'FILES', None)  # without: loaded as <string>, as messages say
    run = (getattr(family, 'run_case', None) or partial(run_family, family.CHECKS)
           if files is None else run_beside(family.CHECKS, tmp_path, files))
    (finding,) = [finding for finding in run(bad) if finding.code == code]
    assert finding.severity.value == family.CATALOG[code][0]
    assert finding.element == element
    assert finding.location is not None and finding.location.line == line
    assert text in finding.message
    assert run(good) == []


@pytest.mark.parametrize('family', FAMILIES.values(), ids=list(FAMILIES))
def test_catalog_is_frozen(family: ModuleType) -> None:
    for code, (severity, source) in family.CATALOG.items():
        assert (RULES[code].severity.value, RULES[code].source) == (severity, source), code
        assert RULES[code].summary, code


@pytest.mark.parametrize('family', FAMILIES.values(), ids=list(FAMILIES))
def test_every_rule_has_a_case(family: ModuleType) -> None:
    assert {case.values[0] for case in family.CASES} == set(family.CATALOG)
