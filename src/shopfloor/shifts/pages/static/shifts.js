// Shift Investigator page: the JSON encoding htmx uses for the ask, the citation rows of the trace, the
// language switch's way back, and the WebMCP registration where the browser offers it (docs/shifts-agent.md,
// "The page").
(function () {
  "use strict";
  // The question limit is the page's: the question box's maxlength, rendered from the router's one constant.
  function maxQuestion() {
    var box = document.getElementById("question");
    return box && box.maxLength > 0 ? box.maxLength : 0;
  }

  function defineJson() {
    if (!window.htmx) { return; }
    // The /shifts POST routes take JSON only; when a field appears twice (an example button beside the
    // question box) the last value, the button's, wins.
    window.htmx.defineExtension("shifts-json", {
      onEvent: function (name, evt) {
        if (name === "htmx:configRequest") { evt.detail.headers["Content-Type"] = "application/json"; }
      },
      encodeParameters: function (xhr, parameters) {
        var out = {};
        parameters.forEach(function (value, key) { out[key] = value; });
        xhr.overrideMimeType("text/html");
        return JSON.stringify(out);
      }
    });
  }

  // A citation points at a row inside a closed <details>: open it, then show the row.
  function openTarget(hash) {
    if (!hash || hash.length < 2) { return; }
    var target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) { return; }
    for (var node = target.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
    }
    target.classList.add("cited");
    target.scrollIntoView({block: "center"});
    if (!target.hasAttribute("tabindex")) { target.setAttribute("tabindex", "-1"); }
    target.focus({preventScroll: true});
  }

  document.addEventListener("click", function (evt) {
    var link = evt.target.closest ? evt.target.closest("a.cite") : null;
    if (link) { window.setTimeout(function () { openTarget(link.getAttribute("href")); }, 0); }
    // The language switch comes back to the page as it is now (an answer swapped in moves its address).
    var swap = evt.target.closest ? evt.target.closest("a.lang-switch") : null;
    if (swap) {
      var url = new URL(swap.href, window.location.href);
      url.searchParams.set("next", window.location.pathname + window.location.search);
      swap.href = url.toString();
    }
  });
  window.addEventListener("hashchange", function () { openTarget(window.location.hash); });

  // WebMCP: the visible investigate action, with a validated question; offline planner, day period only.
  function registerWebMcp() {
    var mc = navigator.modelContext;
    if (!mc || typeof mc.registerTool !== "function") { return; }
    var form = document.getElementById("ask");
    var MAX_QUESTION = maxQuestion();
    if (!form || !MAX_QUESTION) { return; }
    mc.registerTool({
      name: "investigate",
      description: "Ask the Shift Investigator one question about the production day and shift selected on the page (offline planner, day period). Returns the answer's headline and address.",
      inputSchema: {
        type: "object",
        properties: {question: {type: "string", minLength: 1, maxLength: MAX_QUESTION}},
        required: ["question"],
        additionalProperties: false
      },
      execute: function (input) {
        var question = input && input.question;
        if (typeof question !== "string" || !question.trim() || question.length > MAX_QUESTION) {
          return Promise.reject(new Error("question must be a string of 1 to " + MAX_QUESTION + " characters"));
        }
        var extra = Object.keys(input).filter(function (k) { return k !== "question"; });
        if (extra.length) { return Promise.reject(new Error("unexpected argument: " + extra[0])); }
        document.getElementById("period").value = "day";
        var planner = document.getElementById("planner");
        if (planner) { planner.value = "offline"; }
        document.getElementById("question").value = question;
        return new Promise(function (resolve) {
          var main = document.getElementById("main");
          main.addEventListener("htmx:afterSettle", function done() {
            main.removeEventListener("htmx:afterSettle", done);
            var head = main.querySelector(".headline") || main.querySelector(".answer p");
            var address = main.querySelector("a.address");
            resolve({content: [{type: "text", text: (head ? head.textContent : "No answer") +
              (address ? " (" + address.textContent + ")" : "")}]});
          });
          form.requestSubmit(form.querySelector("button.primary"));
        });
      }
    });
    document.documentElement.setAttribute("data-webmcp", "registered");
  }

  document.addEventListener("DOMContentLoaded", function () {
    defineJson();
    registerWebMcp();
    openTarget(window.location.hash);
  });
})();
