"""
Lines per layer, counted one way for docs/development.md and ``test_budget.py``.

The count is every line of a layer's ``*.py`` files: code, docstrings, comments and blank lines,
all that a reader reads (``cat FILES | wc -l``). Plain module (no tests here).

``python test/layer_budget.py`` prints the layer table of docs/development.md with today's
numbers.
"""

from __future__ import annotations

from pathlib import Path
import re

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / 'urdf_tools_ros'
DEVELOPMENT_MD = REPO / 'docs' / 'development.md'

#: layer -> the paths (relative to the repository) whose ``*.py`` files it holds. Every module
#: of the package is in exactly one layer (``test_budget.py`` checks it).
LAYERS: dict[str, tuple[str, ...]] = {
    'ROS layer': ('urdf_tools_ros/ros', 'urdf_tools_ros/nodes'),
    'core': ('urdf_tools_ros/core', 'urdf_tools_ros/__init__.py'),
    'CLI': ('urdf_tools_ros/cli', 'urdf_tools_ros/pytest_plugin.py'),
    'GUI': ('urdf_tools_ros/gui',),
    'language server': ('urdf_tools_ros/lsp',),
    'tests': ('test',),
}
#: The row of the table that bounds the package as a whole (every layer but the tests).
PACKAGE_ROW = 'package'


def total_lines(source: str) -> int:
    """Number of lines of a source text, as ``wc -l`` counts a file that ends with a newline."""
    return len(source.splitlines())


def layer_files(layer: str) -> list[Path]:
    """The ``*.py`` files of one layer of :data:`LAYERS`, sorted."""
    files: list[Path] = []
    for relative in LAYERS[layer]:
        path = REPO / relative
        files.extend([path] if path.is_file() else sorted(path.rglob('*.py')))
    return sorted(files)


def layer_sizes() -> dict[str, int]:
    """Lines of each layer today, and of the package (:data:`PACKAGE_ROW`)."""
    sizes = {layer: sum(total_lines(path.read_text(encoding='utf-8'))
                        for path in layer_files(layer)) for layer in LAYERS}
    sizes[PACKAGE_ROW] = sum(size for layer, size in sizes.items() if layer != 'tests')
    return sizes


def budgets(text: str) -> dict[str, int]:
    """
    The budget of each row of the layer table of docs/development.md.

    A row is ``| layer | paths | lines today | budget |``; the layer is the first cell without
    backquotes and emphasis.
    """
    found: dict[str, int] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
        name = cells[0].strip('*`')
        if len(cells) == 4 and (name in LAYERS or name == PACKAGE_ROW) \
                and re.fullmatch(r'[\d,]+', cells[3]):
            found[name] = int(cells[3].replace(',', ''))
    return found


def table(sizes: dict[str, int], budget: dict[str, int]) -> str:
    """The layer table of docs/development.md (Markdown)."""
    rows = ['| layer | paths | lines today | budget |', '| --- | --- | ---: | ---: |']
    for layer, size in sizes.items():
        paths = ', '.join(f'`{path}`' for path in LAYERS.get(layer, ('urdf_tools_ros',)))
        rows.append(f'| {layer} | {paths} | {size:,} | {budget.get(layer, 0):,} |')
    return '\n'.join(rows)


if __name__ == '__main__':
    print(table(layer_sizes(), budgets(DEVELOPMENT_MD.read_text(encoding='utf-8'))))
