"""Publishing stage: the files made into a site folder, swapped into place whole.

Takes the rendered files; hands on the output folder: the site staged beside it, then swapped in
(staging.py), each file written into the staging folder or carried over unchanged from the previous
site (sinks.py). Only this stage writes the site.
"""
