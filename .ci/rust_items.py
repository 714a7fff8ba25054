"""The bits of Rust's item grammar that the CI scripts read source with.

Shared by `doc_coverage.py` (which items are public and documented) and
`module_cycles.py` (which names a module defines), so both read items the same way.
"""

# Qualifiers that may stand before an item keyword: `const fn`, `unsafe fn`, `extern "C" fn`.
QUALIFIERS = r"(?:(?:const|async|unsafe|extern\s+\"[^\"]*\")\s+)*"
# The keywords that start an item, with the item's name after them.
KINDS = r"(fn|struct|enum|trait|union|const|static|type|mod)"
# A visibility: `pub`, `pub(crate)`, `pub(super)`, `pub(in path)`.
VISIBILITY = r"pub(?:\([^)]*\))?"
# An identifier.
NAME = r"([A-Za-z_][A-Za-z0-9_]*)"
