// Toquilla Trace pages: only what needs a browser API. Everything else is server-rendered HTML that htmx swaps.
// See docs/workshop-pages.md (composer, dictation, step labels).
(function () {
  "use strict";

  function composer() {
    var form = document.getElementById("composer");
    if (!form) return;
    var note = form.querySelector("#note");
    var count = form.querySelector("[data-count]");
    var mode = form.querySelector("input[name=input_mode]");
    var running = form.querySelector("#running");
    var steps = JSON.parse(form.getAttribute("data-steps") || "[]");
    var timer = null;

    function updateCount() {
      count.textContent = String(note.value.length);
    }
    note.addEventListener("input", function (event) {
      // A person typing over a dictated note makes it a typed one (the agent reads both the same way).
      if (event.isTrusted && event.inputType) mode.value = "typed";
      updateCount();
    });
    updateCount();

    // The composer's "agent running" labels (data-steps), shown while the request is in flight: they are a
    // hint of what the agent does, not a report of it.
    form.addEventListener("htmx:beforeRequest", function () {
      var n = 0;
      running.hidden = false;
      running.textContent = steps[0] || "";
      timer = window.setInterval(function () {
        n = Math.min(n + 1, steps.length - 1);
        running.textContent = steps[n] || "";
      }, 700);
    });
    form.addEventListener("htmx:afterRequest", function (event) {
      window.clearInterval(timer);
      running.hidden = true;
      running.textContent = "";
      if (event.detail.successful && event.detail.xhr.getResponseHeader("HX-Push-Url")) {
        form.reset();
        mode.value = "typed";
        updateCount();
      }
    });

    dictation(form, note, mode, updateCount);
  }

  function dictation(form, note, mode, updateCount) {
    var button = form.querySelector("#dictate");
    var Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
    if (!button || !Recognition) return; // no speech recognition: the button stays hidden, notes are typed
    button.hidden = false;
    var idle = button.textContent;
    var listening = null;

    button.addEventListener("click", function () {
      if (listening) {
        listening.stop();
        return;
      }
      var rec = new Recognition();
      rec.lang = form.getAttribute("data-speech-lang") || "es-EC";
      rec.interimResults = false;
      rec.continuous = false;
      rec.maxAlternatives = 1;
      var before = note.value;
      rec.onresult = function (event) {
        var text = "";
        for (var i = event.resultIndex; i < event.results.length; i++) {
          if (event.results[i].isFinal) text += event.results[i][0].transcript;
        }
        if (!text) return;
        note.value = (before ? before.replace(/\s*$/, " ") : "") + text.trim();
        note.value = note.value.slice(0, Number(note.getAttribute("maxlength")) || 1000);
        mode.value = "voice";
        updateCount();
      };
      rec.onend = function () {
        listening = null;
        button.textContent = idle;
        button.setAttribute("aria-pressed", "false");
        note.focus();
      };
      rec.onerror = function (event) {
        dictationFailed(form, button, event && event.error);
      };
      listening = rec;
      dictationFailed(form, button, null);
      button.textContent = button.getAttribute("data-listening") || idle;
      button.setAttribute("aria-pressed", "true");
      rec.start();
    });
  }

  // Why dictation stopped, in the page's language (the server writes the sentences into data-errors); null
  // clears it. "aborted" is the person's own stop and says nothing (docs/workshop-pages.md, "Browser code").
  function dictationFailed(form, button, code) {
    var out = form.querySelector("#dictation-error");
    if (!out) return;
    if (!code || code === "aborted") {
      out.hidden = true;
      out.textContent = "";
      return;
    }
    var errors = {};
    try {
      errors = JSON.parse(button.getAttribute("data-errors") || "{}");
    } catch (e) {
      errors = {};
    }
    var key = code === "service-not-allowed" ? "not-allowed" : code;
    out.textContent = errors[key] || errors.other || "";
    out.hidden = !out.textContent;
  }

  // After a decision, the keyboard goes where the work goes on (docs/workshop-pages.md, "Cards"): a card still
  // open (an answer saved, a form not accepted) keeps it; a decided card hands it to the next open card, or to
  // the panel's heading when none is left. "Approve all pending" hands it to the heading. The outcome itself is
  // said by the polite live region the server fills (#announce).
  function focusOn(element) {
    if (!element) return;
    if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus({ preventScroll: false });
  }
  function nextOpenCard(card) {
    // The open cards of the card's own note (the dashboard may show several notes' panels: the outbox's).
    var panel = card.closest(".panel");
    var cards = Array.prototype.slice.call(panel ? panel.querySelectorAll("article.card") : []);
    var at = cards.indexOf(card);
    var after = cards.slice(at + 1).concat(cards.slice(0, Math.max(at, 0)));
    for (var i = 0; i < after.length; i++) if (after[i].hasAttribute("data-open")) return after[i];
    return null;
  }
  // htmx settles a swap a moment after it (config.defaultSettleDelay); a person who put the focus somewhere else
  // in that moment (tabbed on, opened another card's form) has moved on and keeps it. The swap itself leaves the
  // focus on the page's body (the pressed button is gone) or inside the new content.
  function movedOn(el) {
    var active = document.activeElement;
    return !!active && active !== document.body && active !== document.documentElement && !el.contains(active);
  }
  function focusAfterSwap(event) {
    // htmx fires afterSettle on each element it put in (the new card of an outerHTML swap, the note's panel itself for
    // "approve all pending"), including out-of-band ones, which are left alone.
    var el = event.target;
    if (!el || !el.id || movedOn(el)) return;
    if (el.classList.contains("panel")) {
      focusOn(el.querySelector(".panel-title"));
      return;
    }
    var card = el.tagName === "ARTICLE" && el.classList.contains("card") ? el : null;
    var panel = card && card.closest(".panel");
    if (!panel) return;
    if (card.hasAttribute("data-open") || !card.hasAttribute("data-decided")) {
      focusOn(card);
      return;
    }
    focusOn(nextOpenCard(card) || panel.querySelector(".panel-title"));
  }
  document.addEventListener("htmx:afterSettle", focusAfterSwap);

  // The copy button beside a new API token's secret: shown only where the browser can write the clipboard
  // (a secure context); otherwise the person selects the text.
  function copyButtons(root) {
    if (!navigator.clipboard || !window.isSecureContext) return;
    var buttons = (root || document).querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var source = document.querySelector(button.getAttribute("data-copy"));
    if (!source) return;
    navigator.clipboard.writeText(source.textContent.trim()).then(
      function () { button.textContent = button.getAttribute("data-copied") || button.textContent; },
      function () { button.hidden = true; } // refused: the secret stays on the page to select by hand
    );
  });
  document.addEventListener("htmx:afterSettle", function () { copyButtons(document); });

  // The hat-tag scanner's buttons (docs/workshop-pages.md, "Scanning a hat tag"): shown where the browser has a
  // camera API; static/scan.js is fetched at the first press (a page that never scans never loads it), then
  // opens the dialog of the button pressed and answers every press after.
  function scanButtons() {
    if (!navigator.mediaDevices || typeof navigator.mediaDevices.getUserMedia !== "function") return;
    var buttons = document.querySelectorAll("button[data-scan]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener("click", loadScanner);
    }
  }
  function loadScanner(event) {
    var button = event.currentTarget;
    var buttons = document.querySelectorAll("button[data-scan]");
    for (var i = 0; i < buttons.length; i++) buttons[i].removeEventListener("click", loadScanner);
    button.setAttribute("data-scan-pending", "");
    var script = document.createElement("script");
    script.src = button.getAttribute("data-scanner");
    script.onerror = function () {
      // Not fetched (offline before the worker kept it): say so, and try again at the next press.
      script.remove();
      button.removeAttribute("data-scan-pending");
      for (var j = 0; j < buttons.length; j++) buttons[j].addEventListener("click", loadScanner);
      var out = document.getElementById(button.getAttribute("data-scan-result"));
      var words = {};
      try {
        words = JSON.parse(button.getAttribute("data-words") || "{}");
      } catch (e) {
        words = {};
      }
      if (out) out.textContent = words["no-decoder"] || "";
    };
    document.head.appendChild(script);
  }

  // Moments the server wrote in UTC (<time data-local-time>: when a note was said, when a run started) are said
  // again in the browser's own time zone and the page's language, as the outbox says a waiting note's time
  // (docs/workshop-pages.md, "Offline"). New content (an htmx swap, a sent outbox note's run) is watched for.
  var timeFormat = null;
  function localTimes(root) {
    if (!root.querySelectorAll || !window.Intl) return;
    var times = root.matches && root.matches("time[data-local-time]") ? [root] : [];
    times = times.concat(Array.prototype.slice.call(root.querySelectorAll("time[data-local-time]")));
    if (!times.length) return;
    timeFormat = timeFormat || new Intl.DateTimeFormat(document.documentElement.lang || "es", {
      dateStyle: "medium", timeStyle: "short"
    });
    times.forEach(function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      time.textContent = timeFormat.format(moment);
      time.removeAttribute("data-local-time");
    });
  }
  function watchTimes() {
    localTimes(document.body);
    if (!window.MutationObserver) return;
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        for (var i = 0; i < change.addedNodes.length; i++) localTimes(change.addedNodes[i]);
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  function start() {
    watchTimes();
    composer();
    copyButtons(document);
    scanButtons();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
