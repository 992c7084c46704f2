// The header's search box, with script: a combobox whose listbox offers the best results as the
// reader types (ARIA's combobox pattern). Down and Up move through the options, Enter opens the one
// chosen (or, with none chosen, the search page), Escape closes the list. Without script the box is
// a plain form that opens the search page. Needs static/search.js first.
(function () {
  "use strict";
  var search = window.dossierSearch;
  var form = document.querySelector("form.site-search");
  var input = document.getElementById("site-search-query");
  if (!search || !form || !input) return;
  var listbox = document.createElement("ul");
  listbox.id = "site-search-options";
  listbox.className = "search-options";
  listbox.setAttribute("role", "listbox");
  listbox.setAttribute("aria-label", gettext("Search results"));
  listbox.hidden = true;
  var announce = document.createElement("span");
  announce.className = "visually-hidden";
  announce.setAttribute("role", "status");
  form.appendChild(listbox);
  form.appendChild(announce);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", listbox.id);
  input.setAttribute("aria-expanded", "false");
  var active = -1;
  var latest = 0;

  function options() {
    return listbox.querySelectorAll("[role=option]");
  }

  function open(shown) {
    listbox.hidden = !shown;
    input.setAttribute("aria-expanded", shown ? "true" : "false");
    if (!shown) choose(-1);
  }

  function choose(index) {
    var all = options();
    active = index;
    all.forEach(function (option, at) { option.setAttribute("aria-selected", at === index ? "true" : "false"); });
    if (index >= 0 && all[index]) {
      input.setAttribute("aria-activedescendant", all[index].id);
      all[index].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function option(number, href, title, type) {
    var entry = document.createElement("li");
    entry.id = "site-search-option-" + number;
    entry.setAttribute("role", "option");
    entry.setAttribute("aria-selected", "false");
    entry.setAttribute("data-href", href);
    var name = document.createElement("span");
    name.className = type ? "option-title" : "option-all";
    name.textContent = title;
    entry.appendChild(name);
    if (type) {
      var kind = document.createElement("span");
      kind.className = "result-type";
      kind.textContent = type;
      entry.appendChild(document.createTextNode(" "));
      entry.appendChild(kind);
    }
    return entry;
  }

  function offer(query, found) {
    listbox.textContent = "";
    found.slice(0, search.OFFERED).forEach(function (result, number) {
      listbox.appendChild(option(number, result.url, result.title || result.url, result.type || gettext("Page")));
    });
    var all = new URL(form.getAttribute("action"), document.baseURI);
    all.search = "?q=" + encodeURIComponent(query);
    var values = { count: found.length, offered: Math.min(found.length, search.OFFERED), query: query };
    var label = found.length === 1 ? gettext("All 1 result for “%(query)s”", values)
      : found.length ? gettext("All %(count)s results for “%(query)s”", values) : gettext("Nothing found for “%(query)s”: open the search page", values);
    listbox.appendChild(option("all", all.href, label, ""));
    announce.textContent = found.length ? gettext("%(offered)s of %(count)s results offered.", values) : gettext("Nothing found.");
    choose(-1);
    open(true);
  }

  function run() {
    var ticket = ++latest;
    var query = input.value.trim();
    if (!query) { open(false); announce.textContent = ""; return; }
    search.find(query).then(function (found) {
      if (ticket === latest && document.activeElement === input) offer(query, found);
    }).catch(function () { if (ticket === latest) open(false); });
  }

  function follow(index) {
    var chosen = options()[index];
    if (chosen) location.href = chosen.getAttribute("data-href");
  }

  input.addEventListener("input", search.debounced(run));
  input.addEventListener("keydown", function (event) {
    var count = options().length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!count) return;
      event.preventDefault();
      if (listbox.hidden) { open(true); choose(event.key === "ArrowDown" ? 0 : count - 1); return; }
      choose(event.key === "ArrowDown" ? (active + 1) % count : (active <= 0 ? count - 1 : active - 1));
    } else if (event.key === "Enter" && !listbox.hidden && active >= 0) {
      event.preventDefault();
      follow(active);
    } else if (event.key === "Escape" && !listbox.hidden) {
      event.preventDefault();  // close the list, and keep the words typed
      open(false);
    }
  });
  listbox.addEventListener("mousedown", function (event) { event.preventDefault(); });  // keep the focus in the box
  listbox.addEventListener("click", function (event) {
    var chosen = event.target.closest("[role=option]");
    if (chosen) follow(Array.prototype.indexOf.call(options(), chosen));
  });
  input.addEventListener("blur", function () { open(false); });
})();
