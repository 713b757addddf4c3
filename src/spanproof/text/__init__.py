"""Pure text primitives: NFC, UAX-29 word tokens with offsets, numerics, sentences.

Owns: the one tokenisation every score uses (SPEC §4.4).
May import: the standard library and ``regex``.
Must not: do I/O or know about claims, spans or models.
"""
