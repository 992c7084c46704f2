// Timeline filters in place: a filter link shows its events without loading a page, and the address
// becomes the filter's own page, which shows the same events without JavaScript. A record of few
// events has no filter page (its link, marked data-record, goes to the record's page, which lists
// them): the address becomes this page's with ?filter=, which shows the same filter when loaded again.
(function () {
  "use strict";
  var title = document.getElementById("timeline-title");
  if (!title || !title.hasAttribute("data-all-events")) return; // a filter page holds only its events: links load pages
  var items = Array.prototype.slice.call(document.querySelectorAll(".timeline > li"));
  var marks = Array.prototype.slice.call(document.querySelectorAll(".axis .mark"));
  var links = Array.prototype.slice.call(document.querySelectorAll("a[data-filter]"));
  var count = document.getElementById("filter-count");
  var reset = document.getElementById("filter-reset");
  var siteTitle = document.title.split(" · ").slice(1).join(" · ");
  var here = location.href.split("#")[0].split("?")[0];
  function address(link) {
    return link.hasAttribute("data-record") ? here + "?filter=" + link.getAttribute("data-filter") : link.href.split("#")[0];
  }
  var filterOf = {};
  links.forEach(function (link) { filterOf[address(link)] = link; });
  var absolute = false;

  function matches(element, facet, value) {
    return !facet || (element.getAttribute("data-" + facet) || "").split(" ").indexOf(value) >= 0;
  }

  function apply(link) {
    var key = link ? link.getAttribute("data-filter") : "";
    var facet = key ? key.split(":")[0] : "";
    var value = key ? key.slice(facet.length + 1) : "";
    var phrase = key ? link.getAttribute("data-phrase") : "";
    var shown = 0;
    items.forEach(function (item) {
      item.hidden = !matches(item, facet, value);
      if (!item.hidden) shown += 1;
    });
    marks.forEach(function (mark) { mark.classList.toggle("dim", !matches(mark, facet, value)); });
    document.querySelectorAll(".timeline-month").forEach(function (month) {
      month.hidden = !month.querySelector(".timeline > li:not([hidden])");
    });
    document.querySelectorAll(".timeline-year").forEach(function (year) {
      year.hidden = !year.querySelector(".timeline-month:not([hidden])");
    });
    document.querySelectorAll(".year-nav a").forEach(function (jump) {
      var target = document.getElementById(jump.getAttribute("href").slice(1));
      jump.hidden = !target || !!target.closest("[hidden]");
    });
    document.querySelectorAll(".year-nav li").forEach(function (year) {
      year.hidden = year.firstElementChild.hidden;
    });
    links.forEach(function (other) {
      if (key && other.getAttribute("data-filter") === key && other.closest(".filters")) other.setAttribute("aria-current", "page");
      else other.removeAttribute("aria-current");
    });
    title.textContent = key ? gettext("Timeline: events %(phrase)s", { phrase: phrase }) : gettext("Timeline");
    document.title = title.textContent + (siteTitle ? " · " + siteTitle : "");
    var values = { count: shown, phrase: phrase };
    count.textContent = !key ? gettext("Showing all %(count)s events.", { count: items.length })
      : shown === 1 ? gettext("Showing %(count)s event, %(phrase)s.", values) : gettext("Showing %(count)s events, %(phrase)s.", values);
    reset.hidden = !key;
  }

  // Relative links are written for this page's address; fix them before the address changes.
  function pinLinks() {
    if (absolute) return;
    absolute = true;
    document.querySelectorAll("a[href], link[href]").forEach(function (link) {
      var href = link.getAttribute("href");
      if (href.charAt(0) !== "#" && typeof link.href === "string") link.setAttribute("href", link.href);
    });
    document.querySelectorAll("form[action]").forEach(function (form) { form.setAttribute("action", form.action); });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-filter]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var target = address(link);
    pinLinks();
    try {
      history.pushState({ filter: link.getAttribute("data-filter") }, "", target);
    } catch (error) {
      return; // some browsers refuse to change a file:// address: the link then loads the filter's page
    }
    event.preventDefault();
    apply(link.getAttribute("data-filter") ? link : null);
  });

  window.addEventListener("popstate", function () {
    var link = filterOf[location.href.split("#")[0]];
    apply(link && link.getAttribute("data-filter") ? link : null);
  });
  var opened = location.search ? filterOf[location.href.split("#")[0]] : null;  // a filter of few events, loaded again
  if (opened) apply(opened);
})();
