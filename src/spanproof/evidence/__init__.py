"""Evidence records (SPEC §5): extraction, the gate, the five checks, decisions and faults.

Pure: imports only ``spanproof.core`` and the pure packages (``text``, ``verify``); no I/O, no
store, no providers. Services drive these functions and keep the results (records, attempts).
"""
