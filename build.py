"""Build the documentary site: python build.py build|check|new|serve (see --help)."""
from dossier.cli import main

raise SystemExit(main())
