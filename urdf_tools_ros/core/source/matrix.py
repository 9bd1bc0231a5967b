"""
Argument matrices: every combination of several values of xacro arguments, and its name.

A matrix ``{name: values}`` stands for the product of the values; each combination is one set
of xacro arguments, named by :func:`label` (``ur_type=ur5e prefix=left_``). Pure: no file read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
import itertools
import re
import shlex

__all__ = ['Combination', 'combinations', 'label', 'MatrixError', 'parse_matrix']

#: One combination: ``((name, value), ...)`` in the order of the matrix.
Combination = tuple[tuple[str, str], ...]

#: A xacro argument name as xacro reads ``name:=value`` (no ``:=``, no ``=``, no space).
_NAME = re.compile(r'^[^\s:=,]+$')
#: Values printed as they are in a label; anything else is shell-quoted (``prefix=''``).
_PLAIN = re.compile(r'^[\w.,/@%+:-]+$')


class MatrixError(ValueError):
    """A matrix is malformed: an entry without ``=``, a bad or repeated name, a repeated value."""


def parse_matrix(entries: Iterable[str],
                 fixed: Iterable[str] = ()) -> dict[str, tuple[str, ...]]:
    """
    Read ``--matrix`` entries ``name=value,value,...`` into ``{name: values}``.

    A value may be empty (``prefix=,left_``); a value cannot contain a comma.

    :param entries: One string per argument, in the order given.
    :param fixed: Names of the arguments given one value (``name:=value``).
    :return: The values of each argument, in the order given.
    :raises MatrixError: if an entry has no ``=`` or a malformed name, a name is given twice
        (in two entries, or in an entry and ``fixed``), or a value twice for one name.
    """
    matrix: dict[str, tuple[str, ...]] = {}
    fixed = set(fixed)
    for entry in entries:
        name, sep, text = entry.partition('=')
        name = name.strip()
        if not sep or name.endswith(':'):
            raise MatrixError(f'--matrix {entry!r}: expected name=value,value,... '
                              '(e.g. ur_type=ur3,ur5e; an empty value: prefix=,left_)')
        if not _NAME.match(name):
            raise MatrixError(f'--matrix {entry!r}: {name!r} is not a xacro argument name')
        if name in matrix:
            raise MatrixError(f'--matrix: {name!r} is given twice; give all its values in one '
                              f'--matrix {name}=value,value,...')
        if name in fixed:
            raise MatrixError(f'--matrix: {name!r} is also given as {name}:=value; give it '
                              'one way')
        values = tuple(text.split(','))
        repeated = sorted({value for value in values if values.count(value) > 1})
        if repeated:
            raise MatrixError(f'--matrix {entry!r}: value {repeated[0]!r} of {name!r} is given '
                              'twice')
        matrix[name] = values
    return matrix


def combinations(matrix: Mapping[str, Sequence[str]]) -> list[Combination]:
    """
    Every combination of the matrix, the first argument varying slowest (as nested loops).

    :param matrix: Values of each argument, in order; an empty matrix has one combination.
    :return: The combinations, each ``((name_1, value), (name_2, value), ...)``.
    :raises MatrixError: if an argument has no value.
    """
    for name, values in matrix.items():
        if isinstance(values, str) or not len(values):
            raise MatrixError(f'{name!r}: expected a list of values, got {values!r}')
    names = list(matrix)
    return [tuple(zip(names, values))
            for values in itertools.product(*(matrix[name] for name in names))]


def label(combination: Combination | Mapping[str, str]) -> str:
    """The name of a combination: ``ur_type=ur3 prefix=''`` (values shell-quoted where needed)."""
    pairs = combination.items() if isinstance(combination, Mapping) else combination
    return ' '.join(f'{name}={value if _PLAIN.match(value) else shlex.quote(value)}'
                    for name, value in pairs)
