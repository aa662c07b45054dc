"""``pathcheck help [COMMAND...]``: the help of a command, as ``COMMAND --help`` shows it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


def complete_command(ctx: click.Context, param: click.Parameter, incomplete: str
                     ) -> list[CompletionItem]:
    """Shell completion of ``help``'s names: the commands, then a group's subcommands."""
    from click.shell_completion import CompletionItem

    root = ctx.find_root()
    current: click.Command = root.command
    for name in ctx.params.get("names") or ():
        found = current.get_command(root, name) if isinstance(current, click.Group) else None
        if found is None:
            return []
        current = found
    if not isinstance(current, click.Group):
        return []
    return [CompletionItem(name) for name in current.list_commands(root)
            if name.startswith(incomplete)]


@click.command(name="help")
@click.argument("names", nargs=-1, metavar="[COMMAND [SUBCOMMAND]]",
                shell_complete=complete_command)
@click.pass_context
def command(ctx: click.Context, names: tuple[str, ...]) -> None:
    """Show the help of COMMAND (e.g. 'pathcheck help verify', 'pathcheck help solo new'),
    or of pathcheck itself."""
    from . import no_such_command

    parent = ctx.find_root()
    current: click.Command = parent.command
    context = parent
    for name in names:
        if not isinstance(current, click.Group):
            raise click.UsageError(f"'{context.command_path}' has no subcommands")
        found = current.get_command(context, name)
        if found is None:
            no_such_command(ctx, name, current.list_commands(context))
        current = found
        context = click.Context(found, info_name=name, parent=context)
    click.echo(context.get_help())
