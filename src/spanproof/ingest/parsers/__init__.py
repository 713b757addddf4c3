"""One parser per format; each exposes ``parse(raw: bytes) -> ParsedDocument``.

Owns: JATS, PubMed, plain text, Markdown, HTML, CSV and SciFact JSONL parsing, the shared XML
safety limits (``_xml``), and format detection (``detect.parse_bytes``).
May import: ``spanproof.core``, ``spanproof.text``, the standard library and ``defusedxml``.
Must not: do I/O beyond the bytes handed in; every failure is a ``ParseFailure`` with a reason code.

Conventions shared by every parser:

* Section and document titles and section texts pass through ``canonical_text`` exactly once.
* The document title is ``ParsedDocument.title``, not a section of its own (plain text, whose
  title is only a guess, keeps that first line in ``p1``).
* Headings with no text of their own are kept as sections with empty text (the outline), so
  keys stay positional: ``s2`` stays ``s2`` whether or not ``s1`` has text.
* Tables flatten to ``cell | cell`` rows joined with ``"; "`` (canonical text has no newlines).
* ``<sup>`` right after a digit is written ``^`` + content (``10<sup>6</sup>`` → ``10^6``), so an
  exponent is not read as a longer number; a JATS citation ``<sup>``/``<xref>`` glued to a word
  gets a space (``diabetes 1``). Other inline markup adds no characters.
* Limits: input over 50 MiB; more than 250,000 sections or headings; in XML, attribute values
  over 1 MiB, nesting deeper than 200 or more than 1,000,000 elements → ``too_large``. Every
  parser is linear in its input (the HTML tokenizer is our own for that reason); on hostile
  50 MiB inputs the slowest measured cases (tiny Markdown list or table lines) take about 30 s.
"""

from spanproof.ingest.parsers.detect import parse_bytes

__all__ = ["parse_bytes"]
