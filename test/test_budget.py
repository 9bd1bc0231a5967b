"""
Each layer stays within its size budget (docs/development.md, *Size budget per layer*).

The budgets are read from that page's table; the code lines are counted by
:func:`layer_budget.code_lines`, the function the page's numbers come from. Raising a budget is a
decision written in the same change, on that page.
"""

from __future__ import annotations

import textwrap

from layer_budget import (budgets, code_lines, DEVELOPMENT_MD, layer_files, layer_sizes, LAYERS,
                          PACKAGE)
import pytest

pytestmark = pytest.mark.portability


def test_code_lines_leave_out_docstrings_comments_and_blank_lines() -> None:
    source = textwrap.dedent('''\
        """Module docstring,
        on two lines."""

        # a comment
        import os  # code, with a comment


        def f(x):
            """Function docstring."""
            text = """data
        on two lines"""
            return (x +
                    1)


        class C:
            """Class docstring."""

            value = 1
        ''')
    # import, def, text (2 lines), return (2 lines), class, value
    assert code_lines(source) == 8
    assert code_lines('') == 0
    assert code_lines('"""Only a docstring."""\n') == 0
    assert code_lines('x = 1\n"""Not a docstring: a statement."""\n') == 2


def test_every_module_of_the_package_is_in_one_layer() -> None:
    owners: dict[str, list[str]] = {}
    for layer in LAYERS:
        for path in layer_files(layer):
            owners.setdefault(str(path), []).append(layer)
    for path in PACKAGE.rglob('*.py'):
        assert len(owners.get(str(path), [])) == 1, (path, owners.get(str(path)))


def test_each_layer_is_within_its_budget() -> None:
    budget = budgets(DEVELOPMENT_MD.read_text(encoding='utf-8'))
    assert set(budget) == set(LAYERS), 'docs/development.md gives a budget for every layer'
    over = {layer: (size, budget[layer]) for layer, size in layer_sizes().items()
            if size > budget[layer]}
    assert not over, (
        f'layers over their budget (code lines, budget): {over}; shrink them, or raise the '
        'budget in docs/development.md saying why, in the same change')
