"""display.launch.py with a bad model, ``missing``: one clear line, nodes stay up."""

from __future__ import annotations

from pathlib import Path

from bad_launch import (assert_ended_cleanly, bad_model_launch, BadLaunch, check_one_clear_line,
                        launch_fixture, MARKS)
from launch_helpers import Probe
import pytest

pytestmark = MARKS


@launch_fixture(scope='module')
def launched(launch_prefix: Path, tmp_path_factory: pytest.TempPathFactory) -> BadLaunch:
    return bad_model_launch('missing', launch_prefix, tmp_path_factory)


@pytest.mark.launch(fixture=launched)
def test_one_clear_line_and_every_node_stays_up(probe: Probe, launched: BadLaunch) -> None:
    check_one_clear_line(probe, launched)


@pytest.mark.launch(fixture=launched, shutdown=True)
def test_every_node_ends_cleanly(launched: BadLaunch) -> None:
    assert_ended_cleanly(launched[3], 3)
