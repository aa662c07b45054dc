"""``pathcheck help [COMMAND...]``: the help of a command, as ``COMMAND --help`` shows it."""

from __future__ import annotations

import click


@click.command(name="help")
@click.argument("names", nargs=-1, metavar="[COMMAND [SUBCOMMAND]]")
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
