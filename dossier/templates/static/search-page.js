// The search page: the true count and every result, a page at a time ("More results"), updated as
// the reader types; the address keeps the query (search/?q=…). Needs static/search.js first.
(function () {
  "use strict";
  var search = window.dossierSearch;
  var form = document.querySelector("form.search-form");
  var input = document.getElementById("search-query");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var more = document.getElementById("search-more");
  if (!search || !form || !input || !list) return;
  var latest = 0;
  var results = [];

  // Excerpts: text, with the matched words marked; nothing else from the index becomes markup.
  function excerptNode(result) {
    var paragraph = document.createElement("p");
    paragraph.className = "excerpt";
    if (result.excerptHtml !== undefined) {
      var template = document.createElement("template");
      template.innerHTML = result.excerptHtml;
      template.content.childNodes.forEach(function (node) {
        var mark = node.nodeName === "MARK" ? document.createElement("mark") : null;
        if (mark) mark.textContent = node.textContent;
        paragraph.appendChild(mark || document.createTextNode(node.textContent));
      });
      return paragraph;
    }
    var text = result.excerpt;
    var lower = search.fold(text);
    var position = 0;
    while (position < text.length) {
      var next = -1;
      var size = 0;
      result.terms.forEach(function (term) {
        var at = lower.indexOf(term, position);
        if (at >= 0 && (next < 0 || at < next)) { next = at; size = term.length; }
      });
      if (next < 0) { paragraph.appendChild(document.createTextNode(text.slice(position))); break; }
      paragraph.appendChild(document.createTextNode(text.slice(position, next)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(next, next + size);
      paragraph.appendChild(mark);
      position = next + size;
    }
    return paragraph;
  }

  function item(result) {
    var entry = document.createElement("li");
    var heading = document.createElement("p");
    heading.className = "result-title";
    var link = document.createElement("a");
    link.href = result.url;
    link.textContent = result.title || result.url;
    heading.appendChild(link);
    if (result.type) {
      var type = document.createElement("span");
      type.className = "result-type";
      type.textContent = result.type;
      heading.appendChild(document.createTextNode(" "));
      heading.appendChild(type);
    }
    entry.appendChild(heading);
    entry.appendChild(excerptNode(result));
    return entry;
  }

  // Show the next page of results; return the first item added.
  function showMore() {
    var shown = list.children.length;
    results.slice(shown, shown + search.PAGE).forEach(function (result) { list.appendChild(item(result)); });
    var left = results.length - list.children.length;
    more.hidden = left <= 0;
    more.textContent = gettext("More results (%(shown)s of %(left)s not shown)", { shown: Math.min(left, search.PAGE), left: left });
    return list.children[shown];
  }

  function run(query) {
    var ticket = ++latest;
    query = query.trim();
    if (!query) { list.textContent = ""; status.textContent = ""; more.hidden = true; return; }
    status.textContent = gettext("Searching for “%(query)s”…", { query: query });
    search.find(query).then(function (found) {
      if (ticket !== latest) return;
      results = found;
      list.textContent = "";
      showMore();
      var values = { count: found.length, query: query };
      status.textContent = found.length === 1 ? gettext("1 result for “%(query)s”.", values)
        : found.length ? gettext("%(count)s results for “%(query)s”.", values) : gettext("Nothing found for “%(query)s”.", values);
    }).catch(function () {
      if (ticket === latest) status.textContent = gettext("Search could not load here. Browse the people, timeline or sources instead.");
    });
  }

  function remember() {
    try { history.replaceState(null, "", "?q=" + encodeURIComponent(input.value)); } catch (error) { /* file:// may refuse */ }
  }

  more.addEventListener("click", function () {
    var first = showMore();
    var link = first && first.querySelector("a");
    if (link) link.focus();
  });
  input.addEventListener("input", search.debounced(function () { remember(); run(input.value); }));
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    remember();
    run(input.value);
  });
  var initial = new URLSearchParams(location.search).get("q");
  if (initial) {
    input.value = initial;
    run(initial);
  }
})();
