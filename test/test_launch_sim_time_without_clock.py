"""display.launch.py with use_sim_time:=true and no /clock: one line, then /clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bad_launch import (assert_ended_cleanly, check_sim_time, launch_fixture, MARKS,
                        sim_time_launch)
from launch_helpers import Probe, Recorder
import pytest

pytestmark = MARKS


@launch_fixture(scope='module')
def launched(launch_prefix: Path) -> tuple[Any, Recorder]:
    return sim_time_launch(launch_prefix)


@pytest.mark.launch(fixture=launched)
def test_one_line_then_the_clock_is_followed(
        probe: Probe, launched: tuple[Any, Recorder]) -> None:
    check_sim_time(probe, launched[1])


@pytest.mark.launch(fixture=launched, shutdown=True)
def test_every_node_ends_cleanly(launched: tuple[Any, Recorder]) -> None:
    assert_ended_cleanly(launched[1], 3)
