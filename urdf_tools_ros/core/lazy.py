"""
Lazy re-exports (PEP 562): a package's public name is imported from its module on first access.

So importing a package stays cheap: the CLI starts without modules it does not use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import importlib
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """
    Return a package's ``__getattr__`` and ``__dir__`` for ``exports``.

    :param package: The package's ``__name__``.
    :param exports: ``{name: module}``, the module relative to ``package`` (``'.loader'``).
    :return: ``(__getattr__, __dir__)``; ``__getattr__`` raises :class:`AttributeError` for a
        name not in ``exports``.
    """
    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f'module {package!r} has no attribute {name!r}')
        return getattr(importlib.import_module(module, package), name)

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
