"""Reading stage: the project's files into documents.

Takes the project folder; hands on its content files as Documents (front matter with the line of
every key, the body with its first line), the seeds' texts and the record types content/site.yaml
declares, with every problem met on the way (documents.py; YAML's own errors explained by yamlhints.py).
"""
