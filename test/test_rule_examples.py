"""The examples ``urdf-tools rules CODE`` shows: ``bad`` gives its code, ``good`` none."""

from __future__ import annotations

from pathlib import Path

import pytest

from urdf_tools_ros.core.checks import check_description, RULES
from urdf_tools_ros.core.checks.examples import EXAMPLES, NO_EXAMPLE
from urdf_tools_ros.core.errors import RobotDescriptionError
from urdf_tools_ros.core.source.loader import load_string


def codes(text: str, folder: Path, files: tuple[str, ...] = ()) -> set[str]:
    """The codes ``urdf-tools check`` reports for ``text`` in ``folder`` beside ``files``."""
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b'')
    try:
        description = load_string(text, str(folder / 'example.urdf'))
    except RobotDescriptionError:
        return {'description-unloadable'}
    return {finding.code for finding in check_description(description)}


def test_every_rule_has_an_example_or_a_reason() -> None:
    assert set(EXAMPLES) | set(NO_EXAMPLE) == set(RULES)
    assert not set(EXAMPLES) & set(NO_EXAMPLE)


@pytest.mark.parametrize('code', sorted(EXAMPLES))
def test_the_bad_example_fails_and_the_good_one_passes(code: str, tmp_path: Path) -> None:
    example = EXAMPLES[code]
    bad = codes(example.bad, tmp_path / 'bad')
    assert code in bad, bad
    good = codes(example.good, tmp_path / 'good', example.files)
    assert code not in good, good
