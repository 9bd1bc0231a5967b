"""
Lines of code per layer, counted one way for docs/development.md and ``test_budget.py``.

A code line is a source line holding a token other than a comment or a docstring (a string
standing first in a module, class or function body); blank lines do not count, a line of a
multi-line string that is data does. Plain module (no tests here).

``python test/layer_budget.py`` prints the layer table of docs/development.md with today's
numbers.
"""

from __future__ import annotations

import ast
import io
from pathlib import Path
import re
import tokenize

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

_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
             tokenize.ENDMARKER, tokenize.ENCODING}


def code_lines(source: str) -> int:
    """
    Number of code lines of a Python source (see the module docstring).

    :raises SyntaxError: When ``source`` is not Python.
    """
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            first = node.body[0]
            docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - docstrings)


def layer_files(layer: str) -> list[Path]:
    """The ``*.py`` files of one layer of :data:`LAYERS`, sorted."""
    files: list[Path] = []
    for relative in LAYERS[layer]:
        path = REPO / relative
        files.extend([path] if path.is_file() else sorted(path.rglob('*.py')))
    return sorted(files)


def layer_sizes() -> dict[str, int]:
    """Code lines of each layer today: layer -> count."""
    return {layer: sum(code_lines(path.read_text(encoding='utf-8'))
                       for path in layer_files(layer)) for layer in LAYERS}


def budgets(text: str) -> dict[str, int]:
    """
    The budget of each layer from the layer table of docs/development.md.

    A row is ``| layer | paths | code lines today | budget |``; the layer is the first cell
    without backquotes and emphasis.
    """
    found: dict[str, int] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
        if len(cells) == 4 and cells[0].strip('*`') in LAYERS \
                and re.fullmatch(r'[\d,]+', cells[3]):
            found[cells[0].strip('*`')] = int(cells[3].replace(',', ''))
    return found


def table(sizes: dict[str, int], budget: dict[str, int]) -> str:
    """The layer table of docs/development.md (Markdown)."""
    rows = ['| layer | paths | code lines today | budget |', '| --- | --- | ---: | ---: |']
    for layer, size in sizes.items():
        paths = ', '.join(f'`{path}`' for path in LAYERS[layer])
        rows.append(f'| {layer} | {paths} | {size:,} | {budget.get(layer, 0):,} |')
    return '\n'.join(rows)


if __name__ == '__main__':
    print(table(layer_sizes(), budgets(DEVELOPMENT_MD.read_text(encoding='utf-8'))))
