// Toquilla Trace's hat-tag scanner (docs/workshop-pages.md, "Scanning a hat tag"), fetched by app.js at the
// first press of a "Scan tag" button (app.js shows the buttons). The button opens the camera in a dialog and reads the QR code printed on the tags (it holds the hat's code, "TQ-7F3K2"): with
// the browser's BarcodeDetector where it reads QR codes, otherwise with the vendored jsQR, loaded only then.
// The code either fills a field (data-scan="fill", the composer's hat tag) or opens the hat's page
// (data-scan="open"). Every sentence comes from the server in the page's language (the button's data-words).
(function () {
  "use strict";

  var CODE = /(?:^|\/)TQ-?([0-9A-Z]{5})\/?$/i;
  var PATIENCE_MS = 8000; // no code by then: say how to hold the tag, and keep looking
  var EVERY_MS = 150; // time between two looks at the camera picture
  var LONGEST = 800; // jsQR reads a picture scaled to at most this many pixels on its longer side

  // The hat code a QR code's text names (its own code, or a link ending in one), or null.
  function hatCode(text) {
    var match = CODE.exec(String(text || "").trim());
    return match ? "TQ-" + match[1].toUpperCase() : null;
  }

  var decoderLoading = null;
  function loadDecoder(src) {
    if (window.jsQR) return Promise.resolve();
    if (!decoderLoading) {
      decoderLoading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = src;
        script.onload = function () { if (window.jsQR) resolve(); else reject(new Error("decoder")); };
        script.onerror = function () {
          decoderLoading = null;
          script.remove();
          reject(new Error("decoder"));
        };
        document.head.appendChild(script);
      });
    }
    return decoderLoading;
  }

  // A reader of one video's pictures: a promise of the QR texts seen now (maybe none).
  function makeReader(button) {
    var Detector = window.BarcodeDetector;
    var native = Detector && typeof Detector.getSupportedFormats === "function"
      ? Detector.getSupportedFormats().then(function (formats) { return formats.indexOf("qr_code") >= 0; },
        function () { return false; })
      : Promise.resolve(false);
    return native.then(function (hasQr) {
      if (hasQr) {
        var detector = new Detector({ formats: ["qr_code"] });
        return function (video) {
          return detector.detect(video).then(function (codes) {
            return codes.map(function (c) { return c.rawValue; });
          });
        };
      }
      return loadDecoder(button.getAttribute("data-decoder")).then(function () {
        var canvas = document.createElement("canvas");
        var context = canvas.getContext("2d", { willReadFrequently: true });
        return function (video) {
          var w = video.videoWidth, h = video.videoHeight;
          if (!w || !h) return Promise.resolve([]);
          var scale = Math.min(1, LONGEST / Math.max(w, h));
          canvas.width = Math.round(w * scale);
          canvas.height = Math.round(h * scale);
          context.drawImage(video, 0, 0, canvas.width, canvas.height);
          var picture = context.getImageData(0, 0, canvas.width, canvas.height);
          var found = window.jsQR(picture.data, canvas.width, canvas.height, { inversionAttempts: "dontInvert" });
          return Promise.resolve(found ? [found.data] : []);
        };
      });
    });
  }

  // What a failed camera start is called in data-words, from the browser's error name.
  function cameraProblem(error) {
    var name = error && error.name;
    if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") return "denied";
    if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") {
      return "no-camera";
    }
    if (name === "NotReadableError" || name === "TrackStartError" || name === "AbortError") return "busy";
    if (error && error.message === "decoder") return "no-decoder";
    return "other";
  }

  // Wires one button and its dialog; returns what opens it (or null where the browser has no dialogs).
  function scanner(button) {
    var dialog = document.getElementById(button.getAttribute("aria-controls"));
    if (!dialog || typeof dialog.showModal !== "function") return null;
    var video = dialog.querySelector("video");
    var status = dialog.querySelector("[data-scan-status]");
    var close = dialog.querySelector("[data-scan-close]");
    var result = document.getElementById(button.getAttribute("data-scan-result"));
    var words = {};
    try {
      words = JSON.parse(button.getAttribute("data-words") || "{}");
    } catch (e) {
      words = {};
    }
    var stream = null;
    var timer = null;
    var hint = null;
    var running = false;
    var session = 0; // each opening of the dialog; late answers of an earlier one are dropped
    var done = null; // where the focus goes when the dialog closes

    function say(key, code) {
      status.textContent = (words[key] || "").replace("{code}", code || "");
      dialog.setAttribute("data-state", key);
    }

    function stop() {
      running = false;
      window.clearTimeout(timer);
      window.clearTimeout(hint);
      if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
      stream = null;
      video.srcObject = null;
    }

    function found(code) {
      stop();
      var mode = button.getAttribute("data-scan");
      if (mode === "open") {
        if (navigator.onLine === false) {
          say("offline", code);
          close.textContent = words.close || close.textContent;
          return;
        }
        say("opening", code);
        window.location.assign(button.getAttribute("data-scan-target") + encodeURIComponent(code));
        return;
      }
      var field = document.getElementById(button.getAttribute("data-scan-target"));
      if (field) {
        field.value = code;
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
      if (result) result.textContent = (words.read || "").replace("{code}", code);
      done = field || button;
      dialog.close();
    }

    function look(read, mine) {
      if (!running || mine !== session) return;
      read(video).then(function (texts) {
        if (!running || mine !== session) return;
        var wrong = false;
        for (var i = 0; i < texts.length; i++) {
          var code = hatCode(texts[i]);
          if (code) return found(code);
          wrong = true;
        }
        if (wrong) say("not-a-tag");
        timer = window.setTimeout(function () { look(read, mine); }, EVERY_MS);
      }, function () {
        if (running && mine === session) timer = window.setTimeout(function () { look(read, mine); }, EVERY_MS);
      });
    }

    function failed(error) {
      stop();
      video.hidden = true;
      say(cameraProblem(error));
      close.textContent = words.close || close.textContent;
    }

    function open() {
      var mine = ++session;
      function live() { return running && mine === session; }
      done = button;
      if (result) result.textContent = "";
      close.textContent = words.cancel || close.textContent;
      video.hidden = false;
      say("starting");
      dialog.showModal();
      running = true;
      // The picture shows as soon as the camera gives it; the decoder may still be loading (jsQR, once).
      var reader = makeReader(button);
      reader.catch(function () {}); // its failure is handled below, once the camera is on
      var camera = navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" } },
        audio: false,
      });
      camera.then(function (s) {
        if (!live()) {
          s.getTracks().forEach(function (track) { track.stop(); }); // closed while the camera was starting
          return null;
        }
        stream = s;
        video.srcObject = s;
        return video.play().then(function () {
          if (live()) say("looking");
          return reader;
        });
      }).then(function (read) {
        if (!read || !live()) return;
        hint = window.setTimeout(function () {
          if (live() && dialog.getAttribute("data-state") === "looking") say("nothing");
        }, PATIENCE_MS);
        look(read, mine);
      }).catch(function (error) {
        if (live()) failed(error);
      });
    }

    // "Hat tag read" stays only while the field holds what was read: typing over it or a sent note clears it.
    var target = document.getElementById(button.getAttribute("data-scan-target"));
    function forget(event) {
      if (result && (event.type === "reset" || event.isTrusted)) result.textContent = "";
    }
    if (target && button.getAttribute("data-scan") === "fill") {
      target.addEventListener("input", forget);
      if (target.form) target.form.addEventListener("reset", forget);
    }

    button.addEventListener("click", open);
    close.addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("close", function () {
      stop();
      if (done) done.focus();
    });
    return open;
  }

  function start() {
    var buttons = document.querySelectorAll("button[data-scan]");
    for (var i = 0; i < buttons.length; i++) {
      var open = scanner(buttons[i]);
      // The press that fetched this file opens its dialog now.
      if (buttons[i].hasAttribute("data-scan-pending")) {
        buttons[i].removeAttribute("data-scan-pending");
        if (open) open();
      }
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
