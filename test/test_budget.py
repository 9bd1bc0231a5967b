"""
Each layer, and the package as a whole, stays within its size budget (docs/development.md).

The budgets are read from that page's table; the lines are counted by
:func:`layer_budget.total_lines`, the function the page's numbers come from. Raising a budget is
a decision written in the same change, on that page.
"""

from __future__ import annotations

from layer_budget import (budgets, DEVELOPMENT_MD, layer_files, layer_sizes, LAYERS, PACKAGE,
                          PACKAGE_ROW, total_lines)
import pytest

pytestmark = pytest.mark.portability


def test_total_lines_count_every_line_as_wc_does() -> None:
    assert total_lines('"""Doc."""\n\n# comment\nx = 1\n') == 4
    assert total_lines('') == 0
    assert total_lines('x = 1') == 1


def test_every_module_of_the_package_is_in_one_layer() -> None:
    owners: dict[str, list[str]] = {}
    for layer in LAYERS:
        for path in layer_files(layer):
            owners.setdefault(str(path), []).append(layer)
    for path in PACKAGE.rglob('*.py'):
        assert len(owners.get(str(path), [])) == 1, (path, owners.get(str(path)))


def test_each_layer_and_the_package_are_within_their_budgets() -> None:
    budget = budgets(DEVELOPMENT_MD.read_text(encoding='utf-8'))
    assert set(budget) == {*LAYERS, PACKAGE_ROW}, 'docs/development.md budgets every row'
    assert sum(budget[layer] for layer in LAYERS if layer != 'tests') <= budget[PACKAGE_ROW]
    over = {layer: (size, budget[layer]) for layer, size in layer_sizes().items()
            if size > budget[layer]}
    assert not over, (
        f'over their budget (lines, budget): {over}; shrink them, or raise the budget in '
        'docs/development.md saying why, in the same change')


def test_no_folder_holds_more_than_15_percent_of_the_package() -> None:
    """Each folder's own modules (not its subfolders'): one stage or concern per folder."""
    lines: dict[str, int] = {}
    for path in PACKAGE.rglob('*.py'):
        folder = str(path.parent.relative_to(PACKAGE.parent))
        lines[folder] = lines.get(folder, 0) + total_lines(path.read_text(encoding='utf-8'))
    total = sum(lines.values())
    assert {folder: size for folder, size in lines.items() if size > 0.15 * total} == {}
