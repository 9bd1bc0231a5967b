"""xacro through its public API (:mod:`.runner`); its failures in plain words (:mod:`.errors`)."""
