"""
Material rules: undefined and redefined material names, colour range, texture files.

urdfdom's material table (``model.cpp``, ``assignMaterial``) holds the global materials, then
each inline material with a colour or texture under a name not taken yet, looked up by name: a
name-only material must name a global or *earlier* one, an inline material of a taken name
loses its colour, ``name=""`` bypasses the table. rgba outside [0, 1] is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
import math
import os

from ..registry import check, CheckContext, format_value, rule
from ...findings import Finding, Severity
from ...model.robot import Material

UNDEFINED = rule('material-undefined', Severity.WARNING,
                 'a visual names a material that is defined nowhere before it and gives no '
                 'color or texture', source='urdfdom',
                 reference='urdfdom model.cpp (assignMaterial: "material undefined")')
REDEFINED = rule('material-redefined', Severity.WARNING,
                 "a visual's inline material reuses a taken name with another color or "
                 'texture; urdfdom keeps the first definition')
RGBA_RANGE = rule('material-rgba-out-of-range', Severity.WARNING,
                  'a color rgba component is outside [0, 1]', source='urdfdom',
                  reference='URDF spec, link/visual/material/color (rgba in [0, 1]); urdfdom '
                            'drops the colour, urdf_parser_py keeps it')
TEXTURE_MISSING = rule('material-texture-missing', Severity.WARNING,
                       'a texture file cannot be resolved or does not exist')


def _defines(material: Material) -> bool:
    return material.color is not None or material.texture is not None


def _describe(material: Material) -> str:
    parts = []
    if material.color is not None:
        parts.append(f'rgba="{" ".join(format_value(c) for c in material.color)}"')
    if material.texture is not None:
        parts.append(f'texture "{material.texture}"')
    return ' and '.join(parts)


def _all_materials(ctx: CheckContext) -> Iterator[tuple[str, str, Material]]:
    """Yield ``(element, owner text, material)`` for global and inline materials, file order."""
    for material in ctx.robot.materials:
        yield f'material:{material.name}', f'material "{material.name}"', material
    for link in ctx.robot.links:
        for index, visual in enumerate(link.visuals, 1):
            if visual.material is not None:
                label = f'"{visual.name}"' if visual.name else f'#{index}'
                yield (f'link:{link.name}', f'link "{link.name}": visual {label} material '
                       f'"{visual.material.name}"', visual.material)


@check(codes=(UNDEFINED, REDEFINED))
def check_references(ctx: CheckContext) -> Iterator[Finding]:
    """Report undefined name-only materials and inline materials urdfdom replaces."""
    table: dict[str, tuple[Material, bool]] = {}
    for material in ctx.robot.materials:
        if _defines(material):
            table.setdefault(material.name, (material, True))
    for element, owner, material in _all_materials(ctx):
        if element.startswith('material:') or not material.name:
            continue  # urdfdom skips the table for name="" (the visual keeps its own colour)
        where = material.location
        entry = table.get(material.name)
        if not _defines(material):
            if entry is None:
                yield ctx.finding(UNDEFINED, element,
                                  f'{owner} is not defined: no global <material> and no earlier '
                                  'visual defines it, and it has no <color> or <texture>; the '
                                  'visual gets no colour', where,
                                  f'add <material name="{material.name}"><color rgba="..."/>'
                                  '</material> under <robot>, or a <color> here')
            continue
        if entry is None:
            table[material.name] = (material, False)
            continue
        first, is_global = entry
        if (first.color, first.texture) == (material.color, material.texture):
            continue
        at = f' at {first.location}' if first.location is not None else ''
        which = 'the global <material>' if is_global else "an earlier visual's material"
        yield ctx.finding(REDEFINED, element,
                          f'{owner} gives {_describe(material)}, but {which} "{material.name}"'
                          f'{at} gives {_describe(first)}: rviz, Gazebo and MoveIt show that one',
                          where,
                          'give this material its own name')


@check(codes=(RGBA_RANGE, TEXTURE_MISSING))
def check_values(ctx: CheckContext) -> Iterator[Finding]:
    """Report rgba components outside [0, 1] and texture files that are not there."""
    for element, owner, material in _all_materials(ctx):
        if material.color is not None and any(
                math.isfinite(c) and not 0.0 <= c <= 1.0 for c in material.color):
            rgba = ' '.join(format_value(c) for c in material.color)
            clamped = ' '.join(format_value(min(max(c, 0.0), 1.0)) for c in material.color)
            yield ctx.finding(RGBA_RANGE, element,
                              f'{owner}: color rgba="{rgba}" has a component outside [0, 1]; '
                              'urdfdom drops the colour', material.location,
                              f'<color rgba="{clamped}"/> (components are fractions, not 0-255)')
        if material.texture is not None:
            reason = _texture_missing(material)
            if reason is not None:
                yield ctx.finding(TEXTURE_MISSING, element,
                                  f'{owner}: texture "{material.texture}": {reason}',
                                  material.location)


def _texture_missing(material: Material) -> str | None:
    """Say why the texture file is not there, or return ``None`` when it exists."""
    texture = material.texture or ''
    if material.texture_resolved is None:
        if texture.startswith('package://'):
            package = texture[len('package://'):].partition('/')[0]
            return f'package "{package}" is not found, so the path cannot be resolved'
        return 'the path cannot be resolved to a local file'
    if not os.path.isfile(material.texture_resolved):
        return f'the file {material.texture_resolved} does not exist'
    return None
