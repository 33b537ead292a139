// Toquilla Trace with no connection (docs/workshop-pages.md, "Offline"): the service worker's registration,
// the outbox of notes kept on the phone until there is a signal, and the controls that need the server.
//
// - Every note the composer sends carries an idempotency key, the time it was said and its author, so a note
//   sent again (the answer was lost, two tabs) makes one run on the server.
// - A note sent with no connection, or whose request failed on the way, is kept in IndexedDB for its author
//   and sent in order when the connection returns (the page's "online" event, the next visit, or Background
//   Sync: with no page in sight the service worker sends them itself, static/sw.js). A note the server refuses
//   (the hourly limit, the length) stays with the server's reason. A note the worker sent is kept marked with
//   its run until a dashboard shows that run's cards.
// - A page sends under the Web Lock "toquilla-outbox" taken shared (two tabs may send together: the keys make
//   one run per note), the worker under it exclusive, and each reads the notes only once it holds the lock:
//   the worker never sends a note a page is sending, nor a page one the worker sent.
// - Offline, what must reach the server (card decisions, admin pages, sign-in, sign-out, the language
//   switch) is disabled, with one line saying why.
// - The outbox is per person: another person signed in on the same phone never sends it; sign-out says how
//   many notes it holds and deletes them.
(function () {
  "use strict";

  var DB_NAME = "toquilla-outbox";
  var STORE = "notes";
  var LOCK = "toquilla-outbox";
  var root = "/workshop";
  var strings = {};
  var user = "";
  var draining = false;
  var retryTimer = null;
  var lapsed = false;

  // --- the store --------------------------------------------------------------------------------------------

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var notes = request.result.createObjectStore(STORE, { keyPath: "key" });
        notes.createIndex("user", "user");
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function withStore(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && "result" in result ? result.result : result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
        tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  // The author's notes, oldest first (the order they were said in): those waiting and those the worker sent.
  function notesOf(author) {
    return withStore("readonly", function (notes) { return notes.index("user").getAll(author); })
      .then(function (rows) {
        return (rows || []).sort(function (a, b) { return a.queued - b.queued; });
      });
  }

  function put(note) { return withStore("readwrite", function (notes) { notes.put(note); }); }
  function remove(key) { return withStore("readwrite", function (notes) { notes.delete(key); }); }
  // A refused note keeps its reason only while it is still here: its author may have removed it while it was
  // being sent, and a removed note never comes back.
  function keepIfThere(note) {
    return withStore("readwrite", function (notes) {
      var found = notes.get(note.key);
      found.onsuccess = function () { if (found.result) notes.put(note); };
    });
  }

  function forget(author) {
    return notesOf(author).then(function (rows) {
      return withStore("readwrite", function (notes) {
        rows.forEach(function (row) { notes.delete(row.key); });
      }).then(function () { return rows.length; });
    });
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // --- the composer -----------------------------------------------------------------------------------------

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["x-csrf-token"] || "";
    } catch (error) {
      return "";
    }
  }

  function fieldsOf(form) {
    var value = function (name) {
      var field = form.querySelector("[name=" + name + "]");
      return field ? field.value : "";
    };
    return { note: value("note"), input_mode: value("input_mode") || "typed", hat_tag: value("hat_tag").trim() };
  }

  // What the composer did after a sent note: the form is emptied for the next one.
  function resetComposer(form) {
    form.reset();
    var mode = form.querySelector("input[name=input_mode]");
    if (mode) mode.value = "typed";
    var note = form.querySelector("#note");
    if (note) note.dispatchEvent(new Event("input"));
  }

  function keep(form, fields) {
    var note = {
      key: fields.idempotency_key,
      user: user,
      note: fields.note,
      input_mode: fields.input_mode,
      hat_tag: fields.hat_tag,
      said_at: fields.said_at,
      queued: Date.now() + Math.random() / 1000,
      lang: document.documentElement.lang || "", // the worker sends it in this page's language
      reason: ""
    };
    return put(note).then(function () {
      resetComposer(form);
      say(strings.kept || "");
      return render();
    }).then(function () {
      if (navigator.serviceWorker && navigator.serviceWorker.ready) {
        navigator.serviceWorker.ready.then(function (registration) {
          if (registration.sync) return registration.sync.register("outbox");
        }).catch(function () { /* no Background Sync: "online" and the next visit send them */ });
      }
    });
  }

  function composer() {
    var form = document.getElementById("composer");
    if (!form || !user) return;
    var inFlight = null;
    form.addEventListener("htmx:configRequest", function (event) {
      var fields = fieldsOf(form);
      fields.idempotency_key = newKey();
      fields.said_at = new Date().toISOString();
      if (!navigator.onLine) {
        event.preventDefault(); // no request: the note waits on the phone
        keep(form, fields);
        return;
      }
      var params = event.detail.parameters;
      ["idempotency_key", "said_at"].forEach(function (name) {
        if (typeof params.set === "function") params.set(name, fields[name]);
        else params[name] = fields[name];
      });
      if (typeof params.set === "function") params.set("author", user);
      else params.author = user;
      inFlight = fields;
    });
    // The request never got an answer (no signal, or the answer was cut): keep the note with its key, so
    // sending it again cannot make a second run.
    form.addEventListener("htmx:sendError", function () {
      if (inFlight) keep(form, inFlight);
      inFlight = null;
    });
    form.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.successful) inFlight = null;
    });
  }

  // --- sending ------------------------------------------------------------------------------------------------

  function scheduleRetry() {
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(drain, 3000);
  }

  function waiting(rows) { return rows.filter(function (row) { return !row.sent; }); }

  function reasonOf(header, html) {
    if (header) {
      try {
        return decodeURIComponent(header); // the server's sentence, percent-encoded UTF-8
      } catch (error) { /* an older server: read its fragment */ }
    }
    var box = document.createElement("div");
    box.innerHTML = html; // the server's own fragment, never run: scripts in it are inert and the CSP refuses them
    var error = box.querySelector(".error");
    return (error ? error.textContent : box.textContent).trim();
  }

  function showSent(html) {
    var list = document.getElementById("outbox-sent");
    if (!list) return;
    var item = document.createElement("article");
    item.className = "outbox-sent";
    item.innerHTML = html; // the server's panel, as htmx would swap it
    list.appendChild(item);
    list.hidden = false;
    if (window.htmx) window.htmx.process(item);
  }

  function send(note) {
    var body = new URLSearchParams();
    body.set("note", note.note);
    body.set("input_mode", note.input_mode);
    body.set("hat_tag", note.hat_tag || "");
    body.set("idempotency_key", note.key);
    body.set("said_at", note.said_at);
    body.set("author", note.user);
    return fetch(root + "/notes", {
      method: "POST",
      credentials: "same-origin",
      headers: { "x-csrf-token": csrf(), "hx-request": "true" },
      body: body
    }).then(function (answer) {
      return answer.text().then(function (html) {
        return {
          status: answer.status,
          outcome: answer.headers.get("x-note-outcome") || "",
          reason: answer.headers.get("x-note-reason") || "",
          html: html
        };
      });
    });
  }

  function withLock(work) {
    if (navigator.locks && navigator.locks.request) return navigator.locks.request(LOCK, { mode: "shared" }, work);
    return work();
  }

  // The notes the worker sent while no page was open: each run's answer (its cards, read fresh) below the
  // outbox, as a note the page sent, and then the note is gone. Only a dashboard shows them (the others keep
  // them for it); a run the dashboard shows already is not shown twice.
  function showWorkerSent(rows) {
    if (!document.getElementById("outbox-sent")) return Promise.resolve(true);
    var step = function (left) {
      if (!left.length) return Promise.resolve(true);
      var note = left[0];
      if (!note.run || document.getElementById("bubble-title-" + note.run)) {
        return remove(note.key).then(function () { return step(left.slice(1)); });
      }
      return fetch(root + "/notes/" + encodeURIComponent(note.run), {
        credentials: "same-origin",
        headers: { "hx-request": "true" }
      }).then(function (answer) {
        if (answer.status === 200) {
          return answer.text().then(function (html) {
            showSent(html);
            return remove(note.key);
          }).then(function () { return step(left.slice(1)); });
        }
        if (answer.status === 404) return remove(note.key).then(function () { return step(left.slice(1)); });
        if (answer.status === 401 || answer.status === 403) { lapsed = true; return false; }
        return true; // shown at the next sending
      }, function () { return true; });
    };
    return step(rows);
  }

  // Send the person's notes one by one, oldest first; stop at the first that cannot go now.
  function drain() {
    if (draining || !user || !navigator.onLine) return Promise.resolve();
    draining = true;
    var step = function (rows) {
      if (!rows.length) return null;
      var note = rows[0];
      return send(note).then(function (answer) {
        if (answer.status === 200 && answer.outcome === "sent") {
          return remove(note.key).then(function () { showSent(answer.html); return render(); })
            .then(function () { return step(rows.slice(1)); });
        }
        if (answer.status === 200 && answer.outcome === "refused") {
          note.reason = reasonOf(answer.reason, answer.html);
          return keepIfThere(note).then(render).then(function () { return step(rows.slice(1)); });
        }
        if (answer.status === 200 && answer.outcome === "busy") { scheduleRetry(); return null; }
        if (answer.status === 401 || answer.status === 403 || answer.outcome === "other_user") {
          lapsed = true; // signed out meanwhile: the notes wait for their author to sign in again
          return render();
        }
        scheduleRetry(); // the server is down or answered strangely: try again shortly
        return null;
      }, function () {
        scheduleRetry(); // no answer: the signal went again
        return null;
      });
    };
    return withLock(function () {
      return notesOf(user).then(function (rows) {
        return showWorkerSent(rows.filter(function (row) { return row.sent; })).then(function (goOn) {
          return goOn ? step(waiting(rows)) : render();
        });
      });
    }).catch(function () { return null; }).then(function () {
      draining = false;
    });
  }

  // --- what the person sees ---------------------------------------------------------------------------------

  function say(text) {
    var status = document.getElementById("outbox-status");
    if (status) status.textContent = text;
  }

  function plural(count, one, many) {
    return (count === 1 ? one : many).replace("{count}", String(count));
  }

  function render() {
    var box = document.getElementById("outbox");
    if (!box || !user) return Promise.resolve();
    return notesOf(user).then(waiting).then(function (rows) {
      var list = box.querySelector("ol");
      var count = box.querySelector("[data-outbox-count]");
      box.hidden = rows.length === 0;
      count.textContent = plural(rows.length, strings.countOne, strings.countMany);
      var lapsedLine = box.querySelector("[data-outbox-lapsed]");
      if (lapsedLine) lapsedLine.hidden = !lapsed;
      list.textContent = "";
      var format = new Intl.DateTimeFormat(document.documentElement.lang || "es", {
        dateStyle: "medium", timeStyle: "short"
      });
      rows.forEach(function (row) {
        var item = document.createElement("li");
        item.className = "outbox-note" + (row.reason ? " refused" : "");
        item.setAttribute("data-key", row.key);
        var text = document.createElement("p");
        text.className = "outbox-text";
        text.textContent = row.note;
        var meta = document.createElement("p");
        meta.className = "outbox-meta";
        var parts = [format.format(new Date(row.said_at)), row.input_mode === "voice" ? strings.voice : strings.typed];
        if (row.hat_tag) parts.push(row.hat_tag);
        meta.textContent = parts.join(" · ");
        item.appendChild(text);
        item.appendChild(meta);
        if (row.reason) {
          var reason = document.createElement("p");
          reason.className = "error outbox-reason";
          reason.setAttribute("role", "alert");
          reason.textContent = strings.refused.replace("{reason}", row.reason);
          item.appendChild(reason);
        }
        var button = document.createElement("button");
        button.type = "button";
        button.className = "quiet";
        button.textContent = strings.remove;
        button.setAttribute("aria-label", strings.removeLabel.replace("{note}", row.note.slice(0, 40)));
        button.addEventListener("click", function () { remove(row.key).then(render); });
        item.appendChild(button);
        list.appendChild(item);
      });
    });
  }

  // --- what needs a connection --------------------------------------------------------------------------------

  // Forms and links that must reach the server: everything that posts except the composer, and the pages the
  // worker does not keep (admin pages, API tokens).
  function needsServer(root) {
    var found = [];
    var forms = root.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      if (forms[i].id === "composer") continue;
      var buttons = forms[i].querySelectorAll("button, input[type=submit]");
      for (var j = 0; j < buttons.length; j++) found.push(buttons[j]);
    }
    var loose = root.querySelectorAll("button[hx-post], button[hx-get]");
    for (var k = 0; k < loose.length; k++) found.push(loose[k]);
    return found;
  }

  var KEPT_PAGES = ["/", "/hats", "/weavers", "/signin"];

  function connection() {
    var offline = !navigator.onLine;
    var line = document.getElementById("offline-line");
    if (line) line.hidden = !offline;
    needsServer(document).forEach(function (button) {
      if (offline && !button.disabled) {
        button.disabled = true;
        button.setAttribute("data-offline-disabled", "");
        button.setAttribute("title", strings.needs || "");
      } else if (!offline && button.hasAttribute("data-offline-disabled")) {
        button.disabled = false;
        button.removeAttribute("data-offline-disabled");
        button.removeAttribute("title");
      }
    });
    var links = document.querySelectorAll("header a[href^='" + root + "/']");
    for (var i = 0; i < links.length; i++) {
      var path = new URL(links[i].href).pathname.slice(root.length);
      if (KEPT_PAGES.indexOf(path) >= 0 || path.indexOf("/hats/") === 0) continue;
      if (offline) links[i].setAttribute("aria-disabled", "true");
      else links[i].removeAttribute("aria-disabled");
    }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[aria-disabled=true]");
    if (link) event.preventDefault(); // an admin page needs the server
  }, true);

  // --- sign-out -----------------------------------------------------------------------------------------------

  function signOut() {
    var form = document.querySelector("form[hx-post$='/signout']");
    if (!form || !user) return;
    form.addEventListener("htmx:configRequest", function (event) {
      if (form.getAttribute("data-outbox-cleared") === "1") return;
      event.preventDefault();
      notesOf(user).then(waiting).then(function (rows) {
        if (rows.length && !window.confirm(plural(rows.length, strings.signoutOne, strings.signoutMany))) return;
        return forget(user).then(forgetPages).then(function () {
          form.setAttribute("data-outbox-cleared", "1");
          window.htmx.trigger(form, "submit");
        });
      });
    });
  }

  function forgetPages() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker) return Promise.resolve();
    return new Promise(function (resolve) {
      var done = function (event) {
        if (event.data && event.data.type === "pages-forgotten") {
          navigator.serviceWorker.removeEventListener("message", done);
          resolve();
        }
      };
      navigator.serviceWorker.addEventListener("message", done);
      worker.postMessage({ type: "forget-pages" });
      window.setTimeout(resolve, 2000); // never keep the person from signing out
    });
  }

  // --- start --------------------------------------------------------------------------------------------------

  function register() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(root + "/sw.js", { scope: root + "/" }).catch(function () {
      /* no worker (a private window may refuse one): the page still works online */
    });
    if (user && navigator.onLine) {
      navigator.serviceWorker.ready.then(function (registration) {
        if (registration.active) registration.active.postMessage({ type: "keep-pages" });
      });
    }
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "drain") drain();
      if (event.data && event.data.type === "pages-kept") document.body.setAttribute("data-pages-kept", "");
    });
  }

  function start() {
    var source = document.getElementById("outbox-strings");
    if (source) {
      strings = JSON.parse(source.getAttribute("data-strings") || "{}");
      root = source.getAttribute("data-root") || root;
    }
    user = document.body.getAttribute("data-user") || "";
    register();
    composer();
    signOut();
    connection();
    render().then(drain);
    window.addEventListener("online", function () { lapsed = false; connection(); drain(); });
    window.addEventListener("offline", connection);
    document.addEventListener("htmx:afterSettle", connection);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
