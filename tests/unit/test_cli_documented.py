"""Every command of the CLI is documented in the README (the datasette habit)."""

from __future__ import annotations

from pathlib import Path

import click

from spanproof.cli.main import cli

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


def command_paths(group: click.Group, prefix: str = "spanproof") -> list[str]:
    out = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):  # the lazy group loads each command here
        command = group.get_command(ctx, name)
        assert command is not None, name
        path = f"{prefix} {name}"
        if isinstance(command, click.Group):
            out.extend(command_paths(command, path))
        else:
            out.append(path)
    return out


def test_every_command_appears_in_the_readme() -> None:
    paths = command_paths(cli)
    assert "spanproof verify" in paths and "spanproof trace verify" in paths
    missing = [p for p in paths if p not in README]
    assert missing == [], f"undocumented commands: {missing}"
