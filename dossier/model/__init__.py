"""The model: what a documentary is made of, shared by every stage.

Takes nothing of the project; hands on the record types and their fields (record_types.py, with
the records as frozen dataclasses in schema.py), EDTF dates (dates.py, read by dateparse.py, over
days.py), record ids (slug.py), the site's languages (i18n.py), and the problems any stage reports
(problems.py).
"""
