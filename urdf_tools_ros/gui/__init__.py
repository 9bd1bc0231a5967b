"""
Joint sliders and a live 3D view of a robot description in the browser, without ROS.

:class:`~urdf_tools_ros.gui.viewer.RobotViewer` serves a viser page (viser ships its own web
client): a slider per actuated joint (:mod:`.sliders`), the visual geometry posed by the core's
forward kinematics (:mod:`.scene`, meshes through trimesh in :mod:`.meshes`) and the check
report (:mod:`.page`). viser and trimesh are imported only when a viewer is made, so importing
this package (and the ``urdf-tools check`` command) works without them.
"""

from .viewer import ChangeCallback, RobotViewer

__all__ = ['ChangeCallback', 'RobotViewer']
