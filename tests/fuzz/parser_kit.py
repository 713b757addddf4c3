"""Parser fuzz properties: structured, mutated and hostile inputs for every format, and large
inputs for the memory bound. Any exception other than ``ParseFailure`` escaping a parser fails.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz_kit import Property, hard_limit, hostile_text
from hypothesis import strategies as st

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers import csv, html, jats, markdown, pubmed, scifact, text
from spanproof.ingest.parsers.detect import parse_bytes
from spanproof.text.canonical import canonical_text

FIXTURES = Path(__file__).parents[1] / "fixtures" / "parsers"
#: Text marker of the local file the external-entity inputs point at: it must never be read.
SECRET = "SPANPROOF-FUZZ-SECRET-7f3a"

# --- parser inputs ---------------------------------------------------------------------------

ParserFn = Callable[[bytes], ParsedDocument]


def check_document(doc: ParsedDocument) -> None:
    """What every parsed document guarantees."""
    keys = [s.key for s in doc.sections]
    assert len(keys) == len(set(keys)), keys
    assert any(s.text for s in doc.sections)
    for body in (doc.title, *(s.text for s in doc.sections), *(s.title for s in doc.sections)):
        assert canonical_text(body) == body, ascii(body[:200])
        body.encode("utf-8")  # storable: no lone surrogates
    assert SECRET not in json.dumps([doc.title, [(s.title, s.text) for s in doc.sections]])
    json.dumps(doc.metadata, default=str)
    spans = doc.metadata.get("sentence_spans")
    if isinstance(spans, list):
        section = doc.sections[0].text
        for span in spans:
            assert span is None or 0 <= span[0] <= span[1] <= len(section)


def outcome_of(parse: ParserFn, raw: bytes) -> str:
    """``parsed`` (the document checked) or ``quarantined:<reason>``; anything else escapes."""
    try:
        doc = parse(raw)
    except ParseFailure as failure:
        assert failure.detail, failure
        return f"quarantined:{failure.reason}"
    check_document(doc)
    return "parsed"


_ENCODINGS = [
    "utf-8",
    "utf-8-sig",
    "utf-16",
    "utf-16-le",
    "utf-16-be",
    "utf-32",
    "latin-1",
    "cp1252",
    "shift_jis",
]


@st.composite
def encoded(draw: st.DrawFn, body: str) -> bytes:
    """``body`` in a random encoding (BOM or not); undecodable characters become ``?``."""
    encoding = draw(st.sampled_from(_ENCODINGS))
    return (
        body.encode(encoding, errors="replace")
        if encoding != "utf-8"
        else body.encode("utf-8", "surrogatepass")
    )


@st.composite
def mutated(draw: st.DrawFn, raw: bytes) -> bytes:
    """``raw`` truncated, with bytes flipped, inserted or deleted, or as is."""
    kind = draw(st.sampled_from(["as-is", "truncate", "flip", "insert", "delete", "splice"]))
    if not raw or kind == "as-is":
        return raw
    at = draw(st.integers(0, len(raw) - 1))
    if kind == "truncate":
        return raw[:at]
    if kind == "flip":
        return raw[:at] + bytes([raw[at] ^ draw(st.integers(1, 255))]) + raw[at + 1 :]
    if kind == "insert":
        return raw[:at] + draw(st.binary(min_size=1, max_size=16)) + raw[at:]
    if kind == "delete":
        return raw[:at] + raw[at + draw(st.integers(1, 64)) :]
    other = draw(st.sampled_from(_SEEDS))
    return raw[:at] + other[draw(st.integers(0, len(other))) :]


def _fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


_SEEDS = [
    _fixture(name)
    for name in (
        "jats_article.xml",
        "pubmed_efetch.xml",
        "page.html",
        "notes.md",
        "studies.csv",
        "letter.txt",
        "billion_laughs.xml",
        "external_entity.xml",
    )
]

_xml_text = st.text(st.characters(codec="utf-8", exclude_characters="<&"), max_size=40).map(
    lambda s: s.replace("]]>", "]]")
)
_XML_ESCAPES = [
    "&amp;",
    "&lt;",
    "&#233;",
    "&#x1F600;",
    "&#0;",
    "&#xD800;",
    "&#1114112;",
    "&nbsp;",
    "&undefined;",
    "<![CDATA[ a < b ]]>",
    "<!-- c -->",
    "<?pi x?>",
    "&#38;#38;",
]


@st.composite
def xml_tree(draw: st.DrawFn, tags: list[str], depth: int = 0) -> str:
    """A random element with attributes, mixed text, escapes and children from ``tags``."""
    tag = draw(st.sampled_from(tags))
    attrs = "".join(
        f' {name}="{value}"'
        for name, value in draw(
            st.dictionaries(
                st.sampled_from(
                    [
                        "id",
                        "sec-type",
                        "ref-type",
                        "rid",
                        "xlink:href",
                        "alttext",
                        "Label",
                        "NlmCategory",
                        "lang",
                        "content-type",
                    ]
                ),
                _xml_text.map(lambda s: s.replace('"', "&quot;")),
                max_size=3,
            )
        ).items()
    )
    parts = [draw(_xml_text)]
    if depth < 5:
        for _ in range(draw(st.integers(0, 4))):
            parts.append(draw(st.one_of(xml_tree(tags, depth + 1), st.sampled_from(_XML_ESCAPES))))
            parts.append(draw(_xml_text))
    return f"<{tag}{attrs}>{''.join(parts)}</{tag}>"


_JATS_TAGS = [
    "front",
    "article-meta",
    "title-group",
    "article-title",
    "abstract",
    "body",
    "sec",
    "title",
    "p",
    "table-wrap",
    "table",
    "thead",
    "tbody",
    "tr",
    "td",
    "th",
    "sup",
    "sub",
    "xref",
    "list",
    "list-item",
    "fig",
    "caption",
    "label",
    "mml:math",
    "alternatives",
    "tex-math",
    "italic",
    "bold",
    "back",
    "ref-list",
    "ref",
    "article-id",
    "disp-formula",
    "break",
    "graphic",
    "fn",
    "boxed-text",
]
_PUBMED_TAGS = [
    "MedlineCitation",
    "PMID",
    "Article",
    "ArticleTitle",
    "Abstract",
    "AbstractText",
    "Journal",
    "Title",
    "PubDate",
    "Year",
    "AuthorList",
    "Author",
    "LastName",
    "ArticleIdList",
    "ArticleId",
    "PubmedData",
    "OtherAbstract",
    "sup",
    "i",
    "b",
    "PublicationTypeList",
    "PublicationType",
    "CommentsCorrectionsList",
]
_PROLOGS = [
    "",
    '<?xml version="1.0"?>',
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<?xml version="1.0" encoding="ISO-8859-1"?>',
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<?xml version="1.0" encoding="nonsense-42"?>',
    '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS//EN" "JATS-archivearticle1.dtd">',
    "<!DOCTYPE PubmedArticleSet>",
    "<!-- a comment -->",
]
_NS = ' xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink"'


@st.composite
def jats_bytes(draw: st.DrawFn) -> bytes:
    inner = "".join(draw(st.lists(xml_tree(_JATS_TAGS), max_size=4)))
    body = f"{draw(st.sampled_from(_PROLOGS))}<article{_NS}>{inner}</article>"
    return draw(mutated(draw(encoded(body))))


@st.composite
def pubmed_bytes(draw: st.DrawFn) -> bytes:
    inner = "".join(draw(st.lists(xml_tree(_PUBMED_TAGS), max_size=4)))
    articles = f"<PubmedArticle>{inner}</PubmedArticle>" * draw(st.integers(1, 3))
    body = f"{draw(st.sampled_from(_PROLOGS))}<PubmedArticleSet>{articles}</PubmedArticleSet>"
    return draw(mutated(draw(encoded(body))))


_HTML_PIECES = [
    "<h1>",
    "</h1>",
    "<h3>",
    "<h7>",
    "<p>",
    "</p>",
    "<br>",
    "<br/>",
    "<table><tr><td>",
    "</td><td>",
    "</tr></table>",
    "<script>",
    "</script>",
    "<style>a{}</style>",
    "<!--",
    "-->",
    "<!",
    "<!DOCTYPE html>",
    "<title>",
    "</title>",
    "<sup>",
    "</sup>",
    "<a href='x'>",
    '<a href="x',
    "<img alt='alt'>",
    "&nbsp;",
    "&amp;",
    "&#xD800;",
    "&#0;",
    "&#99999999;",
    "&notanentity;",
    "<svg><text>x</text></svg>",
    "<",
    ">",
    "</",
    "<li>",
    "<ul>",
    "<div title='" + "t" * 50,
    "<template>",
    "<?php ?>",
    "<textarea>",
    "\x00",
    "<![CDATA[x]]>",
]


@st.composite
def html_bytes(draw: st.DrawFn) -> bytes:
    parts = draw(st.lists(st.one_of(st.sampled_from(_HTML_PIECES), hostile_text), max_size=40))
    return draw(mutated(draw(encoded("".join(parts)))))


_MD_LINES = [
    "# Title",
    "## Methods",
    "####### seven",
    "#",
    "Setext",
    "===",
    "---",
    "```",
    "~~~",
    "```python",
    "    indented code",
    "> quote",
    "- item",
    "* item",
    "1. item",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "<div>html</div>",
    "[link](http://x)",
    "![img](x.png)",
    "**bold** _it_",
    "***",
    "",
    "   ",
    "\\# escaped",
    "Term\n: definition",
    "[^1]: footnote",
    "<!-- comment -->",
    "#" * 300,
]


@st.composite
def markdown_bytes(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.one_of(st.sampled_from(_MD_LINES), hostile_text), max_size=40))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return draw(mutated(draw(encoded(newline.join(lines)))))


_CSV_CELLS = [
    "id",
    "text",
    "a",
    '"quoted, cell"',
    '"unterminated',
    '""',
    '"a ""b"" c"',
    "",
    " ",
    "x" * 200,
    "1,500",
    "\t",
    ";",
    "|",
    "\n",
    "\r\n",
    '"multi\nline"',
]


@st.composite
def csv_bytes(draw: st.DrawFn) -> bytes:
    delimiter = draw(st.sampled_from([",", "\t", ";", "|"]))
    rows = draw(
        st.lists(
            st.lists(st.one_of(st.sampled_from(_CSV_CELLS), hostile_text), min_size=1, max_size=5),
            max_size=12,
        )
    )
    body = "\n".join(delimiter.join(row) for row in rows)
    if draw(st.booleans()):
        body = "\ufeff" + body
    return draw(mutated(draw(encoded(body))))


_JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), hostile_text),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
_JSON_HOSTILE = [
    '{"doc_id": 1, "abstract": ["\\ud800 lone"]}',
    '{"doc_id": 1e999, "abstract": []}',
    '{"doc_id": ' + "9" * 5000 + ', "abstract": ["x"]}',
    '{"doc_id": NaN, "abstract": ["x"]}',
    '{"doc_id": 1, "abstract": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"doc_id": 1, "abstract": ["a"], "doc_id": 2}',
    '{"doc_id": "", "abstract": ["x"]}',
    '{"doc_id": 1, "abstract": ["x"]',
    '[{"doc_id": 1}]',
    "null",
    "{}",
    '{"doc_id": 3, "title": 5, "abstract": ["x"]}',
]


@st.composite
def scifact_bytes(draw: st.DrawFn) -> bytes:
    choice = draw(st.integers(0, 2))
    if choice == 0:
        obj: dict[str, Any] = {
            "doc_id": draw(st.one_of(st.integers(), st.text(max_size=8), _JSON_VALUES)),
            "title": draw(st.one_of(hostile_text, _JSON_VALUES)),
            "abstract": draw(st.one_of(st.lists(hostile_text, max_size=6), _JSON_VALUES)),
        }
        if draw(st.booleans()):
            obj["structured"] = draw(_JSON_VALUES)
        line = json.dumps(obj, ensure_ascii=draw(st.booleans()), allow_nan=True)
    elif choice == 1:
        line = draw(st.sampled_from(_JSON_HOSTILE))
    else:
        line = json.dumps(draw(_JSON_VALUES), allow_nan=True)
    return draw(mutated(line.encode("utf-8", "surrogatepass")))


@st.composite
def text_bytes(draw: st.DrawFn) -> bytes:
    return draw(mutated(draw(encoded(draw(hostile_text)))))


# --- hostile XML ------------------------------------------------------------------------------

_ROOTS = [
    ("article", "application/jats+xml"),
    ("PubmedArticleSet", "application/pubmed+xml"),
    ("article", "application/xml"),
    ("article", None),
    ("PubmedArticle", None),
]
_XML_MEDIA = {"application/jats+xml", "application/pubmed+xml", "application/xml"}


@st.composite
def entity_bombs(draw: st.DrawFn) -> tuple[bytes, str | None]:
    """Billion-laughs and quadratic-blowup documents of random depth, width and placement."""
    root, media = draw(st.sampled_from(_ROOTS))
    levels, width = draw(st.integers(1, 10)), draw(st.integers(2, 12))
    kind = draw(st.sampled_from(["laughs", "quadratic", "parameter", "attribute"]))
    if kind == "quadratic":
        decls = f'<!ENTITY a "{"x" * draw(st.integers(1, 50_000))}">'
        use = "&a;" * draw(st.integers(1, 5_000))
    elif kind == "parameter":
        decls = "<!ENTITY % p \"<!ENTITY lol 'lol'>\"> %p;"
        use = "&lol;"
    else:
        decls = '<!ENTITY lol0 "lol">' + "".join(
            f'<!ENTITY lol{i} "{f"&lol{i - 1};" * width}">' for i in range(1, levels + 1)
        )
        use = f"&lol{levels};"
    body = f'<p title="{use}">x</p>' if kind == "attribute" else f"<p>{use}</p>"
    doc = f"<!DOCTYPE {root} [{decls}]><{root}><body>{body}</body></{root}>"
    return draw(encoded(doc)), media


@st.composite
def external_entities(draw: st.DrawFn, secret_path: str) -> tuple[bytes, str | None]:
    """External-entity (XXE) documents that would read a local file holding :data:`SECRET`."""
    root, media = draw(st.sampled_from(_ROOTS))
    url = draw(st.sampled_from([f"file://{secret_path}", secret_path, "http://127.0.0.1:9/x"]))
    decl = draw(
        st.sampled_from(
            [
                f'<!ENTITY xxe SYSTEM "{url}">',
                f'<!ENTITY xxe PUBLIC "-//X//EN" "{url}">',
                f'<!ENTITY % xxe SYSTEM "{url}"> %xxe;',
                f'<!ENTITY xxe SYSTEM "{url}" NDATA gif>',
            ]
        )
    )
    doc = f"<!DOCTYPE {root} [{decl}]><{root}><body><p>&xxe;</p></body></{root}>"
    return draw(encoded(doc)), media


def check_entity_bomb(args: tuple[bytes, str | None]) -> str:
    raw, media = args
    outcome = outcome_of(lambda b: parse_bytes(b, media_type=media), raw)
    if outcome != "parsed":
        assert outcome in (
            "quarantined:forbidden_xml",
            "quarantined:invalid_utf8",
            "quarantined:corrupt_xml",
        ), outcome
    else:
        assert media not in _XML_MEDIA, "an XML document with entities was parsed"
    return outcome


def make_xxe_check(media_check: bool = True) -> Callable[[tuple[bytes, str | None]], str]:
    def check(args: tuple[bytes, str | None]) -> str:
        raw, media = args
        outcome = outcome_of(lambda b: parse_bytes(b, media_type=media), raw)
        if media_check and media in _XML_MEDIA:
            assert outcome in ("quarantined:forbidden_xml", "quarantined:invalid_utf8"), outcome
        return outcome

    return check


@st.composite
def nested_markup(draw: st.DrawFn) -> tuple[bytes, str | None]:
    """Deeply nested markup of every family, to depths past every limit."""
    depth = draw(st.integers(50, 20_000))
    tag = draw(st.sampled_from(["sec", "p", "div", "b", "AbstractText", "list-item", "sup"]))
    root, media = draw(st.sampled_from([*_ROOTS, ("html", "text/html"), ("html", None)]))
    closed = draw(st.booleans())
    inner = f"<{tag}>" * depth + "x" + (f"</{tag}>" * depth if closed else "")
    if draw(st.booleans()):
        inner = "> " * depth + "x" if media is None else inner  # Markdown quotes
    return f"<{root}><body>{inner}</body></{root}>".encode(), media


@st.composite
def giant_attributes(draw: st.DrawFn) -> tuple[bytes, str | None]:
    size = draw(st.sampled_from([1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1, 3 * 1024 * 1024]))
    root, media = draw(st.sampled_from([*_ROOTS, ("html", "text/html")]))
    name = draw(st.sampled_from(["id", "title", "xlink:href", "alt"]))
    value = draw(st.sampled_from(["a", "&amp;", "é"])) * (size // 5 + 1)
    value = value[:size] if value.isascii() else value
    doc = f'<{root}{_NS}><body><p {name}="{value}">x</p></body></{root}>'
    return doc.encode(), media


def check_any(args: tuple[bytes, str | None]) -> str:
    raw, media = args
    return outcome_of(lambda b: parse_bytes(b, media_type=media), raw)


_MEDIA = st.sampled_from(
    [
        None,
        "application/xml",
        "application/jats+xml",
        "application/pubmed+xml",
        "text/html",
        "text/markdown",
        "text/plain",
        "text/csv",
        "application/x-ndjson",
        "application/vnd.crossref+json",
        "application/octet-stream",
        "application/pdf; charset=x",
    ]
)
_NAMES = st.sampled_from(
    [
        None,
        "a.xml",
        "a.nxml",
        "a.md",
        "a.html",
        "a.csv",
        "a.tsv",
        "a.txt",
        "a.jsonl",
        "a.bin",
        "a.pdf",
        "..\\b.XML",
        "",
    ]
)


@st.composite
def any_bytes(draw: st.DrawFn) -> tuple[bytes, str | None, str | None]:
    raw = draw(
        st.one_of(
            st.binary(max_size=4096),
            st.sampled_from(_SEEDS).flatmap(mutated),
            jats_bytes(),
            pubmed_bytes(),
            html_bytes(),
            markdown_bytes(),
            csv_bytes(),
            scifact_bytes(),
            text_bytes(),
        )
    )
    return raw, draw(_MEDIA), draw(_NAMES)


def check_detect(args: tuple[bytes, str | None, str | None]) -> str:
    raw, media, name = args
    return outcome_of(lambda b: parse_bytes(b, media_type=media, filename=name), raw)


def parser_properties(secret_path: str) -> list[Property]:
    """Every parser property; ``secret_path`` is a local file holding :data:`SECRET`."""

    def direct(parse: ParserFn) -> Callable[[bytes], str]:
        return lambda raw: outcome_of(parse, raw)

    return [
        Property("parser:jats", jats_bytes(), direct(jats.parse), 100),
        Property("parser:pubmed", pubmed_bytes(), direct(pubmed.parse), 100),
        Property("parser:html", html_bytes(), direct(html.parse)),
        Property("parser:markdown", markdown_bytes(), direct(markdown.parse)),
        Property("parser:csv", csv_bytes(), direct(csv.parse)),
        Property("parser:text", text_bytes(), direct(text.parse)),
        Property("parser:scifact", scifact_bytes(), direct(scifact.parse)),
        Property("detect:any-bytes", any_bytes(), check_detect, 200),
        Property("hostile:entity-bombs", entity_bombs(), check_entity_bomb, 100),
        Property(
            "hostile:external-entities", external_entities(secret_path), make_xxe_check(), 100
        ),
        Property("hostile:deep-nesting", nested_markup(), check_any, 40),
        Property("hostile:giant-attributes", giant_attributes(), check_any, 12),
    ]


# --- large inputs: bounded memory ------------------------------------------------------------

#: Peak traced memory a parser may use: this many times the input, plus a constant. Measured at
#: 4 MiB: 6-25x (Markdown table lines are the worst at about 25x).
MEMORY_FACTOR = 40
MEMORY_SLACK = 8 * 1024 * 1024


def _repeat(unit: bytes, size: int, head: bytes = b"", tail: bytes = b"") -> bytes:
    return head + unit * max(1, size // len(unit)) + tail


def large_inputs(size: int) -> dict[str, tuple[ParserFn, bytes]]:
    """Inputs of about ``size`` bytes that make each parser build as much as it ever does."""
    return {
        "text": (text.parse, _repeat(b"Walking lowered blood pressure by 5 mmHg. ", size)),
        "text-one-token": (text.parse, _repeat(b"x", size)),
        "markdown-headings": (markdown.parse, _repeat(b"# Heading\nSome words here.\n", size)),
        "markdown-list": (markdown.parse, _repeat(b"- a\n", size)),
        "markdown-table": (markdown.parse, _repeat(b"|a|b|\n", size)),
        "html": (html.parse, _repeat(b"<h2>t</h2><p>Some words.</p>", size, b"<html><body>")),
        "html-open-tags": (html.parse, _repeat(b"<b>", size)),
        "csv": (csv.parse, _repeat(b"1,Walking lowered blood pressure\n", size, b"id,text\n")),
        "jats": (
            jats.parse,
            _repeat(
                b"<sec><title>T</title><p>Some words.</p></sec>",
                size,
                b"<article><body>",
                b"</body></article>",
            ),
        ),
        "pubmed": (
            pubmed.parse,
            _repeat(
                b"<PubmedArticle><MedlineCitation><PMID>1</PMID><Article><ArticleTitle>t"
                b"</ArticleTitle><Abstract><AbstractText>words</AbstractText></Abstract></Article>"
                b"</MedlineCitation></PubmedArticle>",
                size,
                b"<PubmedArticleSet>",
                b"</PubmedArticleSet>",
            ),
        ),
        "scifact": (
            scifact.parse,
            _repeat(b'"Some words here.", ', size, b'{"doc_id": 1, "abstract": [', b'"x"]}'),
        ),
        "random-bytes": (parse_bytes, bytes(range(256)) * max(1, size // 256)),
    }


def memory_peak(parse: ParserFn, raw: bytes) -> tuple[str, int, float]:
    """(outcome, peak traced bytes, seconds) of one parse under ``tracemalloc``."""
    import time
    import tracemalloc

    tracemalloc.start()
    started = time.perf_counter()
    try:
        with hard_limit(120):
            outcome = outcome_of(parse, raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return outcome, peak, time.perf_counter() - started
