"""Live preview: the site served while it is written.

Takes the project folder; hands on the site over HTTP, rebuilding what each save changes and
reloading the browsers (preview.py), on livereload (server.py), told of saves by the file
system's events (watch.py). Nothing a build runs imports it.
"""
