"""What the measurement scripts share: finding the development data, and putting their section
into a Markdown report between their own markers."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from spanproof.core.checker import EntailmentChecker
from spanproof.core.ports import Embedder
from spanproof.evaluation.devdata import data_dir
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel


def data_root() -> Path | None:
    """The development data folder, or None after saying on stderr how to point at it."""
    root = data_dir()
    if root is None:
        print("no data: set SPANPROOF_DATA_DIR to ../shared/data", file=sys.stderr)
    return root


def put_block(path: Path, block: str, begin: str, end: str, *, after: str | None = None) -> None:
    """Put ``block`` (which starts with ``begin`` and ends with ``end``) into ``path``: in place
    of the text between those markers when ``path`` has them; the first time, right after the
    line ``after`` when given and present, else at the end."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    block = block.rstrip("\n")
    if begin in old and end in old:
        before, rest = old.split(begin, 1)
        new = before + block + rest.split(end, 1)[1]
    elif after is not None and after in old:
        before, rest = old.split(after, 1)
        new = before + after + "\n\n" + block + rest
    else:
        new = old.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(new, encoding="utf-8")


def publish(
    block: str, path: Path | None, begin: str, end: str, *, after: str | None = None
) -> None:
    """Print ``block``, and :func:`put_block` it into ``path`` when one is given."""
    print(block)
    if path is not None:
        put_block(path, block, begin, end, after=after)


#: Where a section's first line names its run time, before the run ends (:func:`publish_timed`).
SECONDS = "SECONDS"


def publish_timed(
    lines: list[str], started: float, path: Path | None, begin: str, end: str
) -> None:
    """Close the section ``lines`` (which start with ``begin``) with ``end``, put the seconds
    since ``started`` (a :func:`time.perf_counter` reading) where it says :data:`SECONDS`, and
    :func:`publish` it."""
    block = "\n".join([*lines, "", end]).replace(SECONDS, f"{time.perf_counter() - started:.0f}")
    publish(block, path, begin, end)


def probe_parser(
    doc: str, *, models: list[str], n: int, seed: int, examples: int
) -> argparse.ArgumentParser:
    """The arguments the generator probes share (``probe_word_swaps.py``,
    ``probe_overstatements.py``): the score models to run (not v3, which needs the
    cross-encoder), cases of each kind, the seed, how many `supported` cases to list, and
    where to write the section; their defaults given. :func:`checked_models` refuses v3."""
    from spanproof.verify.scoring import SCORE_MODELS

    parser = argparse.ArgumentParser(description=doc.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--models", nargs="+", default=models, choices=list(SCORE_MODELS))
    parser.add_argument("--n", type=int, default=n, help="cases of each kind")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--examples", type=int, default=examples, help="supported cases listed")
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    return parser


def checked_models(parser: argparse.ArgumentParser, names: list[str]) -> list[str]:
    """``names``, after refusing (through ``parser``) any score model that needs v3's
    cross-encoder (a model that reads the judge, v57, is given it: :func:`checker_for`)."""
    from spanproof.verify.scoring import SCORE_MODELS

    for name in names:
        if SCORE_MODELS[name].uses_checker and not SCORE_MODELS[name].reads_judge:
            parser.error(f"{name} needs the cross-encoder; probe models that do not")
    return names


@cache
def checker_for(model: ScoreModel) -> EntailmentChecker | None:
    """The checker ``model`` reads (the bundled judge for v57's veto and v5, the
    cross-encoder for v3, None for the rest), built once per model in a probe's process."""
    from spanproof.bootstrap import build_checker_for

    return build_checker_for(model)


@dataclass(frozen=True)
class ProbeRun:
    """What a generator probe starts from: its arguments, the data folder, the clock reading
    its section's run time counts from, and the bundled embedder."""

    args: argparse.Namespace
    root: Path
    started: float
    embedder: Embedder


def start_probe(
    doc: str, *, models: list[str], n: int, seed: int, examples: int
) -> ProbeRun | None:
    """Parse a generator probe's arguments (:func:`probe_parser`, :func:`checked_models`), find
    the data (None, after saying so, without it), start the clock and build the embedder."""
    from spanproof.bootstrap import build_embedder
    from spanproof.config import load_settings

    parser = probe_parser(doc, models=models, n=n, seed=seed, examples=examples)
    args = parser.parse_args()
    checked_models(parser, args.models)
    root = data_root()
    if root is None:
        return None
    return ProbeRun(args, root, time.perf_counter(), build_embedder(load_settings()))


def start_split_probe(
    doc: str, *, direct: str | None = None, forms: Sequence[str] = ()
) -> ProbeRun | None:
    """Parse a probe of one split of the labelled sets (``--models``, ``--split dev|train``,
    ``--write``, ``--direct`` with its help when ``direct`` is given, ``--form`` among
    ``forms``, the first the default, when there are any), find the data (None, after saying
    so, without it), start the clock and build the embedder."""
    from spanproof.bootstrap import build_embedder
    from spanproof.config import load_settings
    from spanproof.verify.scoring import SCORE_MODELS

    parser = argparse.ArgumentParser(description=doc.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--models", nargs="+", default=["v52"], choices=list(SCORE_MODELS))
    parser.add_argument("--split", choices=("dev", "train"), default="dev")
    if direct is not None:
        parser.add_argument("--direct", action="store_true", help=direct)
    if forms:
        parser.add_argument("--form", choices=list(forms), default=forms[0])
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    root = data_root()
    if root is None:
        return None
    return ProbeRun(args, root, time.perf_counter(), build_embedder(load_settings()))


def verdict_cells(counts: Mapping[str, int], total: int) -> list[str]:
    """A probe's table cells: the count and share of `supported`, `unsupported` and
    `contradicted` verdicts among ``total`` cases ("—" when there are none)."""
    return [
        f"{counts.get(v, 0)} ({100 * counts.get(v, 0) / total:.1f} %)" if total else "—"
        for v in ("supported", "unsupported", "contradicted")
    ]


def listed_examples(listed: list[str], examples: int) -> list[str]:
    """The first ``examples`` of a probe's listed cases, "* none" when there are none, and a
    line saying how many more there are."""
    out = listed[:examples] or ["* none"]
    if len(listed) > examples:
        out.append(f"* … and {len(listed) - examples} more")
    return out


def with_fields(model: ScoreModel, changes: Sequence[str]) -> ScoreModel:
    """``model`` with the ``FIELD=VALUE`` changes (a true/false or number field of
    :class:`~spanproof.verify.scoring.ScoreModel`), named ``<model>+<change>+…``: a reading
    switched on or off, measured without a new score model.

    Raises:
        ValueError: a change that names no such field or gives it a value of another kind.
    """
    fields = {f.name for f in dataclasses.fields(model)}
    values: dict[str, object] = {}
    for change in changes:
        name, _, text = change.partition("=")
        if name not in fields or name == "name" or not text:
            raise ValueError(f"{change!r} is not FIELD=VALUE of a score model field")
        current = getattr(model, name)
        if isinstance(current, bool):
            if text.lower() not in ("true", "false"):
                raise ValueError(f"{name} takes true or false, not {text!r}")
            values[name] = text.lower() == "true"
        elif isinstance(current, int | float):
            try:
                values[name] = type(current)(text)
            except ValueError:
                raise ValueError(f"{name} takes a number, not {text!r}") from None
        else:
            raise ValueError(f"{name} is not a true/false or number field")
    label = "+".join([model.name, *changes])
    return dataclasses.replace(model, name=label, **values)  # type: ignore[arg-type]


def score_model_of(spec: str) -> ScoreModel:
    """A shipped score model by name ("v34"), one with its ``supported_min`` moved, to
    measure a threshold ("v34@0.45": v34 with ``supported_min`` 0.45, named so), or one with
    readings switched ("v58+window_polarity=true": :func:`with_fields`)."""
    base, *changes = spec.split("+")
    if changes:
        try:
            return with_fields(score_model_of(base), changes)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    name, _, threshold = spec.partition("@")
    if name not in SCORE_MODELS:
        raise argparse.ArgumentTypeError(f"unknown score model {name!r}")
    model = SCORE_MODELS[name]
    if not threshold:
        return model
    try:
        value = float(threshold)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a threshold: {threshold!r}") from None
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"a threshold is in (0, 1]: {threshold!r}")
    return dataclasses.replace(model, name=spec, supported_min=value)


def model_spec(spec: str) -> str:
    """``spec`` as an argparse type: an unknown name or a bad threshold refused when the
    arguments are read (:func:`score_model_of`)."""
    score_model_of(spec)
    return spec


def start_spec_probe(
    doc: str,
    argv: Sequence[str] | None,
    *,
    models: list[str],
    n: int,
    seed: int,
    examples: int,
    n_help: str = "cases of each kind",
) -> tuple[ProbeRun, list[ScoreModel]] | None:
    """Parse a generator probe's arguments whose ``--models`` may name a model with readings
    switched (``v60+field=value``, :func:`model_spec`), refuse a model that needs v3's
    cross-encoder, find the data (None, after saying so, without it), start the clock and build
    the embedder; with the score models the specs name, in order."""
    from spanproof.bootstrap import build_embedder
    from spanproof.config import load_settings

    parser = argparse.ArgumentParser(description=doc.split("\n\n", maxsplit=1)[0])
    parser.add_argument(
        "--models", nargs="+", type=model_spec, default=models,
        help="score models: a name (v60) or one with readings switched (v60+field=value)",
    )  # fmt: skip
    parser.add_argument("--n", type=int, default=n, help=n_help)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--examples", type=int, default=examples, help="cases listed")
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args(argv)
    chosen = [score_model_of(spec) for spec in args.models]
    if any(m.uses_checker and not m.reads_judge for m in chosen):
        parser.error("probe models that need no cross-encoder (not v3)")
    root = data_root()
    if root is None:
        return None
    run = ProbeRun(args, root, time.perf_counter(), build_embedder(load_settings()))
    return run, chosen
