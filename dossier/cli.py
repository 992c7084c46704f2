"""Command line: init, build, check, new, quote, schema, add-source, review and serve."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .editors.schemas import file_name, modeline, write_schemas
from .model.record_types import BUILT_IN, Model, RecordType
from .model.problems import BuildFailure, ContentError, UsageError, counted, did_you_mean, print_problems
from .read.project import find_project, shown_path
from .model.slug import fold_id, is_valid_id


def creatable(model: Model) -> dict[str, RecordType]:
    """Return the record types `new` writes, by singular name."""
    return {rtype.singular: rtype for rtype in model.values() if rtype.creatable}


def scaffold(rtype: RecordType, name: str) -> str:
    """Return the text of a new content file with every field of the type's declaration, its first
    line pointing a YAML language server at the type's schema (see editors.py)."""
    from .check.fields import field_type

    lines = [modeline(rtype)]
    for spec in rtype.fields:
        if spec.name == "reviewed":
            continue  # written by `review --record`, never by hand
        doc = spec.doc
        value = FIRST_VALUES[spec.name](name) if spec.name in FIRST_VALUES else field_type(spec.type).scaffold(spec)
        comment = f"{doc} (required)" if doc and spec.required else doc or ("required" if spec.required else "")
        lines.append(f"{spec.name}: {value}".rstrip() + (f"  # {comment}" if comment else ""))
    if rtype.file_format == "yaml":
        return "\n".join(lines) + "\n"
    return "---\n" + "\n".join(lines) + "\n---\n" + PLACEHOLDER


# Fields whose first value `new` writes from the record's name, or so that the file builds as written;
# every other field takes its type's (check/fields.py).
FIRST_VALUES = {"draft": lambda name: "true", "name": lambda name: _yaml_text(name), "title": lambda name: _yaml_text(name),
                "seed": lambda name: f"{fold_id(name)}.txt", "language": lambda name: "en", "date": lambda name: "2019-01-01",
                "summary": lambda name: '""'}


# A comment, not a citation: the file must build as written, and no source is known yet.
PLACEHOLDER = ("<!-- Write here. Cite each claim: in square brackets, @ and the source's id, then the verbatim quote in double quotes; "
               "`dossier quote SOURCE \"a few words\"` (or `python build.py quote ...`) prints passages ready to paste. Remove 'draft: true' to publish. -->\n")


def _yaml_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def command_new(args: argparse.Namespace) -> int:
    from .read.documents import read_model

    model, _ = read_model(Path(args.source))
    kinds = creatable(model)
    if args.kind not in kinds:
        raise UsageError(f"'new' makes one of {', '.join(sorted(kinds))}, not {args.kind!r}{did_you_mean(args.kind, kinds)}")
    rtype = kinds[args.kind]
    rid = args.id if args.id is not None else fold_id(args.name)
    if args.id is not None and not is_valid_id(args.id):
        raise UsageError(f"--id should be an id such as '{fold_id(args.id) or 'jose-gomez'}': lowercase ASCII words joined by hyphens, not {args.id!r}")
    if not rid:
        raise UsageError(f"cannot make an id from {args.name!r}; use letters or digits, or give one with --id")
    suffix = ".yaml" if rtype.file_format == "yaml" else ".md"
    path = Path(args.source) / "content" / rtype.collection / f"{rid}{suffix}"
    if path.exists():
        raise UsageError(f"{path} already exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(scaffold(rtype, args.name), encoding="utf-8")
    print(f"created {path}")
    print(f"wrote {write_schemas(Path(args.source), model)}: the JSON Schema of each record type, for editors")
    return 0


def command_quote(args: argparse.Namespace) -> int:
    from .text.passages import SeedText, citation
    from .read.documents import MAX_SEED_BYTES, read_document, read_text

    root = Path(args.source)
    folder = root / "content" / "sources"
    files = {path.stem: path for path in sorted(folder.glob("*.y*ml"))} if folder.is_dir() else {}
    if args.source_id not in files:
        raise UsageError(f"no source '{args.source_id}' in content/sources/{did_you_mean(args.source_id, files)}")
    document, problems = read_document(root, files[args.source_id])
    meta = document.meta if document is not None and isinstance(document.meta, dict) else {}
    seed = meta.get("seed")
    if not isinstance(seed, str) or not (root / "seeds" / seed).is_file():
        raise UsageError(f"source '{args.source_id}' names no stored text in seeds/ ('seed:'); run check for its problems")
    text, problems = read_text(root, root / "seeds" / seed, MAX_SEED_BYTES)
    if text is None:
        raise ContentError(problems)
    inserted = meta.get("inserted_lines")
    prefixes = tuple(p for p in inserted if isinstance(p, str)) if isinstance(inserted, list) else ()
    found = SeedText(text).find(args.words, skip=prefixes)
    if not found:
        print(f"dossier: no passage of seeds/{seed} has those words", file=sys.stderr)
        return 1
    for line, passage in found:
        print(f"{args.shown(f'seeds/{seed}')}:{line}: {citation(args.source_id, passage)}")
    return 0


def command_schema(args: argparse.Namespace) -> int:
    from .read.documents import read_model

    model, _ = read_model(Path(args.source))
    folder = write_schemas(Path(args.source), model, Path(args.out) if args.out else None)
    print(f"wrote {folder}: {', '.join(file_name(rtype) for rtype in model.values())}")
    return 0


def command_add_source(args: argparse.Namespace) -> int:
    from .editors.importer import add_source, summary

    imported = add_source(Path(args.source), Path(args.page), args.id)
    print("\n".join(summary(imported)))
    return 0


def command_check(args: argparse.Namespace) -> int:
    from .pipeline import checked, translation_counts

    site, problems, left_out = checked(Path(args.source), strict=args.strict, drafts=args.drafts)
    print_problems(problems, args.shown, brief(args))
    for line in translation_counts(site):
        print(line)
    print("check passed: every reference resolved and every quote found in its source")
    if left_out:
        count = len(left_out)
        print(f"left out {count} draft{'s' * (count != 1)} ({', '.join(left_out)}): `check --drafts` checks {'them' if count != 1 else 'it'} too")
    return 0


def command_build(args: argparse.Namespace) -> int:
    from .pipeline import build

    out = Path(args.out) if args.out else Path(args.source) / "site"
    if args.base_url is not None and not args.base_url.startswith(("https://", "http://")):
        raise UsageError(f"--base-url must start with https:// or http://, not {args.base_url!r}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    report = build(Path(args.source), out, portable=args.portable, strict=args.strict, base_url=args.base_url, workers=args.jobs, drafts=args.drafts,
                   keep_in_background=args.detached)
    print_problems(report.warnings, args.shown, brief(args))
    from .read.documents import read_model

    model, _ = read_model(Path(args.source))
    made = ", ".join(pages_made(count, kind, model) for kind, count in sorted(report.pages.items()))
    print(f"built {out}: {counted(report.files, 'file')} ({made}) in {report.seconds:.2f} s")
    if args.timings:
        from .timings import table

        stages = ", ".join(f"{stage} {seconds:.2f} s" for stage, seconds in report.phases.items())
        print(f"{counted(report.rendered, 'page')} rendered; time by stage: {stages or 'nothing to do'}")
        print("CPU by layer, the rendering processes' and Pagefind's included:")
        print(table(report.cpu))
    return 0


def brief(args: argparse.Namespace) -> dict[str, tuple[int, str]] | None:
    """Return how a run prints the name check's warnings: the first few and a count, but under --strict or --names."""
    from .check.names import KIND, MORE, SHOWN

    return None if args.strict or args.names else {KIND: (SHOWN, MORE)}


def pages_made(count: int, collection: str, model: Model) -> str:
    """Return how many pages of a collection a build made, in words: '1 person', '2 events'."""
    rtype = model.get(collection)
    return counted(count, rtype.singular, collection) if rtype else f"{count} {collection}"


def command_init(args: argparse.Namespace) -> int:
    from .editors.new_project import init_project, next_steps

    folder = Path(args.folder)
    init_project(folder)
    print("\n".join(next_steps(folder)))
    return 0


def command_review(args: argparse.Namespace) -> int:
    import datetime as dt

    from .editors import review, review_sheet
    from .pipeline import load

    root = Path(args.source)
    if args.record and (not args.by or not args.paths):
        raise UsageError("--record needs --by NAME and the files reviewed: review --record --by \"Ana Ruiz\" content/people/x.md")
    try:
        on = dt.date.fromisoformat(args.on) if args.on else dt.date.today()
    except ValueError:
        raise UsageError(f"--on must be a day such as 2019-02-23, not {args.on!r}") from None
    site, problems = load(root, drafts=True)
    if any(p.severity == "error" for p in problems):
        raise ContentError(problems)
    found = review.sheets(site, root, review.select(site, root, args.paths))
    if args.record:
        for path in review.record_reviews(root, found, args.by, on):
            print(f"recorded the review of {path}")
        return 0
    if args.status:
        lines, current = review.status_lines(found)
        print("\n".join(lines))
        return 0 if current else 1
    if args.changed:
        found = [sheet for sheet in found if sheet.state == "changed"]
    if args.html:
        Path(args.html).write_text(review_sheet.html_sheet(found), encoding="utf-8")
        print(f"wrote {args.html}: the review sheet of {counted(len(found), 'record')}")
    else:
        print(review_sheet.text_sheet(found))
    return 0


def command_serve(args: argparse.Namespace) -> int:
    from .serve.preview import serve

    return serve(Path(args.source), host=args.host, port=args.port)


def version() -> str:
    """Return the version of dossier installed."""
    from importlib.metadata import PackageNotFoundError, version as installed

    try:
        return installed("dossier")
    except PackageNotFoundError:  # run from a clone without installing it
        return "(not installed)"


def parser() -> argparse.ArgumentParser:
    """Return the argument parser for every command."""
    main_parser = argparse.ArgumentParser(prog="dossier", description="Build a cross-linked documentary site whose every claim cites a verified passage.")
    main_parser.add_argument("--version", action="version", version=f"dossier {version()}")
    commands = main_parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    init = commands.add_parser("init", help="start a new documentary: an example project to replace with your own")
    init.add_argument("folder", metavar="DIR", help="a new or empty folder")
    build = commands.add_parser("build", help="build the site")
    build.add_argument("--out", help="output folder (default: site/ in the source folder)")
    build.add_argument("--portable", action="store_true", help="links name their index.html, so the site works from file://")
    build.add_argument("--base-url", help="public address of the site, for canonical links, feed and sitemap (overrides site.yaml)")
    build.add_argument("--strict", action="store_true", help="treat warnings as errors")
    build.add_argument("--timings", action="store_true", help="print where the build's CPU went, by layer (reading, linking, each kind of page, search, publishing)")
    build.add_argument("--jobs", type=int, metavar="N",
                       help="processes rendering pages (and reading and linking a large project), and search indexing runs at a time (default: one per core); fewer use less memory")
    check = commands.add_parser("check", help="validate everything and write nothing")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors (but a draft's own)")
    for sub in (build, check):
        sub.add_argument("--drafts", action="store_true", help="put in the records marked 'draft: true' (left out by default)")
        sub.add_argument("--names", action="store_true", help="print every name of the stored texts that no record covers (by default the first few and a count)")
    new = commands.add_parser("new", help="create a content file from the schema")
    new.add_argument("kind", help="what to make: " + ", ".join(sorted(creatable(BUILT_IN))) + ", or a type content/site.yaml declares")
    new.add_argument("name", help="the person's name or the event's, source's, place's or group's title")
    new.add_argument("--id", help="the record's id, its file's name (default: folded from NAME)")
    add_source = commands.add_parser("add-source", help="store a saved article's text in seeds/ and write its source file")
    add_source.add_argument("page", metavar="SAVED.html", help="the article's page, saved from a browser")
    add_source.add_argument("--id", help="the source's id (default: folded from the page's title)")
    quote = commands.add_parser("quote", help="print the passages of a source's stored text that hold some words, as citations ready to paste")
    quote.add_argument("source_id", metavar="SOURCE", help="the source's id")
    quote.add_argument("words", help="a few words of the passage")
    schema = commands.add_parser("schema", help="write a JSON Schema of each record type's front matter, for editors")
    schema.add_argument("--out", help="folder to write into (default: schemas/ in the source folder, where files made by 'new' point)")
    review = commands.add_parser("review", help="print each sentence beside the passages it cites, for fact-checking; record reviews")
    review.add_argument("paths", nargs="*", metavar="PATH", help="content files to review (default: every record)")
    review.add_argument("--changed", action="store_true", help="only the records changed since their last recorded review")
    review.add_argument("--html", metavar="FILE", help="write the sheet as an HTML page instead of printing it")
    review.add_argument("--status", action="store_true", help="list the records never reviewed or changed since; exit 1 if there are any")
    review.add_argument("--record", action="store_true", help="record in each file named that it was reviewed (needs --by)")
    review.add_argument("--by", metavar="NAME", help="who reviewed the files, with --record")
    review.add_argument("--on", metavar="DATE", help="the day of the review, with --record (default: today)")
    serve = commands.add_parser("serve", help="build and preview with live reload")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    for sub in (build, check, new, add_source, quote, schema, review, serve):
        sub.add_argument("--source", help="project folder holding content/ and seeds/ (default: the folder holding content/site.yaml, "
                                          "here or in a folder above, as git finds its repository)")
    return main_parser


def main(argv: list[str] | None = None, *, detached: bool = False) -> int:
    """Run a command; exit 1 on content problems, 2 on usage errors, 3 when the build itself failed.
    detached: a build keeps its state for the next one in a process of its own, after it returns
    (the program does; a caller that goes on in the same process, as a test does, has it kept first)."""
    args = parser().parse_args(argv)
    args.detached = detached
    here = Path.cwd()
    args.shown = lambda path: path  # paths as the project names them: from its folder
    if getattr(args, "source", "") is None:  # found from here: paths shown from here, as git shows them
        root = args.source = find_project(here)
        args.shown = lambda path: shown_path(path, root, here)
    handler = {"init": command_init, "build": command_build, "check": command_check, "new": command_new, "add-source": command_add_source,
               "quote": command_quote, "schema": command_schema, "review": command_review, "serve": command_serve}[args.command]
    try:
        return handler(args)
    except ContentError as error:
        print_problems(error.problems, args.shown, brief(args) if args.command in ("build", "check") else None)
        return 1
    except UsageError as error:
        print(f"dossier: error: {error}", file=sys.stderr)
        return 2
    except BuildFailure as error:
        print(f"dossier: failed: {error}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        return 130


def run() -> None:
    """Run the command line and exit with its status (the `dossier` command and build.py).

    The exit skips the interpreter's teardown, which would free every object the build left one by
    one (1.5 s after a one-edit build at 10,000 records, measured): every file is closed and every
    worker joined by then, and the standard streams are flushed here."""
    status = main(detached=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
