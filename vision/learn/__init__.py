"""Learn a new skin from screenshots: grid, cell clusters, names, templates (learn-skin)."""
