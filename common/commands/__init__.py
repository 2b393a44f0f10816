"""Built-in subcommands of the ``minedraft`` CLI, one module each (see ``minedraft.cli``)."""
