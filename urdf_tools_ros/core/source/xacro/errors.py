"""
A xacro failure in plain words: what went wrong, once, and how to fix it.

xacro wraps one cause in several exceptions (``XacroException(exc=...)``, a suffix naming the
expression); :func:`explain` turns them into the cause and its fix. Where the failing element
is, and the include/macro chain around it, come from :mod:`.runner`.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from ..packages import package_fix

__all__ = ['PackageNotFound', 'explain']

_EXPRESSION = re.compile(r"when evaluating expression '(.*)'", re.DOTALL)
_NAME_ERROR = re.compile(r"name '([^']+)' is not defined")
_INVALID_PARAMETER = re.compile(r'Invalid parameter "([^"]+)"')
_UNDEFINED_PARAMETERS = re.compile(r'Undefined parameters \[([^\]]*)\]')
_UNKNOWN_MACRO = re.compile(r'unknown macro name: (?:xacro:)?(\S+)')


class PackageNotFound(LookupError):
    """``$(find package)`` names a package the locator does not know."""

    def __init__(self, package: str) -> None:
        super().__init__(f'package "{package}" not found')
        self.package = package


def _chain(exc: BaseException, xacro: ModuleType) -> list[BaseException]:
    """The exception and those it wraps (``XacroException.exc``, ``__cause__``), outer first."""
    found: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in found:
        found.append(current)
        inner = getattr(current, 'exc', None) if isinstance(current, xacro.XacroException) \
            else None
        current = inner if isinstance(inner, BaseException) else current.__cause__
    return found


def _own_text(exc: BaseException, xacro: ModuleType) -> str:
    """What ``exc`` says itself: a XacroException's message without what it wraps."""
    if isinstance(exc, xacro.XacroException):
        text = str(exc.args[0]) if exc.args and exc.args[0] is not None else ''
        return '' if text.startswith("<class '") else text.strip().rstrip(':')
    return str(exc).strip()


def _macro(exc: BaseException) -> Any:
    macros = getattr(exc, 'macros', None)
    return macros[0] if macros else None


def _macro_name(macro: Any) -> str:
    body = getattr(macro, 'body', None)
    return body.getAttribute('name') if body is not None else '?'


def _parameters(macro: Any) -> str:
    params = [name for name in getattr(macro, 'params', ()) if name]
    return ' '.join(params) if params else '(none)'


def explain(exc: BaseException, xacro: ModuleType) -> tuple[str, str | None]:
    """
    The cause of a xacro failure and its fix, each one sentence, no class names, no repeats.

    :param exc: What ``xacro.process_doc``/``process_file`` raised.
    :param xacro: The xacro module (for its ``XacroException``).
    :return: ``(message, fix)``; the fix is ``None`` where none is known.
    """
    chain = _chain(exc, xacro)
    expression = next((match.group(1) for item in chain
                       for match in [_EXPRESSION.search(str(getattr(item, 'suffix', '') or ''))]
                       if match), None)
    for item in chain:
        if isinstance(item, PackageNotFound):
            return (f'$(find {item.package}): package "{item.package}" not found',
                    package_fix(item.package))
        if type(item).__name__ == 'ArgException':
            name = str(item).strip()
            return (f'$(arg {name}): argument "{name}" is not given and has no default',
                    f'give {name}:=VALUE, or declare <xacro:arg name="{name}" default="..."/>')
        if isinstance(item, NameError):
            match = _NAME_ERROR.search(str(item))
            name = match.group(1) if match else str(item)
            where = f'${{{expression}}}' if expression else 'an expression'
            return (f'{where}: no property or argument named "{name}"',
                    f'define <xacro:property name="{name}" value="..."/> before it is used, or '
                    'fix the spelling')
        if isinstance(item, (FileNotFoundError, IsADirectoryError, PermissionError)):
            name = getattr(item, 'filename', None) or str(item)
            reason = getattr(item, 'strerror', None) or 'cannot be read'
            return (f'cannot read {name}: {reason}',
                    'check the file name, and the arguments and properties it is made of')
        text = _own_text(item, xacro)
        match = _INVALID_PARAMETER.search(text)
        if match:
            macro = _macro(item)
            name = _macro_name(macro)
            return (f'macro "{name}" has no parameter "{match.group(1)}"',
                    f'its parameters are: {_parameters(macro)}; remove {match.group(1)}="..." '
                    'from the call or declare it in params="..."')
        match = _UNDEFINED_PARAMETERS.search(text)
        if match:
            missing = ', '.join(part.strip() for part in match.group(1).split(','))
            return (f'the call of macro "{_macro_name(_macro(item))}" leaves out {missing} '
                    '(no default)', f'give {missing} in the call, or a default in params="..."')
        match = _UNKNOWN_MACRO.search(text)
        if match:
            return (f'no macro named "{match.group(1)}" is defined here',
                    'define it with <xacro:macro name="..."> or include the file that does')
    # Anything else: the innermost distinct sentences, outer context first, once each.
    parts: list[str] = []
    for item in chain:
        text = _own_text(item, xacro)
        if text and not any(text in part or part in text for part in parts):
            parts.append(' '.join(text.split()))
    message = ': '.join(parts) or type(exc).__name__
    if expression and f"'{expression}'" not in message:
        message = f'${{{expression}}}: {message}'
    return message, None
