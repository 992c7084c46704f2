"""Checking stages: documents into typed records, then into the linked site.

Takes Documents and seed texts; hands on records checked field by field against the model
(validate.py), the Site with every reference resolved and every quote found in its source (link.py;
relink.py after an edit), the evidence of each structured fact (evidence.py) and the editorial
warnings (audit.py): each problem with its file and line.
"""
