"""
``urdf-tools lsp``: a Language Server Protocol server on stdio over the checker.

:mod:`.app` builds it: :mod:`.server` (pygls 2: documents, checks, diagnostics, hover,
definition, completion, fixes), :mod:`.live`, :mod:`.navigation` and :mod:`.view` register
their own requests; the rest is plain Python (:mod:`.checking`, :mod:`.symbols`, ...).
"""
