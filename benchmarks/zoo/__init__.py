"""The clone zoo: random, real, playable Minesweeper windows with their exact truth.

Test and benchmark infrastructure (it does not ship in the `msbot` package):
`spec` draws a clone from a seed, `game` holds its rules, `tk_app` and
`web_server` (with `web/`) show it in a Tk window or a page in Chromium,
`truth` is the log each clone keeps of itself, `judge` sets msbot's
recording beside it, `launch` starts one on a display, `gallery` takes
screenshots. See benchmarks/zoo/README.md.
"""
