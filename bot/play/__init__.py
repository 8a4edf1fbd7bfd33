"""The play loop and its stages: `msbot play` on a real window.

`loop.Player` plays (or, dry run, `watching` advises on) games: the `window`
finds and reads the board, `planning` turns the solver's answer into clicks,
`click_check` and `anchors` check each click at its moment, `waiting` polls the
screen until the clicks show, `consistency` and `outcome` judge what it shows,
`results` and `recorder` report it. The screen and the mouse come in through
`vision.capture.Screen` and `bot.actuator.Actuator`, whatever they are (live,
replay, dry run); a learner joins through `bot.learning`.
"""
