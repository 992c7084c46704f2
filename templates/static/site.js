// Citation previews: keep each inside the window, and let Escape close it. Reading them needs no script.
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
})();
