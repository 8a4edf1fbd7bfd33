"""One module per `msbot` sub-command; see `bot.cli`."""
