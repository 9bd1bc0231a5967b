"""
``urdf-tools lsp``: a Language Server Protocol server on stdio over the checker.

The protocol is in :mod:`.server` (pygls 2 and lsprotocol, the optional ``[lsp]`` extra: only
``urdf-tools lsp`` imports them); what it serves is plain Python, testable without a client:
:mod:`.documents` (which files it checks, the editor's unsaved text), :mod:`.workspace` (the
packages of the workspace's ``package.xml`` folders, the entry files that include a xacro file),
:mod:`.checking` (the check pipeline of ``urdf-tools check`` on the editor's text),
:mod:`.ranges` (a finding's line and columns), :mod:`.diagnostics` (a finding as an LSP
diagnostic), :mod:`.actions` (the mechanical fixes and the suppression comment as edits),
:mod:`.symbols` (the xacro definitions and what a position names), :mod:`.hover`,
:mod:`.definition` and :mod:`.completion` (from the last check's model and the editor's text).
Nothing but the ``lsp`` subcommand imports this package.
"""
