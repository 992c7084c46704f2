// Citation previews: keep each inside the window (above its marker when there is no room below), let
// Escape close it, and on a touch screen let a tap on a marker show and hide it. Reading them needs no script.
// Source pages: highlight every piece of the passage the address names (without script, its first piece).
(function () {
  "use strict";
  var touch = false;  // whether the last pointer to go down was a finger
  function place(marker) {
    var preview = marker.querySelector(".preview");
    if (!preview) return;
    marker.classList.remove("dismissed", "above");
    preview.style.left = "";
    var box = preview.getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    var shift = box.right > width - 8 ? box.right - (width - 8) : 0;
    if (box.left - shift < 8) shift = box.left - 8;
    if (shift !== 0) preview.style.left = parseFloat(getComputedStyle(preview).left) - shift + "px";
    var room = marker.getBoundingClientRect().top;
    if (getComputedStyle(preview).position === "absolute" && box.bottom > window.innerHeight - 8 && room > box.height + 16) {
      marker.classList.add("above");
    }
  }
  function markerOf(node) {
    return node && node.closest ? node.closest(".citation") : null;
  }
  function closeAll() {
    document.querySelectorAll(".citation.open").forEach(function (marker) {
      marker.classList.remove("open");
      marker.classList.add("dismissed");  // also against the focus and the hover a tap leaves behind
    });
  }
  document.addEventListener("focusin", function (event) {
    var marker = markerOf(event.target);
    if (marker && !touch) place(marker);
  });
  document.addEventListener("mouseover", function (event) {
    var marker = markerOf(event.target);
    if (marker && !touch && !marker.contains(event.relatedTarget)) place(marker);
  });
  document.addEventListener("pointerdown", function (event) {
    touch = event.pointerType === "touch";
  });
  // Provenance markers (.prov): a click or tap shows or hides the note; Escape or a click elsewhere hides it.
  function closeNotes(except) {
    document.querySelectorAll(".prov.open, .prov:hover, .prov:focus-within").forEach(function (note) {
      if (note !== except) { note.classList.remove("open"); note.classList.add("dismissed"); }
    });
  }
  document.addEventListener("click", function (event) {
    var note = event.target.closest ? event.target.closest(".prov") : null;
    closeNotes(note);
    if (note && event.target.closest(".prov-mark")) {
      var shown = note.classList.contains("open");
      note.classList.toggle("open", !shown);
      note.classList.toggle("dismissed", shown);
    }
  });
  ["focusin", "mouseover"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var note = event.target.closest ? event.target.closest(".prov") : null;
      if (note && !note.contains(event.relatedTarget) && !note.classList.contains("open")) note.classList.remove("dismissed");
    });
  });
  document.addEventListener("click", function (event) {
    var marker = markerOf(event.target);
    var link = marker && event.target.closest("a");
    if (link && link.closest(".preview")) return;  // a passage in the preview: go to it in its article
    if (!link) {
      if (!marker) closeAll();
      return;
    }
    if (!touch) {  // the mouse or the keyboard follows the link: leave no preview over the references
      marker.classList.add("dismissed");
      return;
    }
    event.preventDefault();  // a tap shows or hides the passage, and stays where the reader is
    var open = marker.classList.contains("open");
    closeAll();
    if (!open) {
      marker.classList.add("open");
      place(marker);
    }
  });
  document.addEventListener("keydown", function (event) {
    touch = false;
    if (event.key !== "Escape") return;
    closeNotes(null);
    document.querySelectorAll(".citation:hover, .citation:focus-within, .citation.open").forEach(function (marker) {
      marker.classList.remove("open");
      marker.classList.add("dismissed");
    });
  });
  // The reference list's switch: every sentence's count of independent sources, shown after it or not
  // (kept for the next page). Without script the counts stay in each marker's preview.
  var KEY = "dossier-show-support";
  function showSupport(on) {
    document.documentElement.classList.toggle("show-support", on);
    document.querySelectorAll(".support-switch button").forEach(function (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); });
  }
  document.querySelectorAll(".support-switch").forEach(function (line) {
    line.hidden = false;
    line.querySelector("button").addEventListener("click", function () {
      var on = !document.documentElement.classList.contains("show-support");
      showSupport(on);
      try { localStorage.setItem(KEY, on ? "1" : ""); } catch (e) { /* storage refused: for this page only */ }
    });
  });
  try { showSupport(localStorage.getItem(KEY) === "1"); } catch (e) { showSupport(false); }
  function highlight() {
    document.querySelectorAll("mark.target").forEach(function (mark) { mark.classList.remove("target"); });
    var id = location.hash.slice(1);
    if (!/^passage-[0-9a-f]+$/.test(id)) return;
    document.querySelectorAll('mark[data-passages~="' + id + '"]').forEach(function (mark) { mark.classList.add("target"); });
  }
  highlight();
  window.addEventListener("hashchange", highlight);
})();

// The interface's words in the page's language: a page in another language than English carries their
// translations (data-interface-strings on <body>: in <head> it would push the charset past the first 1024 bytes); "%(name)s" in a text stands for values.name.
// A number is written as the page's language writes counts, as the templates do ("1.410" in Spanish; English as ever, "1410").
function gettext(text, values) {
  "use strict";
  if (gettext.table === undefined) {
    var data = document.body.getAttribute("data-interface-strings");
    gettext.table = data ? JSON.parse(data) : {};
  }
  var lang = document.documentElement.lang || "en";
  var result = gettext.table[text] || text;
  Object.keys(values || {}).forEach(function (name) {
    var value = values[name];
    if (typeof value === "number" && lang !== "en") value = value.toLocaleString(lang, { useGrouping: "always" });
    result = result.split("%(" + name + ")s").join(value);
  });
  return result;
}
