"""`python -m bot` is the same as the `msbot` command."""

import sys

from bot.cli import main

sys.exit(main())
