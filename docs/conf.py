"""Sphinx configuration of the urdf_tools_ros manual (built by scripts/docs.sh)."""

from pathlib import Path
import sys

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / '_ext'))
sys.path.insert(0, str(HERE.parent))

project = 'urdf_tools_ros'
author = 'urdf_tools_ros maintainers'
copyright = 'urdf_tools_ros maintainers'

extensions = ['myst_parser', 'sphinx.ext.autodoc', 'generated_pages']
source_suffix = {'.md': 'markdown', '.rst': 'restructuredtext'}
root_doc = 'index'
exclude_patterns = ['_build']
myst_heading_anchors = 3
myst_enable_extensions = ['colon_fence']

# Type hints in the signatures only (the docstrings say shapes, units and frames in words);
# members in source order, as each module is written to be read.
autodoc_typehints = 'signature'
autodoc_member_order = 'bysource'
autodoc_default_options = {'undoc-members': False}

html_theme = 'alabaster'
html_title = 'urdf_tools_ros'
html_show_sourcelink = False
