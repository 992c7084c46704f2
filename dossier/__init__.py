"""dossier: a static documentary website generator where every claim cites a verified passage."""

__version__ = "0.1.0"
