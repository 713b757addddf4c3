"""Pure domain: data models, errors and ports (Protocols).

Owns: the types every other package speaks in.
May import: the standard library and numpy (for embedding arrays) only.
Must not: do I/O, read settings, or import any other spanproof package.
"""
