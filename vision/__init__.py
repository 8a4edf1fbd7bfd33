"""Everything about pixels: capture the screen, find the board, read its cells.

The output of this package is a `Reading` (see `vision.reading`): the board in
the text format of `bot.board`, the mine counter, the game status and where
the board is on the screen.
"""
