"""cli layer of urdf_tools_ros."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

_Number = TypeVar('_Number', int, float)


def number_argument(convert: Callable[[str], _Number], accept: Callable[[_Number], bool],
                    what: str, expected: str) -> Callable[[str], _Number]:
    """An argparse ``type``: ``convert(text)`` if ``accept``-ed, else an ``ArgumentTypeError``."""
    def parse(text: str) -> _Number:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f'{text!r} is not {what}') from None
        if not accept(value):
            raise argparse.ArgumentTypeError(f'{text!r}: expected {expected}')
        return value
    return parse
