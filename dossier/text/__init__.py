"""The texts read closely: a record's Markdown body and a source's stored text.

Takes a body or a stored text; hands on the [[links]] and [@source "quote"] citations a body holds
and its safe HTML (markup.py), its sentences with the citations of each (sentences.py), and where a
quote is in a stored text (passages.py).
"""
