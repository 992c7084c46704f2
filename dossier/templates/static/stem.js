// The English (Porter2) stemmer that Pagefind applies to the words it indexes and to a query's words,
// for the portable build's search, so that a query finds the same pages there ("defected" finds
// "defectors"). Takes a lower-case word without accents; returns its stem.
(function () {
  "use strict";
  var EXCEPTIONS = { skis: "ski", skies: "sky", idly: "idl", gently: "gentl", ugly: "ugli", early: "earli", only: "onli",
    singly: "singl", sky: "sky", news: "news", howe: "howe", atlas: "atlas", cosmos: "cosmos", bias: "bias", andes: "andes" };
  var PREFIXES = /^(arsen|commun|emerg|gener|inter|later|organ|past|univers)/;  // R1 starts after them
  var STEP2 = [["ization", "ize"], ["ational", "ate"], ["fulness", "ful"], ["ousness", "ous"], ["iveness", "ive"],
    ["tional", "tion"], ["biliti", "ble"], ["lessli", "less"], ["entli", "ent"], ["ation", "ate"], ["alism", "al"],
    ["aliti", "al"], ["ousli", "ous"], ["iviti", "ive"], ["fulli", "ful"], ["ogist", "og"], ["enci", "ence"], ["anci", "ance"],
    ["abli", "able"], ["izer", "ize"], ["ator", "ate"], ["alli", "al"], ["bli", "ble"], ["ogi", "og"], ["li", ""]];
  var STEP3 = [["ational", "ate"], ["tional", "tion"], ["alize", "al"], ["icate", "ic"], ["iciti", "ic"], ["ative", ""],
    ["ical", "ic"], ["ness", ""], ["ful", ""]];
  var STEP4 = ["ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion",
    "al", "er", "ic"];

  function vowel(c) { return "aeiouy".indexOf(c) >= 0; }
  function ends(word, suffix) { return word.length >= suffix.length && word.slice(-suffix.length) === suffix; }
  function longest(word, suffixes) {
    for (var i = 0; i < suffixes.length; i++) {
      var suffix = typeof suffixes[i] === "string" ? suffixes[i] : suffixes[i][0];
      if (ends(word, suffix)) return i;
    }
    return -1;
  }
  function region(word, from) {  // where the region after the first non-vowel following a vowel starts
    for (var i = from + 1; i < word.length; i++) if (!vowel(word[i]) && vowel(word[i - 1])) return i + 1;
    return word.length;
  }
  function shortSyllableAt(word, end) {  // whether word[0, end) ends in a short syllable
    if (word.slice(0, end).slice(-4) === "past") return true;
    if (end === 2) return vowel(word[0]) && !vowel(word[1]);
    return end >= 3 && !vowel(word[end - 3]) && vowel(word[end - 2]) && !vowel(word[end - 1]) && "wxY".indexOf(word[end - 1]) < 0;
  }

  function stem(word) {
    if (Object.prototype.hasOwnProperty.call(EXCEPTIONS, word)) return EXCEPTIONS[word];
    if (word.length <= 2) return word;
    if (word[0] === "y") word = "Y" + word.slice(1);
    word = word.replace(/([aeiouy])y/g, "$1Y");
    var match = PREFIXES.exec(word);
    var r1 = match ? match[0].length : region(word, 0);
    var r2 = region(word, r1);
    var i;
    // Step 1a
    if (ends(word, "sses")) word = word.slice(0, -2);
    else if (ends(word, "ied") || ends(word, "ies")) word = word.slice(0, -3) + (word.length > 4 ? "i" : "ie");
    else if (ends(word, "us") || ends(word, "ss")) { /* unchanged */ }
    else if (ends(word, "s") && /[aeiouy]/.test(word.slice(0, -2))) word = word.slice(0, -1);
    // Step 1b
    i = longest(word, ["eedly", "ingly", "edly", "eed", "ing", "ed"]);
    var stemmed = i >= 0 ? word.slice(0, -[5, 5, 4, 3, 3, 2][i]) : "";
    if (i === 0 || i === 3) {
      if (stemmed.length >= r1 && !/^(succ|proc|exc)$/.test(stemmed)) word = stemmed + "ee";
    } else if (i === 4 && /^[^aeiouy]y$/.test(stemmed)) {
      word = stemmed[0] + "ie";  // dying, lying
    } else if (i === 4 && /^(even|cann|inn|earr|herr|out)$/.test(stemmed)) {
      /* evening, canning, inning, earring, herring, outing: unchanged */
    } else if (i >= 0 && /[aeiouy]/.test(stemmed)) {
      word = stemmed;
      if (ends(word, "at") || ends(word, "bl") || ends(word, "iz")) word += "e";
      else if (/(bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(word)) { if (!/^[aeo](.)\1$/.test(word)) word = word.slice(0, -1); }
      else if (r1 === word.length && shortSyllableAt(word, word.length)) word += "e";
    }
    // Step 1c
    if (word.length > 2 && /[yY]$/.test(word) && !vowel(word[word.length - 2])) word = word.slice(0, -1) + "i";
    // Step 2
    i = longest(word, STEP2);
    if (i >= 0 && word.length - STEP2[i][0].length >= r1) {
      var before = word[word.length - STEP2[i][0].length - 1];
      if (STEP2[i][0] === "ogi") { if (before === "l") word = word.slice(0, -3) + "og"; }
      else if (STEP2[i][0] === "li") { if ("cdeghkmnrt".indexOf(before) >= 0) word = word.slice(0, -2); }
      else word = word.slice(0, -STEP2[i][0].length) + STEP2[i][1];
    }
    // Step 3
    i = longest(word, STEP3);
    if (i >= 0 && word.length - STEP3[i][0].length >= r1 && (STEP3[i][0] !== "ative" || word.length - 5 >= r2)) {
      word = word.slice(0, -STEP3[i][0].length) + STEP3[i][1];
    }
    // Step 4
    i = longest(word, STEP4);
    if (i >= 0 && word.length - STEP4[i].length >= r2) {
      if (STEP4[i] !== "ion" || /[st]ion$/.test(word)) word = word.slice(0, -STEP4[i].length);
    }
    // Step 5
    if (ends(word, "e") && (word.length - 1 >= r2 || (word.length - 1 >= r1 && !shortSyllableAt(word, word.length - 1)))) {
      word = word.slice(0, -1);
    } else if (ends(word, "ll") && word.length - 1 >= r2) {
      word = word.slice(0, -1);
    }
    return word.replace(/Y/g, "y");
  }

  window.dossierStem = stem;
})();
