"""The rule families, one module each; importing one registers its checks (:mod:`..registry`)."""
