"""
The model stage: the typed URDF model and the one reader that makes it from XML.

* :mod:`.robot`: the whole URDF spec as frozen dataclasses (:class:`~.robot.Robot`, ...);
* :mod:`.values`: what the reader needs to know about attribute values and names;
* :mod:`.reader`: the one URDF reader (XML element tree -> model, with every element's line);
* :mod:`.convert`: down-conversion of URDF 1.1/1.2 to 1.0.

Nothing here reads files or runs xacro (:mod:`..source`).
"""
