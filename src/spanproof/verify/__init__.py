"""Pure verification: lexical coverage, gates, fusion, candidates, bands, policy, decomposition.

Owns: the normative scoring of SPEC §4.4 (score model v1) and its successor v2 (§4.5).
May import: ``spanproof.core``, ``spanproof.text``, numpy.
Must not: do I/O, call models, or read settings: vectors and config arrive as arguments.
"""
