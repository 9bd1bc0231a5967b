"""
The manual (``docs/``): what it states by hand is what the code does; its generated pages build.

Generated pages are built without Sphinx (the parameter page without ROS); the table of shared
robots is the checker's; no page names an issue or a commit (flake8 of ``docs/``: test_lint).
"""

from __future__ import annotations

from collections import Counter
import importlib
import importlib.util
import re
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO, SHARED_MODELS

DOCS = REPO / 'docs'
sys.path.insert(0, str(DOCS / '_ext'))  # docs/_ext is no package
generated_pages = importlib.import_module('generated_pages')


def model_table() -> list[tuple[str, dict[str, int], dict[str, int]]]:
    """``(model, {code: errors}, {code: warnings})`` of the table of shared models in cli.md."""
    rows = []
    for line in (DOCS / 'cli.md').read_text(encoding='utf-8').splitlines():
        match = re.match(r'\| `([\w/.]+\.urdf)` \| (.*?) \| (.*?) \|$', line)
        if match:
            counts = [{code: int(count) for count, code in
                       re.findall(r'(\d+) `([a-z0-9-]+)`', cell)} for cell in match.groups()[1:]]
            rows.append((match.group(1), counts[0], counts[1]))
    return rows


@pytest.mark.skipif(not SHARED_MODELS.is_dir(), reason=f'no shared models at {SHARED_MODELS}')
def test_the_table_of_shared_models_is_what_the_checker_says() -> None:
    from urdf_tools_ros.core import check_description, load, Severity

    rows = model_table()
    assert len(rows) >= 7
    for model, errors, warnings in rows:
        findings = check_description(load(SHARED_MODELS / model))
        assert dict(Counter(f.code for f in findings if f.severity is Severity.ERROR)) == errors, \
            model
        assert dict(Counter(f.code for f in findings
                            if f.severity is Severity.WARNING)) == warnings, model


def test_the_rule_catalog_page_has_every_rule_and_its_example() -> None:
    from urdf_tools_ros.core.checks import RULES
    from urdf_tools_ros.core.checks.examples import EXAMPLES

    page = generated_pages.rules_page()
    for code in RULES:
        assert f'(rule-{code})=\n### `{code}`' in page, code
        assert f'{{ref}}`{code} <rule-{code}>`' in page, code
    for example in EXAMPLES.values():
        assert example.bad.rstrip() in page


def test_the_cli_reference_has_every_subcommand_with_its_options() -> None:
    from urdf_tools_ros.cli.commands import COMMANDS

    page = generated_pages.cli_page()
    for name in COMMANDS:
        assert f'## `urdf-tools {name}`' in page
        assert f'usage: urdf-tools {name}' in page
    assert '--werror' in page and '--exit-after' in page


def test_the_parameter_page_is_built_without_ros() -> None:
    """Where rclpy is not installed, the table is imported with stand-ins that do not stay."""
    script = textwrap.dedent("""
        import importlib.abc
        import sys

        class NoRos(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('rclpy', 'rcl_interfaces'):
                    raise ModuleNotFoundError(name)
                return None

        sys.meta_path.insert(0, NoRos())
        sys.path.insert(0, sys.argv[1])
        import generated_pages
        print(generated_pages.parameters_page())
        left = [name for name in sys.modules
                if name.split('.')[0] in ('rclpy', 'rcl_interfaces')
                or name == 'urdf_tools_ros.ros.parameters']
        assert not left, left
    """)
    done = subprocess.run([sys.executable, '-c', script, str(DOCS / '_ext')], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for executable in generated_pages.NODE_TABLES:
        assert f'## `{executable}`' in done.stdout
    for name in ('model', 'rate', 'source_list', 'zeros.', 'gui_port', 'publish_frequency',
                 'frame_prefix', 'description_from_topic'):
        assert f'`{name}' in done.stdout, name


def test_the_api_reference_covers_the_public_core_modules() -> None:
    modules = generated_pages.api_modules()
    for name in ('urdf_tools_ros.core.source.loader', 'urdf_tools_ros.core.checks.registry',
                 'urdf_tools_ros.core.kinematics.forward', 'urdf_tools_ros.core.joint_state.table',
                 'urdf_tools_ros.core.findings', 'urdf_tools_ros.core.errors'):
        assert name in modules
    assert not any(name.split('.')[2:3] in (['ros'], ['nodes'], ['gui']) for name in modules)


def test_no_page_names_an_issue_or_a_commit() -> None:
    pages = [REPO / 'README.md', REPO / 'bench' / 'README.md',
             *(path for path in DOCS.rglob('*.md')
               if not {'_build', 'generated'} & set(path.relative_to(DOCS).parts))]
    for page in pages:
        text = page.read_text(encoding='utf-8')
        assert not re.search(r'\bissues? \d+|\(#\d+\)', text, re.IGNORECASE), page
        hashes = [word for word in re.findall(r'\b[0-9a-f]{7,40}\b', text)
                  if re.search(r'[a-f]', word) and re.search(r'\d', word)]
        assert not hashes, (page, hashes)
