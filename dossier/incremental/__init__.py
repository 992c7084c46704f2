"""Incremental builds: the project kept between builds, so that only what changed is read, linked
and rendered again.

Takes the project folder and the paths an edit touched; hands on the files to publish, into memory
for the preview or into a staging folder for a build (session.py): from the inputs as last read
(inputs.py), the drafts left out or shown (drafts.py), the pages an edit changes (graph.py),
rendered by several processes (pool.py), with what was made kept in .dossier-cache/ (cache.py,
lastbuild.py).
"""
