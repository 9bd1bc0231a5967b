"""
URDF ``<texture>`` images in the 3D view: read (:func:`load_texture`) and how each is drawn.

A material given only as a ``<texture>`` (no ``<color>``) is drawn with its image where the
file is readable: mapped onto a mesh part that has texture coordinates and no material of its
own (an OBJ with ``vt``), as a textured glTF (viser's ``add_mesh_trimesh``); every other shape
gets the image's mean colour (:func:`mean_rgba`), because viser's box, cylinder and sphere take
one colour and no texture, and URDF does not say how an image wraps a primitive (rviz uses
Ogre's built-in shapes' coordinates). An unreadable or missing texture leaves the default
colour (the checker reports ``material-texture-missing``). Images are read with Pillow, which
viser depends on (through imageio). No viser here: :mod:`.scene` draws what this decides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from urdf_tools_ros.core.model.robot import RGBA, Robot, Visual
from urdf_tools_ros.core.source.packages import draw_path, PackageLocator

__all__ = ['Texture', 'TextureUse', 'load_texture', 'mean_rgba', 'texture_use', 'visual_texture']


@dataclass(frozen=True)
class Texture:
    """
    A ``<texture>`` image as the view draws it.

    :ivar image: (H, W, 4) uint8 RGBA pixels, the first row at the top.
    :ivar rgba: Its mean colour (:func:`mean_rgba`), each in [0, 1]: what a shape without
        texture coordinates is coloured with.
    """

    image: npt.NDArray[np.uint8] = field(compare=False, repr=False)
    rgba: RGBA


def mean_rgba(image: npt.NDArray[np.uint8]) -> RGBA:
    """
    The mean colour of an RGBA image: red, green and blue weighted by alpha, and the mean alpha.

    Transparent pixels add nothing to the colour; a wholly transparent image gives its plain mean
    colour (at alpha 0).

    :param image: (H, W, 4) uint8 pixels.
    :return: ``(r, g, b, a)``, each in [0, 1].
    """
    pixels = np.asarray(image, dtype=np.float64).reshape(-1, 4) / 255.0
    alpha = pixels[:, 3]
    weights = alpha if alpha.sum() > 0.0 else np.ones_like(alpha)
    r, g, b = (float(v) for v in (pixels[:, :3] * weights[:, None]).sum(axis=0) / weights.sum())
    return (r, g, b, float(alpha.mean()) if len(alpha) else 1.0)


def load_texture(path: str) -> Texture:
    """
    Read an image file (PNG, JPEG, ... whatever Pillow reads) as an RGBA texture.

    :param path: Local path of the image.
    :raises FileNotFoundError: if the file does not exist.
    :raises OSError: if Pillow cannot read it (``PIL.UnidentifiedImageError`` is one).
    :raises ImportError: if Pillow is not installed.
    """
    from PIL import Image
    with Image.open(path) as opened:
        image = np.asarray(opened.convert('RGBA'), dtype=np.uint8)
    if image.size == 0:
        raise OSError(f'{path}: the image has no pixels')
    return Texture(image, mean_rgba(image))


@dataclass(frozen=True)
class TextureUse:
    """
    How the texture of one visual is drawn.

    :ivar link: The link the visual belongs to.
    :ivar texture: The ``<texture filename>`` as written.
    :ivar path: The local file read, or ``None`` when it cannot be resolved.
    :ivar drawn: ``'image'`` (mapped onto at least one mesh part), ``'mean colour'`` (the shape
        coloured with the image's mean colour) or ``'default'`` (not readable: the default
        colour).
    :ivar rgba: The colour of what is not mapped: the image's mean colour, or the default.
    :ivar reason: Why the texture is not used (``drawn == 'default'``), else ``''``.
    """

    link: str
    texture: str
    path: str | None
    drawn: str
    rgba: RGBA
    reason: str = ''


def visual_texture(robot: Robot, visual: Visual,
                   locate: PackageLocator | None = None) -> tuple[str, str | None] | None:
    """
    The texture of a visual whose material has a ``<texture>`` and no ``<color>``.

    :param robot: The model (a named material is resolved to the global one).
    :param visual: The ``<visual>``.
    :param locate: The description's package locator, for a ``package:///pkg`` slip
        (:func:`~urdf_tools_ros.core.source.packages.draw_path`).
    :return: ``(filename as written, local path or None when it cannot be resolved)``, or
        ``None`` when the material has a colour or no texture.
    """
    if visual.material is None:
        return None
    material = robot.material(visual.material)
    if material.color is not None or not material.texture:
        return None
    return material.texture, draw_path(material.texture, material.texture_resolved, locate)


def texture_use(robot: Robot, link: str, visual: Visual, read: Callable[[str], Texture],
                default: RGBA, locate: PackageLocator | None = None
                ) -> tuple[TextureUse, Texture | None] | None:
    """
    Read the texture of a visual's texture-only material and say how it is drawn.

    :param robot: The model.
    :param link: The link's name.
    :param visual: The ``<visual>``.
    :param read: Reads an image file (:func:`load_texture`, or a cache of it).
    :param default: The colour of a visual whose texture cannot be read.
    :param locate: The description's package locator.
    :return: ``None`` when the material is not texture-only; else the use (``'mean colour'``
        when read, ``'default'`` with the reason otherwise) and the image read, or ``None``.
    """
    found = visual_texture(robot, visual, locate)
    if found is None:
        return None
    filename, path = found
    if path is None:
        return TextureUse(link, filename, None, 'default', default,
                          'the path cannot be resolved (see material-texture-missing)'), None
    try:
        image = read(path)
    except FileNotFoundError:
        return TextureUse(link, filename, path, 'default', default,
                          f'the file {path} does not exist (see material-texture-missing)'), None
    except (OSError, ImportError, ValueError) as exc:
        return TextureUse(link, filename, path, 'default', default,
                          f'it cannot be read as an image: {exc}'), None
    return TextureUse(link, filename, path, 'mean colour', image.rgba), image
