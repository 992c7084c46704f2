// Citation previews: keep each inside the window, and let Escape close it. Reading them needs no script.
// Source pages: highlight every piece of the passage the address names (without script, its first piece).
(function () {
  "use strict";
  function place(marker) {
    var preview = marker.querySelector(".preview");
    if (!preview) return;
    marker.classList.remove("dismissed");
    preview.style.left = "";
    var box = preview.getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    var shift = box.right > width - 8 ? box.right - (width - 8) : 0;
    if (box.left - shift < 8) shift = box.left - 8;
    if (shift !== 0) preview.style.left = parseFloat(getComputedStyle(preview).left) - shift + "px";
  }
  function markerOf(node) {
    return node && node.closest ? node.closest(".citation") : null;
  }
  document.addEventListener("focusin", function (event) {
    var marker = markerOf(event.target);
    if (marker) place(marker);
  });
  document.addEventListener("mouseover", function (event) {
    var marker = markerOf(event.target);
    if (marker && !marker.contains(event.relatedTarget)) place(marker);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(".citation:hover, .citation:focus-within").forEach(function (marker) {
      marker.classList.add("dismissed");
    });
  });
  function highlight() {
    document.querySelectorAll("mark.target").forEach(function (mark) { mark.classList.remove("target"); });
    var id = location.hash.slice(1);
    if (!/^passage-[0-9a-f]+$/.test(id)) return;
    document.querySelectorAll('mark[data-passages~="' + id + '"]').forEach(function (mark) { mark.classList.add("target"); });
  }
  highlight();
  window.addEventListener("hashchange", highlight);
})();
