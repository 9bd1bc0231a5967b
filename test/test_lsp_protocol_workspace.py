"""
``urdf-tools lsp`` keeps up with the workspace and the editor's settings, with a real client.

pytest-lsp (pytest >= 8: the pytest-9 stage runs these; they skip, with the reason, on 6.2.5 and
7.4.4). Each test writes a small workspace into ``tmp_path`` and starts its own server:
settings from ``initializationOptions`` and ``workspace/configuration``, files changed on disk
(``workspace/didChangeWatchedFiles``), workspace folders added, a file of macros that nothing
includes, and one that a new entry includes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsp_client import diagnostics, initialize, MISSING, open_file, PYTEST_MARKS, ROBOT, server
import pytest

pytestmark = PYTEST_MARKS
if MISSING is None:
    from lsprotocol import types
    from pytest_lsp import LanguageClient

#: A file of one macro whose body has a joint with a non-unit axis.
MACROS = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="arm" params="prefix">
    <link name="${prefix}a"/>
    <link name="${prefix}b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
    <joint name="${prefix}j" type="revolute"><parent link="${prefix}a"/><child link="${prefix}b"/>
      <axis xyz="0 0 2"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/>
    </joint>
  </xacro:macro>
</robot>
"""  # noqa: E501
#: An entry that includes ``macros.xacro`` (by ``$(find desc)``) and calls its macro.
ENTRY = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find {package})/urdf/macros.xacro"/>
  <xacro:arm prefix="left_"/>
</robot>
"""
PACKAGE = """<?xml version="1.0"?>
<package format="3"><name>{name}</name><version>0.0.0</version>
<description>d</description><maintainer email="a@b.c">a</maintainer><license>BSD</license>
</package>
"""


def package(folder: Path, name: str, files: dict[str, str]) -> Path:
    """A ROS package ``name`` in ``folder/name`` with ``files`` (relative path: text)."""
    root = folder / name
    (root / 'urdf').mkdir(parents=True)
    (root / 'package.xml').write_text(PACKAGE.format(name=name))
    for relative, text in files.items():
        (root / relative).write_text(text)
    return root


async def start(tmp_path: Path, folders: Sequence[Path], options: Any = None,
                configuration: Any = None, watch: bool = False,
                ament_prefix_path: str = '') -> LanguageClient:
    """A client connected to a new ``urdf-tools lsp``, initialized with ``folders``."""
    client = await server(AMENT_PREFIX_PATH=ament_prefix_path).start()
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    if configuration is not None:
        client.set_configuration(configuration, section='urdf-tools')
    await initialize(client, folders, types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration is not None, workspace_folders=True,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=watch))), options)
    return client


async def stop(client: LanguageClient) -> None:
    await client.shutdown_session()
    await client.stop()


def line_of(found: Sequence[types.Diagnostic], code: str) -> int:
    """The 0-based line of the diagnostic ``code`` of ``found``."""
    return next(diagnostic.range.start.line for diagnostic in found if diagnostic.code == code)


def codes(found: Sequence[types.Diagnostic]) -> set[str]:
    return {str(diagnostic.code) for diagnostic in found}


@pytest.mark.asyncio
async def test_initialization_options_select_ignore_and_entries(tmp_path: Path) -> None:
    """``ignore`` drops a code; an entry's ``args`` reach xacro, relative to the folder."""
    root = package(tmp_path, 'desc', {'urdf/r.urdf': ROBOT, 'urdf/macros.xacro': MACROS,
                                      'urdf/arg.urdf.xacro': ARG_ENTRY})
    client = await start(tmp_path, [root], {'ignore': ['root-body-massless'], 'entries': [
        {'file': 'urdf/arg.urdf.xacro', 'args': {'with_arm': 'true'}}]})
    try:
        found = await diagnostics(client, open_file(client, root / 'urdf' / 'r.urdf'), bool)
        assert codes(found) == {'joint-axis-not-unit'}
        # without the entry's argument the macro is not called: no joint in macros.xacro
        uri = open_file(client, root / 'urdf' / 'macros.xacro')
        found = await diagnostics(client, uri, bool)
        assert 'joint-axis-not-unit' in codes(found)
        assert line_of(found, 'joint-axis-not-unit') == 6
    finally:
        await stop(client)


#: An entry that calls the macro only when its argument ``with_arm`` is true.
ARG_ENTRY = """<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="with_arm" default="false"/>
  <xacro:include filename="macros.xacro"/>
  <link name="base"/>
  <xacro:if value="$(arg with_arm)"><xacro:arm prefix="left_"/></xacro:if>
</robot>
"""


@pytest.mark.asyncio
async def test_workspace_configuration_is_asked_and_wrong_settings_are_said(
        tmp_path: Path) -> None:
    """The server asks for the ``urdf-tools`` section; a wrong value is shown, not applied."""
    root = package(tmp_path, 'desc', {'urdf/r.urdf': ROBOT})
    client = await start(tmp_path, [root], configuration={'select': ['joint-axis-not-unit']})
    try:
        found = await diagnostics(client, open_file(client, root / 'urdf' / 'r.urdf'), bool)
        assert codes(found) == {'joint-axis-not-unit'}
        client.set_configuration({'select': ['no-such-rule']}, section='urdf-tools')
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(None))
        for _ in range(400):
            if client.messages:
                break
            await asyncio.sleep(0.05)
        assert 'no-such-rule' in client.messages[-1].message
        assert client.messages[-1].type == types.MessageType.Error
        client.set_configuration({'select': [], 'debounce': -5}, section='urdf-tools')
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(None))
        for _ in range(400):
            if len(client.messages) > 1:
                break
            await asyncio.sleep(0.05)
        assert 'debounce must be a number of ms' in client.messages[-1].message
        client.set_configuration({'ignore': ['joint-axis-not-unit']}, section='urdf-tools')
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(None))
        found = await diagnostics(client, root.joinpath('urdf', 'r.urdf').as_uri(),
                                  lambda found: 'joint-axis-not-unit' not in codes(found))
        assert codes(found) == {'root-body-massless'}
    finally:
        await stop(client)


#: A link drawn as a <capsule>: an error for the ROS targets (urdfdom before 5.1 and RViz
#: refuse or drop it), a warning for MuJoCo.
CAPSULE = """<?xml version="1.0"?>
<robot name="r">
  <link name="a"><visual><geometry><capsule radius="0.1" length="0.2"/></geometry></visual></link>
</robot>
"""


@pytest.mark.asyncio
async def test_the_target_of_the_settings_decides_severities(tmp_path: Path) -> None:
    root = package(tmp_path, 'desc', {'urdf/cap.urdf': CAPSULE})
    for target, severity in ((None, types.DiagnosticSeverity.Error),
                             ('mujoco', types.DiagnosticSeverity.Warning)):
        client = await start(tmp_path, [root], {'target': target, 'debounce': 10})
        try:
            found = await diagnostics(client, open_file(client, root / 'urdf' / 'cap.urdf'),
                                      lambda found: 'geometry-unknown' in codes(found))
            assert [d.severity for d in found if d.code == 'geometry-unknown'] == [severity]
        finally:
            await stop(client)


@pytest.mark.asyncio
async def test_files_changed_on_disk_and_new_entries(tmp_path: Path) -> None:
    """
    A watcher is registered; a file of macros alone is not an entry; a new entry includes it.

    Then a change on disk to the unopened entry is seen through the watcher's notification.
    """
    root = package(tmp_path, 'desc', {'urdf/macros.xacro': MACROS})
    client = await start(tmp_path, [root], watch=True)
    try:
        uri = open_file(client, root / 'urdf' / 'macros.xacro')
        found = await diagnostics(client, uri, bool)
        assert codes(found) == {'description-not-an-entry'}
        assert found[0].severity == types.DiagnosticSeverity.Information
        patterns = [watcher['globPattern'] for registration in client.registrations
                    for watcher in registration.register_options['watchers']]
        assert '**/*.xacro' in patterns and '**/package.xml' in patterns

        entry = root / 'urdf' / 'robot.urdf.xacro'
        entry.write_text(ENTRY.format(package='desc'))
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([
            types.FileEvent(entry.as_uri(), types.FileChangeType.Created)]))
        found = await diagnostics(client, uri, lambda found: 'joint-axis-not-unit' in codes(found))
        assert 'description-not-an-entry' not in codes(found)
        assert line_of(found, 'joint-axis-not-unit') == 6

        entry.write_text(ENTRY.format(package='desc').replace('<xacro:arm prefix="left_"/>', ''))
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([
            types.FileEvent(entry.as_uri(), types.FileChangeType.Changed)]))
        await diagnostics(client, uri, lambda found: 'joint-axis-not-unit' not in codes(found))

        entry.unlink()
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([
            types.FileEvent(entry.as_uri(), types.FileChangeType.Deleted)]))
        found = await diagnostics(client, uri,
                                  lambda found: 'description-not-an-entry' in codes(found))
    finally:
        await stop(client)


@pytest.mark.asyncio
async def test_an_added_workspace_folder_brings_its_packages(tmp_path: Path) -> None:
    """A package found in a folder added later resolves the entry's ``$(find)``."""
    root = package(tmp_path / 'ws', 'robot_bringup',
                   {'urdf/robot.urdf.xacro': ENTRY.format(package='arm_description')})
    other = package(tmp_path / 'elsewhere' / 'deep', 'arm_description',
                    {'urdf/macros.xacro': MACROS})
    client = await start(tmp_path, [root])
    try:
        uri = open_file(client, root / 'urdf' / 'robot.urdf.xacro')
        found = await diagnostics(client, uri, bool)
        assert codes(found) == {'description-unloadable'}
        assert 'arm_description' in found[0].message
        assert 'source ROS in the shell that starts the editor' in found[0].message
        assert 'packagePath' in found[0].message
        client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
            types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(other.as_uri(), 'arm')], removed=[])))
        found = await diagnostics(
            client, other.joinpath('urdf', 'macros.xacro').as_uri(),
            lambda found: 'joint-axis-not-unit' in codes(found))
        await diagnostics(client, uri, lambda found: 'description-unloadable' not in codes(found))
    finally:
        await stop(client)


@pytest.mark.asyncio
async def test_packages_of_the_colcon_workspace_and_of_a_sourced_ros(tmp_path: Path) -> None:
    """
    A workspace folder that is one package finds its sibling in ``src``; a sourced ROS's.

    The sourced ROS is a prefix laid out as an install (``share/ament_index/resource_index/
    packages/NAME``), given to the server only through ``AMENT_PREFIX_PATH``.
    """
    source = tmp_path / 'ws' / 'src'
    root = package(source, 'robot_bringup', {
        'urdf/robot.urdf.xacro': ENTRY.format(package='arm_description'),
        'urdf/sourced.urdf.xacro': ENTRY.format(package='sourced_description')})
    package(source / 'arms', 'arm_description', {'urdf/macros.xacro': MACROS})
    prefix = tmp_path / 'opt' / 'ros'
    package(prefix / 'share', 'sourced_description', {'urdf/macros.xacro': MACROS})
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'sourced_description').write_text('')
    client = await start(tmp_path, [root], ament_prefix_path=str(prefix))
    try:
        for name, share in (('robot.urdf.xacro', source / 'arms' / 'arm_description'),
                            ('sourced.urdf.xacro', prefix / 'share' / 'sourced_description')):
            found = await diagnostics(client, open_file(client, root / 'urdf' / name),
                                      lambda found: True)
            assert not found, found  # it loads: its findings stand in the file of the macro
            found = await diagnostics(client, share.joinpath('urdf', 'macros.xacro').as_uri(),
                                      bool)
            assert 'joint-axis-not-unit' in codes(found)
    finally:
        await stop(client)
