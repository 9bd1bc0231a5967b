"""
What a test run did, in a few lines: its counts, its skip reasons grouped, its time.

With ``URDF_TOOLS_STAGE_REPORT=FILE`` each run also appends one JSON line to ``FILE``, which
``.ci/run`` sums per stage (``scripts/ci-stage-report``).
"""

from __future__ import annotations

from collections import Counter
import json
import os
import time
from typing import Any

import pytest

#: The environment variable naming the file to append this run's JSON line to.
REPORT_ENV = 'URDF_TOOLS_STAGE_REPORT'


def skip_reason(report: Any) -> str:
    """The reason a skipped test report gives, without pytest's ``Skipped: `` prefix."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason[len('Skipped: '):] if reason.startswith('Skipped: ') else reason


class StageReport:
    """The plugin: reads the terminal reporter's statistics at the end of the run."""

    def __init__(self, config: pytest.Config, path: str | None) -> None:
        self.config = config
        self.path = path
        self.started = time.monotonic()
        self.counts: dict[str, Any] | None = None

    def summarise(self, terminalreporter: Any) -> dict[str, Any]:
        """Counts and grouped skip reasons from ``terminalreporter.stats``."""
        stats = terminalreporter.stats

        def count(key: str) -> int:
            return len(stats.get(key, []))

        reasons = Counter(skip_reason(r) for r in stats.get('skipped', []))
        return {
            'passed': count('passed') + count('xpassed'),
            'failed': count('failed') + count('error'),
            'skipped': count('skipped') + count('xfailed'),
            'skip_reasons': dict(reasons.most_common()),
        }

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Print each distinct skip reason once, with its count."""
        self.counts = self.summarise(terminalreporter)
        reasons = self.counts['skip_reasons']
        if reasons:
            terminalreporter.section('skip reasons (grouped)')
            for reason, number in reasons.items():
                terminalreporter.write_line(f'{number:5d}  {reason}')

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Append this run's JSON line to ``URDF_TOOLS_STAGE_REPORT`` (when set)."""
        path = self.path
        session = getattr(self, 'session', None)
        if not path or session is None:
            return
        counts = self.counts or {'passed': 0, 'failed': 0, 'skipped': 0, 'skip_reasons': {}}
        line = dict(counts, collected=session.testscollected,
                    collect_only=bool(config.option.collectonly),
                    exitstatus=int(session.exitstatus),
                    seconds=round(time.monotonic() - self.started, 1))
        with open(path, 'a', encoding='utf-8') as stream:
            stream.write(json.dumps(line) + '\n')

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Keep the session for its collected count and exit status."""
        self.session = session


def register(config: pytest.Config) -> None:
    """
    Register the plugin, except in a pytest-xdist worker (the controller reports).

    ``URDF_TOOLS_STAGE_REPORT`` is taken out of the environment, so that the runs a test starts
    (pytester, a ``colcon test`` in a test) do not report into the stage's file.
    """
    if not hasattr(config, 'workerinput'):
        config.pluginmanager.register(StageReport(config, os.environ.pop(REPORT_ENV, None)),
                                      'urdf_tools_stage_report')
