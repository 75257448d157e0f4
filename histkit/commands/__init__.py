"""One module per `histkit` command, each with `register(subparsers)`."""
