"""Search stage: Pagefind's index of a staged site.

Takes the staged site folder and the pages that mark their text for search, with their words
(words.py, counted as the pages are made); hands on the index written into that folder
(indexing.py), a large site's in parts (parts.py).
"""
