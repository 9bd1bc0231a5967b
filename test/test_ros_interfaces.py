"""
Our GetResource stand-ins (scripts/ros/) are upstream's types.

RIHS01 hashes, fields and constants; a 1 MiB Response round-trips through rclpy.
"""

from __future__ import annotations

import array
import importlib
import json
import os
from pathlib import Path
import random
import sys
from typing import Any

import pytest
from ros_helpers import requires_ros

from conftest import missing

#: The types GetResource's description refers to, the same in every package (Jazzy, Kilted).
REFERENCED_HASHES = {
    'builtin_interfaces/msg/Time':
        'RIHS01_b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197',
    'service_msgs/msg/ServiceEventInfo':
        'RIHS01_41bcbbe07a75c9b52bc96bfd5c24d7f0fc0a08c0cb7921b3373c5732345a6f45',
}
#: RIHS01 hashes of upstream's GetResource (service, request, response, event), measured by
#: building upstream's definition with the rosidl toolchain of the PyPI wheels (Jazzy and Kilted
#: gave the same), at the commit named for each package.
UPSTREAM_HASHES = {
    # ros2/resource_retriever_service@aee4425d8ba9e88d76a922c0283eda4865c89fd1
    'resource_retriever_interfaces': {
        '': 'b3057d45e2a3f130fdf7b9ee90da80cd1a3de6ed02915dd4bff700c5b04c9186',
        '_Request': '7bcaea262619a7c4cfab286c8f3909123bc91333b8e7d732591b81ed682290e8',
        '_Response': '0f8640478009b2e75d500804825de8d126f2c825e8fbbb815e2775523b02ac41',
        '_Event': '1de55eab665d4f6b13f8e0ab7617d02e614fc2e0779aac4b7a24e9fc800411e1',
    },
    # ros2/rviz@7cc125d9ccd52582f20b2400d38c794f9260bd68 (rviz_resource_interfaces/srv/)
    'rviz_resource_interfaces': {
        '': 'f21666bca3a1354cd35a1d747d5c66a699a6a9ce79729550106d00825835a3a6',
        '_Request': '8e60838c0fb8fb33bc0656203f0018130ad15a42e48b5c3eef4a257a88b8460d',
        '_Response': '0f0cdf2799e383c64e47ac31ae65e096b5e823ffc62ce8148f838373e1c50d23',
        '_Event': '744d52f06cd00516b5550270876da0cb91d85d92bcba2d90fe1fdefb1be58966',
    },
}
pytestmark = requires_ros


def _package(name: str) -> Any:
    reason = missing(f'{name}.srv')
    return pytest.param(name, marks=pytest.mark.skipif(reason is not None, reason=str(reason)))


PACKAGES = [_package(name) for name in sorted(UPSTREAM_HASHES)]


def get_resource(package: str) -> Any:
    """The ``GetResource`` service type of ``package``."""
    return importlib.import_module(f'{package}.srv').GetResource


def share_directory(package: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``package``'s share folder in the ament index (AMENT_PREFIX_PATH, else this venv)."""
    reason = missing('ament_index_python.packages')
    if reason is not None:
        pytest.skip(reason)
    from ament_index_python.packages import get_package_share_directory, PackageNotFoundError

    # setup-ros.sh installs into the venv, which a venv's python reaches without the variable
    monkeypatch.setenv('AMENT_PREFIX_PATH', os.environ.get('AMENT_PREFIX_PATH') or sys.prefix)
    try:
        return Path(get_package_share_directory(package))
    except PackageNotFoundError as exc:
        pytest.skip(f'{package} is not in the ament index: {exc}')


@pytest.mark.parametrize('package', PACKAGES)
def test_type_hashes_are_upstreams(package: str, monkeypatch: pytest.MonkeyPatch) -> None:
    description = share_directory(package, monkeypatch) / 'srv' / 'GetResource.json'
    hashes = {entry['type_name']: entry['hash_string']
              for entry in json.loads(description.read_text())['type_hashes']}
    assert hashes == {**REFERENCED_HASHES, **{
        f'{package}/srv/GetResource{suffix}': f'RIHS01_{value}'
        for suffix, value in UPSTREAM_HASHES[package].items()}}


@pytest.mark.parametrize('package', PACKAGES)
def test_fields_and_constants(package: str) -> None:
    GetResource = get_resource(package)
    assert GetResource.Request.get_fields_and_field_types() == {'path': 'string',
                                                                'etag': 'string'}
    assert GetResource.Response.get_fields_and_field_types() == {
        'status_code': 'int32', 'error_reason': 'string', 'expanded_path': 'string',
        'etag': 'string', 'body': 'sequence<uint8>'}
    Response = GetResource.Response
    assert (Response.ERROR, Response.OK, Response.NOT_MODIFIED) == (0, 1, 2)


@pytest.mark.parametrize('package', PACKAGES)
def test_response_with_1_mib_body_round_trips(package: str) -> None:
    from rclpy.serialization import deserialize_message, serialize_message

    Response = get_resource(package).Response
    data = random.Random(0).randbytes(1 << 20)
    response = Response(status_code=Response.OK, expanded_path='/share/bot/meshes/base.stl',
                        etag='sha256:0123', body=array.array('B', data))
    back = deserialize_message(serialize_message(response), Response)
    assert bytes(back.body) == data
    assert (back.status_code, back.error_reason, back.expanded_path, back.etag) == \
        (Response.OK, '', '/share/bot/meshes/base.stl', 'sha256:0123')
    assert back == response
