"""What tests, benchmarks, the demo and the recordings script run msbot against.

The real clones as data and how to start one (`clones`), and a private
virtual X display (`xdisplay`). Not part of the shipped package: msbot itself
only sees pixels, and never starts a clone or a display.
"""
