from dossier.read.documents import load_yaml, parse_markdown_file, decode, is_editor_artifact


def test_front_matter_keys_carry_their_file_lines():
    text = "---\nname: A\nage:\n  years: 3\n  quote: x\n---\nBody line\n"
    document, problems = parse_markdown_file(text, "content/people/a.md", "people", "a")
    assert problems == []
    assert document.line_of("name") == 2
    assert document.line_of("age", "quote") == 5
    assert document.line_of("age", "missing") == 3
    assert document.body == "Body line\n" and document.body_line == 7


def test_yaml_errors_are_shifted_by_the_front_matter_offset():
    text = "---\nname: A\nsummary: [unclosed\n---\n"
    document, problems = parse_markdown_file(text, "p.md", "people", "p")
    assert document is None
    assert [(p.line, p.severity) for p in problems] == [(3, "error")]  # the line of the unclosed [, after the opening ---
    assert problems[0].message.startswith("invalid YAML:")


def test_duplicate_keys_are_errors_not_silently_overwritten():
    value, lines, problems = load_yaml("name: A\nname: B\n", "s.yaml")
    assert value is None
    assert [str(p) for p in problems] == ["s.yaml:2:1: error: duplicate key 'name' (first given on line 1)"]


def test_tabs_in_indentation_are_named():
    _, _, problems = load_yaml("age:\n\tyears: 3\n", "s.yaml", line_offset=1)
    assert [str(p) for p in problems] == ["s.yaml:3:1: error: tab used for indentation; YAML needs spaces"]


def test_bom_and_windows_line_endings_are_accepted():
    text, problems = decode("\ufeffname: A\r\nsummary: B\r\n".encode("utf-8"), "x", 1000)
    assert problems == [] and text == "name: A\nsummary: B\n"


def test_non_utf8_and_oversize_files_are_refused_with_position():
    text, problems = decode(b"name: A\nsummary: caf\xe9\n", "x.md", 1000)
    assert text is None
    assert [str(p) for p in problems] == ["x.md:2: error: not UTF-8 text (byte 0xe9 at offset 20); save the file as UTF-8"]
    text, problems = decode(b"x" * 11, "big.md", 10)
    assert [str(p) for p in problems] == ["big.md: error: file is 11 bytes; the limit is 10 bytes"]


def test_editor_artifacts_are_recognised():
    assert all(is_editor_artifact(n) for n in [".#a.md", "a.md~", ".a.md.swp", "#a.md#", "a.tmp"])
    assert not is_editor_artifact("a.md")


def test_what_many_files_repeat_is_held_once(make_site):
    """A field name, an id, a key path, a cited source's id and a record's key are each one object
    however many files hold them: a large site keeps them all, in memory and in its saved state."""
    from dossier.pipeline import load

    root = make_site({"content/people/ana.md": "---\nname: Ana\nsummary: S.\nplaces: [cucuta]\n---\nAna crossed.[@ap \"across the bridge\"] "
                                                 "She drove.[@ap \"drove an armoured truck across the bridge\"] See [[cucuta]].\n",
                      "content/people/bea.md": "---\nname: Bea\nsummary: S.\n---\nBea lived in [[cucuta]].[@ap \"across the bridge\"]\n"})
    site, _ = load(root)
    ana, jorge = site.records["people"]["ana"], site.records["people"]["jorge-torres"]
    assert ana.places[0] is jorge.places[0]
    assert next(iter(k for k in ana.lines if k == ("summary",))) is next(iter(k for k in jorge.lines if k == ("summary",)))
    cited = [c.source for key in site.citations for c in site.citations[key]]
    assert len(cited) > 2 and all(source is cited[0] for source in cited)
    keys = [key for passage in site.passages["ap"].values() for key in passage.cited_by if key == ("people", "ana")]
    assert len(keys) == 2 and keys[0] is keys[1]
    assert site.links[("people", "ana")] == site.links[("people", "bea")] == [("places", "cucuta")]
    assert site.links[("people", "ana")][0] is site.links[("people", "bea")][0]


def test_a_large_project_is_read_in_two_processes_as_one_reads_it(make_site, monkeypatch):
    from dossier import forked
    from dossier.incremental.inputs import Inputs
    from dossier.timings import BuildClock, layer, take_report

    people = {f"content/people/person-{n}.md": f"---\nname: Person {n}\nsummary: S.\n---\nThey drove.[@ap \"across the bridge\"]\n" for n in range(9)}
    root = make_site({**people, "content/people/person-3.md": "---\nname: [unclosed\n---\n",  # a file that cannot be read, in the second process's share
                      "content/people/person-5.md": "---\nname: Person 5\nsummary: S.\ndraft: true\n---\nA draft.\n",
                      "content/people/person-6.md": "---\nname: Person 6\n---\nNo summary.\n"})
    alone = Inputs(root)
    alone.load()
    sent: list[tuple] = []
    monkeypatch.setattr(forked, "SPLIT_FROM", 2)
    monkeypatch.setattr(forked, "take_report", lambda report: sent.append(report) or take_report(report))
    Inputs(root).load(processes=1)  # as build --jobs 1 reads: alone
    assert sent == []
    clock = BuildClock()
    both = Inputs(root)
    with layer("read"):
        both.load(processes=2)
    assert [list(layers) for layers, _ in sent] == [["read"]]  # a second process read its share, and reported its CPU
    assert list(both.entries) == list(alone.entries) and both.entries == alone.entries
    assert both.drafts == alone.drafts == {"content/people/person-5.md"}
    assert [e.read_problems or e.validation_problems for e in both.entries.values()] == [e.read_problems or e.validation_problems for e in alone.entries.values()]
    assert any(e.read_problems for e in both.entries.values()) and any(e.validation_problems for e in both.entries.values())
    assert clock.by_layer().get("read", 0) > 0


def test_a_large_site_is_linked_in_two_processes_as_one_links_it(make_site, monkeypatch):
    """Half of a large site's records are examined in a second process: the site, its passages'
    wording and order, who cites what and every problem, in order, are as one process makes them."""
    from dossier import forked
    from dossier.check.link import link
    from dossier.incremental.linked import LinkedSite
    from dossier.timings import BuildClock, layer, take_report

    people = {f"content/people/a{n}.md": f"---\nname: A {n}\nsummary: S.\n---\nA {n} crossed.[@ap \"across the bridge\"] See [[cucuta]].\n"
              for n in range(6)}
    root = make_site({**people,
                      # the first to cite a passage gives its wording: the second process's records too
                      "content/people/a1.md": "---\nname: A 1\nsummary: S.\n---\nA 1 drove.[@ap \"drove an  armoured truck across the bridge\"]\n",
                      "content/people/a2.md": "---\nname: A 2\nsummary: S.\n---\nA 2 drove.[@ap \"drove an armoured truck across the bridge\"] "
                                              "See [[nobody]].[@ap \"no such words\"] [@nope \"x\"]\n",
                      "content/people/a2.es.md": "---\nname: A 2\nsummary: S.\n---\nA 2 condujo.[@ap \"across the bridge\"] Ver [[nadie]].\n",
                      "content/people/a3.md": "---\nname: A 3\nsummary: S.\nplaces: [nowhere]\n---\nA 3 spoke.[@ap \"going to change history\"]\n"})
    loaded = LinkedSite(root)
    loaded.load()
    records, seeds, model = loaded.site.records, loaded.inputs.seed_texts, loaded.inputs.model
    alone, alone_problems = link(records, seeds, loaded.failed, model, processes=2)  # too few records to share
    sent: list[tuple] = []
    monkeypatch.setattr(forked, "SPLIT_FROM", 2)
    monkeypatch.setattr(forked, "take_report", lambda report: sent.append(report) or take_report(report))
    clock = BuildClock()
    with layer("validate and link"):
        both, both_problems = link(records, seeds, loaded.failed, model, processes=2)
    assert [list(layers) for layers, _ in sent] == [["validate and link"]]  # a second process examined its share, and reported its CPU
    assert clock.by_layer().get("validate and link", 0) > 0
    assert both_problems == alone_problems and len(alone_problems) >= 5  # unknown links, a missing quote and source, a translation's link
    assert both == alone
    for name in ("citations", "links", "cited_by", "passages", "mentioned_by"):
        assert list(getattr(both, name)) == list(getattr(alone, name)), name
    assert [list(by_id) for by_id in both.passages.values()] == [list(by_id) for by_id in alone.passages.values()]
    assert [p.quote for by_id in both.passages.values() for p in by_id.values()] == [p.quote for by_id in alone.passages.values() for p in by_id.values()]
    assert "drove an  armoured truck across the bridge" in [p.quote for p in both.passages["ap"].values()]  # a1's wording, examined by the second process before any other cites it
    cited = [c.source for key in both.citations for c in both.citations[key]]
    assert all(source is cited[0] for source in cited)  # one string for a source's id, wherever examined
    assert both.links[("people", "a0")][0] is both.links[("people", "a4")][0]  # one tuple for a record's key


def test_a_front_matters_lines_and_columns_are_kept_as_a_saved_session_holds_them():
    import pickle

    from dossier.read.frontmatter import column_of

    _, lines, problems = load_yaml('name: "Jorge Torres"\nage: {years: 31, source: ap}\nroles: [a, b]\n', "x.md", 1)
    assert problems == []
    for kept in (lines, pickle.loads(pickle.dumps(lines))):
        assert kept[("age", "source")] == 3 and kept[("roles", 1)] == 4
        assert [column_of(kept, *key) for key in [("name",), ("age",), ("age", "source"), ("roles", 1), ("missing",)]] == [8, 0, 26, 12, 0]
