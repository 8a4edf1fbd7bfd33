"""`msbot bench`: the solver's win rate and speed on simulated games.

`runner` plays many games (`game`: one game against the `simulator`'s hidden
layout, every claim checked) on an engine (`engines`: this machine's
processes, or a dask cluster), and `log` keeps the results file a run
resumes from. Nothing here touches a screen.
"""
