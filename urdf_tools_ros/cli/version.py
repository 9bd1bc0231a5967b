"""The package version, looked up only when asked (``importlib.metadata`` is slow to import)."""

from __future__ import annotations


def version() -> str:
    """
    The installed package's version, else the source checkout's (``package.xml``).

    :return: e.g. ``'0.4.0'``; ``'unknown'`` when neither is found.
    """
    from importlib.metadata import PackageNotFoundError, version as installed

    try:
        return installed('urdf_tools_ros')
    except PackageNotFoundError:
        pass
    from pathlib import Path
    import re

    package_xml = Path(__file__).resolve().parents[2] / 'package.xml'
    found = re.search(r'<version>([^<]+)</version>', package_xml.read_text()) \
        if package_xml.is_file() else None
    return found.group(1).strip() if found else 'unknown'
