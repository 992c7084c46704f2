// Search, on every page: the search page (search/?q=…) lists every result, a page at a time, and the
// header's box offers the best results as a listbox while the reader types. Over http(s) the engine
// is Pagefind; from disk (file://), where browsers refuse to load Pagefind's modules, it is the plain
// index of search/fallback.js that portable builds carry. Both find a page when every word of the
// query starts a word of it, and both order results by one rule (see rank).
(function () {
  "use strict";
  var PAGE = 20;  // results the search page adds at a time
  var OFFERED = 8;  // results the header's listbox offers
  var header = document.querySelector("form.site-search");
  if (!header) return;
  var engine = null;
  var here = document.currentScript ? document.currentScript.src : document.baseURI;

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function wordsOf(text) {
    return fold(text).match(/[\p{L}\p{N}]+/gu) || [];
  }

  function startsSome(words, term) {
    return words.some(function (word) { return word.lastIndexOf(term, 0) === 0; });
  }

  // The order: pages whose title holds every word of the query first, the closest first (fewest
  // other words in the title, then the shortest title, then by title); then the others, in the
  // engine's order of relevance. Array sort is stable, so ties keep the engine's order.
  function rank(results, terms) {
    var keyed = results.map(function (result) {
      var words = wordsOf(result.title || "");
      var titled = terms.every(function (term) { return startsSome(words, term); });
      var others = words.filter(function (word) { return !terms.some(function (term) { return word.lastIndexOf(term, 0) === 0; }); });
      return { result: result, titled: titled, others: others.length };
    });
    keyed.sort(function (a, b) {
      if (a.titled !== b.titled) return a.titled ? -1 : 1;
      if (!a.titled) return 0;
      return a.others - b.others || a.result.title.length - b.result.title.length ||
        (a.result.title < b.result.title ? -1 : a.result.title > b.result.title ? 1 : 0);
    });
    return keyed.map(function (entry) { return entry.result; });
  }

  // As Pagefind does: a page is found when the stem of every word of the query starts the stem of
  // one of its words ("defected" finds "defectors").
  function fallbackEngine(pages, root) {
    var stems = new Map();
    function stemsOf(text) {
      return wordsOf(text).map(function (word) {
        if (!stems.has(word)) stems.set(word, window.dossierStem(word));
        return stems.get(word);
      });
    }
    var lang = document.documentElement.lang;
    var indexed = pages.filter(function (page) { return !page.lang || page.lang === lang; }).map(function (page) {
      return { page: page, text: fold(page.text), words: Array.from(new Set(stemsOf(page.title + " " + page.text))) };
    });
    return {
      search: function (query) {
        var terms = stemsOf(query);
        var phrase = terms.join(" ");
        var hits = indexed.filter(function (entry) {
          return terms.length && terms.every(function (term) { return startsSome(entry.words, term); });
        }).map(function (entry) {
          var score = entry.text.indexOf(phrase) >= 0 ? 10 : 0;
          terms.forEach(function (term) { score += entry.text.split(term).length - 1; });
          return { entry: entry, score: score };
        }).sort(function (a, b) { return b.score - a.score; });
        return Promise.resolve(hits.map(function (hit) {
          var page = hit.entry.page;
          var text = hit.entry.text;
          var at = text.indexOf(phrase) >= 0 ? text.indexOf(phrase) : Math.max(0, text.indexOf(terms[0]));
          var start = Math.max(0, at - 80);
          var excerpt = (start ? "…" : "") + page.text.slice(start, at + 160) + "…";
          var path = page.url === "" || page.url.slice(-1) === "/" ? page.url + "index.html" : page.url;
          return { url: new URL(path, root).href, title: page.title, type: page.type, excerpt: excerpt, terms: terms };
        }));
      }
    };
  }

  // A large site's index comes in parts (pagefind/parts.json lists all but the first): search them
  // all. Each part also holds a page of every word of the site, which is never a result. After a few
  // edits, the pages changed since the parts were indexed are in one more bundle, the delta: the
  // parts' copies of the pages it replaces are old, and the parts know none of the words new since,
  // so they answer a query as if such a word were not in it (see keep).
  var VOCABULARY = "/pagefind-vocabulary/";

  function mergeParts(pagefind, address) {
    var listing = new URL("parts.json", address).href;
    return fetch(listing).then(function (response) {
      return response.ok ? response.json() : { parts: [] };
    }).then(function (found) {
      var delta = found.delta;
      var folders = (found.parts || []).concat(delta ? [delta.folder] : []);
      return Promise.all(folders.map(function (part) {
        return pagefind.mergeIndex(new URL(part, listing).href);
      }).concat(delta && delta.added.length && !window.dossierStem ? [loadScript(new URL("stem.js", here).href)] : [])).then(function () {
        if (!delta) return null;
        var site = new URL("../", listing);
        var added = [];
        delta.added.forEach(function (word) { added = added.concat(wordsOf(word)); });
        return {
          replaces: new Set(delta.replaces.map(function (path) { return new URL(path.replace(/(^|\/)index\.html$/, "$1"), site).pathname; })),
          ids: new Set(delta.ids),
          added: added.map(function (word) { return [word, window.dossierStem(word)]; }),
        };
      });
    });
  }

  // Whether a result is one the whole index would give: a page the delta replaces only from the
  // delta (once), and a page of the parts only if it holds every word of the query the parts may
  // not have known (one that a new word, or its stem, starts: the same rule as Pagefind's).
  function keep(delta, result, page, unknown, seen) {
    if (!delta) return true;
    var path = new URL(page.url, document.baseURI).pathname;  // the parts merged give whole addresses, the first does not
    if (delta.replaces.has(path)) {
      if (!delta.ids.has(result.id) || seen.has(path)) return false;
      seen.add(path);
      return true;
    }
    if (delta.ids.has(result.id) || !unknown.length) return true;
    var stems = wordsOf(page.content || "").map(window.dossierStem);
    return unknown.every(function (stem) { return startsSome(stems, stem); });
  }

  function unknownTerms(delta, query) {
    if (!delta || !delta.added.length) return [];
    return wordsOf(query).filter(function (term) {
      var stem = window.dossierStem(term);
      return delta.added.some(function (word) { return word[0].lastIndexOf(term, 0) === 0 || word[1].lastIndexOf(stem, 0) === 0; });
    }).map(window.dossierStem);
  }

  function pagefindEngine(address) {
    return import(address).then(function (pagefind) {
      return pagefind.options({ excerptLength: 30 }).then(function () {
        return mergeParts(pagefind, address);
      }).then(function (delta) {
        return {
          search: function (query) {
            var results = [];
            return pagefind.search(query).then(function (found) {  // every result: the order needs each title
              results = found.results;
              return Promise.all(results.map(function (result) { return result.data(); }));
            }).then(function (pages) {
              var unknown = unknownTerms(delta, query);
              var seen = new Set();
              return pages.filter(function (page, number) {
                return page.url.slice(-VOCABULARY.length) !== VOCABULARY && keep(delta, results[number], page, unknown, seen);
              }).map(function (page) {
                return { url: page.url, title: page.meta.title, type: page.meta.type || "", excerptHtml: page.excerpt };
              });
            });
          }
        };
      });
    });
  }

  function loadScript(address) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = address;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
  }

  function load() {
    if (!engine) {
      var fallback = header.getAttribute("data-fallback");
      if (location.protocol === "file:" && fallback) {
        var address = new URL(fallback, document.baseURI).href;
        engine = Promise.all([
          window.dossierSearchPages ? null : loadScript(address), window.dossierStem ? null : loadScript(new URL("stem.js", here).href),
        ]).then(function () {
          return fallbackEngine(window.dossierSearchPages || [], new URL("../", address).href);
        });
      } else {
        engine = pagefindEngine(new URL(header.getAttribute("data-pagefind"), document.baseURI).href);
      }
    }
    return engine;
  }

  // Every result, ranked; a query with no words finds nothing.
  function find(query) {
    var terms = wordsOf(query);
    if (!terms.length) return Promise.resolve([]);
    return load().then(function (search) { return search.search(query); }).then(function (results) {
      return rank(results, terms);
    });
  }

  function debounced(action) {
    var timer = null;
    return function () {
      clearTimeout(timer);
      timer = setTimeout(action, 150);
    };
  }

  window.dossierSearch = { find: find, fold: fold, debounced: debounced, PAGE: PAGE, OFFERED: OFFERED };
})();
