"""Mechanical fixes: edits of the source files planned from findings (:mod:`.edits`)."""
