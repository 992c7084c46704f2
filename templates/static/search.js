// The search page: Pagefind's index over http(s); from disk (file://), where browsers refuse to load
// Pagefind's modules, the plain index in search/fallback.js that portable builds carry.
(function () {
  "use strict";
  var form = document.querySelector("form.search-form");
  var input = document.getElementById("search-query");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  if (!form || !input) return;
  var engine = null;
  var latest = 0;

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function fallbackEngine(pages) {
    var folded = pages.map(function (page) { return { page: page, title: fold(page.title), text: fold(page.text) }; });
    return {
      search: function (query) {
        var terms = fold(query).split(/\s+/).filter(Boolean);
        var phrase = terms.join(" ");
        var hits = folded.filter(function (entry) {
          return terms.every(function (term) { return entry.title.indexOf(term) >= 0 || entry.text.indexOf(term) >= 0; });
        }).map(function (entry) {
          var score = (entry.title.indexOf(phrase) >= 0 ? 100 : 0) + (entry.text.indexOf(phrase) >= 0 ? 10 : 0);
          terms.forEach(function (term) { score += entry.text.split(term).length - 1; });
          return { entry: entry, score: score };
        }).sort(function (a, b) { return b.score - a.score; });
        return Promise.resolve(hits.map(function (hit) {
          var page = hit.entry.page;
          var at = hit.entry.text.indexOf(phrase) >= 0 ? hit.entry.text.indexOf(phrase) : hit.entry.text.indexOf(terms[0]);
          var start = Math.max(0, at - 80);
          var excerpt = (start ? "…" : "") + page.text.slice(start, at + 160) + "…";
          var url = page.url === "" || page.url.slice(-1) === "/" ? page.url + "index.html" : page.url;
          return { url: "../" + url, title: page.title, type: page.type, excerpt: excerpt, terms: terms };
        }));
      }
    };
  }

  // A large site's index comes in parts (pagefind/parts.json lists all but the first): search them
  // all. Each part also holds a page of every word of the site, which is never a result.
  var VOCABULARY = "/pagefind-vocabulary/";

  function mergeParts(pagefind, address) {
    var listing = new URL("parts.json", address).href;
    return fetch(listing).then(function (response) {
      return response.ok ? response.json() : { parts: [] };
    }).then(function (found) {
      var parts = found.parts || [];
      return Promise.all(parts.map(function (part) {
        return pagefind.mergeIndex(new URL(part, listing).href);
      })).then(function () { return parts.length; });
    });
  }

  function pagefindEngine() {
    var address = new URL(form.getAttribute("data-pagefind"), document.baseURI).href;
    return import(address).then(function (pagefind) {
      return pagefind.options({ excerptLength: 30 }).then(function () {
        return mergeParts(pagefind, address);
      }).then(function (extra) {
        return {
          search: function (query) {
            return pagefind.search(query).then(function (found) {
              var wordPages = extra ? extra + 1 : 0;  // at most one a part, and only when there are parts
              return Promise.all(found.results.slice(0, 30 + wordPages).map(function (result) { return result.data(); }));
            }).then(function (pages) {
              return pages.filter(function (page) {
                return page.url.slice(-VOCABULARY.length) !== VOCABULARY;
              }).slice(0, 30).map(function (page) {
                return { url: page.url, title: page.meta.title, type: page.meta.type || "", excerptHtml: page.excerpt };
              });
            });
          }
        };
      });
    });
  }

  function load() {
    if (!engine) {
      engine = location.protocol === "file:"
        ? Promise.resolve(fallbackEngine(window.dossierSearchPages || []))
        : pagefindEngine();
    }
    return engine;
  }

  // Excerpts: text, with the matched words marked; nothing else from the index becomes markup.
  function excerptNode(result) {
    var paragraph = document.createElement("p");
    paragraph.className = "excerpt";
    if (result.excerptHtml !== undefined) {
      var template = document.createElement("template");
      template.innerHTML = result.excerptHtml;
      template.content.childNodes.forEach(function (node) {
        if (node.nodeName === "MARK") {
          var mark = document.createElement("mark");
          mark.textContent = node.textContent;
          paragraph.appendChild(mark);
        } else {
          paragraph.appendChild(document.createTextNode(node.textContent));
        }
      });
      return paragraph;
    }
    var text = result.excerpt;
    var lower = fold(text);
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

  function show(query, results) {
    list.textContent = "";
    results.forEach(function (result) {
      var item = document.createElement("li");
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
      item.appendChild(heading);
      item.appendChild(excerptNode(result));
      list.appendChild(item);
    });
    var count = results.length === 1 ? "1 result" : results.length + " results";
    status.textContent = results.length ? count + " for “" + query + "”." : "Nothing found for “" + query + "”.";
  }

  function run(query) {
    var ticket = ++latest;
    query = query.trim();
    if (!query) { list.textContent = ""; status.textContent = ""; return; }
    status.textContent = "Searching for “" + query + "”…";
    load().then(function (search) { return search.search(query); }).then(function (results) {
      if (ticket === latest) show(query, results);
    }).catch(function () {
      if (ticket === latest) status.textContent = "Search could not load here. Browse the people, timeline or sources instead.";
    });
  }

  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { run(input.value); }, 200);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    try { history.replaceState(null, "", "?q=" + encodeURIComponent(input.value)); } catch (error) { /* file:// may refuse */ }
    run(input.value);
  });
  var initial = new URLSearchParams(location.search).get("q");
  if (initial) {
    input.value = initial;
    run(initial);
  }
})();
