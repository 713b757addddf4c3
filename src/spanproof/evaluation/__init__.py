"""Quality measurement: development-data loaders and the adversarial classes of the seed.

Owns: reading the labelled data sets (read-only, from outside the repo) and building
adversarial claims from real sentences.
May import: core, text, verify; the standard library.
Must not: ship data: everything is read from the data folder at run time.
"""
