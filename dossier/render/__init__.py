"""Rendering stage: the linked site into files, in memory.

Takes the linked Site and the theme (theme.py); hands on {output path: bytes}: every page through
the templates (pages.py; one page's links and citations in context.py, the templates' functions in
environment.py) with what it read of the site (reads.py, for the dependency graph), the exports
(export.py), the portable build's search data (fallback.py) and the static files. It writes
nothing. The other modules work out what pages show: claims, timeline, quotes, aligned texts.
"""
