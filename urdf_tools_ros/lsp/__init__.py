"""
``urdf-tools lsp``: a Language Server Protocol server on stdio over the checker.

The protocol is in :mod:`.server` (pygls 2, lsprotocol); the rest is plain Python:
:mod:`.documents` (the editor's text), :mod:`.workspace` (packages, include graph),
:mod:`.checking` (the check pipeline on the editor's text), :mod:`.ranges`, :mod:`.diagnostics`,
:mod:`.actions` (fixes, suppressions), :mod:`.symbols` (xacro definitions, what a position
names), :mod:`.hover`, :mod:`.definition`, :mod:`.completion`.
"""
