"""Public test doubles and helpers for spanproof's own tests and for its users' tests.

Owns: fakes that implement the same ports as the real adapters, and loopback test servers.
May import: ``spanproof.core``, ``spanproof.text``, ``spanproof.verify``, the standard library.
Must not: call a real model or reach the network beyond loopback.
"""
