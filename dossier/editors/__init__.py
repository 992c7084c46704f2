"""The commands for the people who write a documentary, besides building it.

Takes the project folder; hands on files to write with: JSON Schemas of the front matter
(schemas.py: `schema`), a source and its stored text from a saved page (importer.py and
pagemeta.py: `add-source`), a new project (new_project.py: `init`), and the review sheet and the
reviews recorded in content files (review.py, written out by review_sheet.py: `review`). `new` and `quote` are in cli.py.
"""
