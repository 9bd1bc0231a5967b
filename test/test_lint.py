"""Lint and types as tests: flake8 with ament's settings (setup.cfg) and mypy."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from conftest import REPO

TARGETS = [name for name in ('urdf_tools_ros', 'test', 'bench', 'launch', 'docs', 'setup.py')
           if (REPO / name).exists()]


@pytest.mark.skipif(importlib.util.find_spec('flake8') is None, reason='flake8 not installed')
def test_flake8() -> None:
    result = subprocess.run([sys.executable, '-m', 'flake8', *TARGETS], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(importlib.util.find_spec('mypy') is None, reason='mypy not installed')
def test_mypy() -> None:
    result = subprocess.run([sys.executable, '-m', 'mypy', 'urdf_tools_ros'], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
