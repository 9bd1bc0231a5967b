"""
URDF ``<texture>`` images in the 3D view: read (:func:`load_texture`) and how each is drawn.

A texture-only material is mapped onto mesh parts with texture coordinates and no material of
their own; every other shape gets the image's mean colour (URDF does not say how an image wraps
a primitive); an unreadable texture leaves the default colour. Images are read with Pillow.
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
    :ivar rgba: Its mean colour (:func:`mean_rgba`), each in [0, 1].
    """

    image: npt.NDArray[np.uint8] = field(compare=False, repr=False)
    rgba: RGBA


def mean_rgba(image: npt.NDArray[np.uint8]) -> RGBA:
    """
    The mean colour ``(r, g, b, a)`` in [0, 1] of an (H, W, 4) uint8 image, weighted by alpha.

    A wholly transparent image gives its plain mean colour (at alpha 0).
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
    :ivar drawn: ``'image'`` (mapped onto a mesh part), ``'mean colour'`` or ``'default'``.
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

    :param locate: The description's package locator.
    :return: ``(filename as written, local path or None)``, or ``None`` when the material has a
        colour or no texture.
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

    :param read: Reads an image file (:func:`load_texture`, or a cache of it).
    :param default: The colour of a visual whose texture cannot be read.
    :return: ``None`` when the material is not texture-only; else the use and the image read
        (``None`` when it cannot be).
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
