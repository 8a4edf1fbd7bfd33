"""What tests, benchmarks, the demo and the recordings script run msbot against.

The real clones as data and how to start one (`clones`), a private virtual X
display (`xdisplay`), and a game on a known mine layout played by the rules
(`known_layout`: the truth that labels frames and judges live games). Not
part of the shipped package: msbot itself only sees pixels, and never starts
a clone or a display.
"""
