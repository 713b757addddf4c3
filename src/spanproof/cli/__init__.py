"""The command line: a thin shell over services, built through ``bootstrap``.

Owns: argument parsing, reading input files, rendering tables and JSON, mapping errors to exit
codes (in one place: ``errors.py``).
May import: everything except adapters directly (``providers``): those come from ``bootstrap``.
"""
