"""Pictures of laid-out dungeons: a terminal map and SVG, from one layout model."""
