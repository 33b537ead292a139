// Toquilla Trace's service worker (docs/workshop-pages.md, "Offline"). The server puts BUILD (the build's
// content hash), ROOT ("/workshop") and SHELL (the static files) before this file.
//
// - Static files: kept at install, answered from the cache (a new build is a new cache, named by its hash).
// - The pages a member reads offline (the dashboard, hats, weavers, the sign-in page): from the network while
//   there is one, each good answer kept; from the cache when there is none. Nothing else is kept, and nothing
//   but GET requests is ever touched: notes and decisions always go to the server (the outbox keeps notes).
// - Background Sync "outbox": a page of the app in sight sends the waiting notes itself (it shows their answers
//   as they come); with none in sight (every page closed, or hidden) this worker sends them: as the signed-in
//   person (`GET /auth/me`: their fresh CSRF token, and only their notes), oldest first, with the page's
//   request, each in the language of the page that kept it. A sent note is marked with its run, which the next
//   visit shows; a refused note keeps the server's reason. The Web Lock "toquilla-outbox" (pages shared, this
//   worker exclusive) keeps a page and the worker from sending one note twice.
/* global BUILD, ROOT, SHELL */
"use strict";

var STATIC_CACHE = "tt-static-" + BUILD;
var PAGES_CACHE = "tt-pages-" + BUILD;
var PAGES = [ROOT + "/", ROOT + "/hats", ROOT + "/weavers", ROOT + "/signin"];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(keepPages).then(function () {
      return self.skipWaiting(); // a new build takes over at once: its pages and scripts match each other
    })
  );
});

// The pages to read offline, as the signed-in person sees them now (best effort: a page that does not answer,
// or sends to the sign-in page, is kept at its next visit).
function keepPages() {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return Promise.all(PAGES.map(function (path) {
      return fetch(path, { credentials: "same-origin" }).then(function (answer) {
        var type = answer.headers.get("content-type") || "";
        if (answer.ok && !answer.redirected && type.indexOf("text/html") === 0) {
          return cache.put(self.location.origin + path, answer);
        }
      }).catch(function () { return null; });
    }));
  });
}

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      var old = names.filter(function (name) {
        return name.indexOf("tt-") === 0 && name !== STATIC_CACHE && name !== PAGES_CACHE;
      });
      // The pages of the build before are kept for reading until this build has its own copies.
      return Promise.all(old.map(function (name) {
        if (name.indexOf("tt-pages-") !== 0) return caches.delete(name);
        return caches.open(name).then(function (from) {
          return from.keys().then(function (requests) {
            return caches.open(PAGES_CACHE).then(function (to) {
              return Promise.all(requests.map(function (request) {
                return from.match(request).then(function (answer) { return answer && to.put(request, answer); });
              }));
            });
          });
        }).then(function () { return caches.delete(name); });
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

function pageKey(url) {
  // One copy per page: "/workshop/?run=ID" is the dashboard as it was last seen.
  return url.origin + url.pathname;
}

function fromNetworkThenCache(request, key) {
  return fetch(request).then(function (answer) {
    var type = answer.headers.get("content-type") || "";
    if (answer.ok && !answer.redirected && type.indexOf("text/html") === 0) {
      var copy = answer.clone();
      caches.open(PAGES_CACHE).then(function (cache) { return cache.put(key, copy); });
    }
    return answer;
  }).catch(function (error) {
    return caches.open(PAGES_CACHE).then(function (cache) { return cache.match(key); }).then(function (kept) {
      if (kept) return kept;
      throw error;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(ROOT + "/static/") === 0) {
    event.respondWith(
      caches.open(STATIC_CACHE).then(function (cache) {
        return cache.match(request, { ignoreSearch: true }).then(function (kept) {
          return kept || fetch(request).then(function (answer) {
            if (answer.ok) cache.put(request, answer.clone());
            return answer;
          });
        });
      })
    );
    return;
  }
  if (PAGES.indexOf(url.pathname) >= 0 && request.headers.get("hx-request") === null) {
    event.respondWith(fromNetworkThenCache(request, pageKey(url)));
  }
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "keep-pages") {
    // A signed-in page opened: keep that person's dashboard, hats and weavers for reading offline.
    event.waitUntil(keepPages().then(function () {
      if (event.source) event.source.postMessage({ type: "pages-kept" });
    }));
  }
  if (data.type === "forget-pages") {
    // Sign-out: the next person on this phone must not read the last one's pages.
    event.waitUntil(
      caches.keys().then(function (names) {
        return Promise.all(names.filter(function (name) { return name.indexOf("tt-pages-") === 0; })
          .map(function (name) { return caches.delete(name); }));
      }).then(function () {
        if (event.source) event.source.postMessage({ type: "pages-forgotten" });
      })
    );
  }
});

// --- the outbox, with no page open -------------------------------------------------------------------------

var OUTBOX_DB = "toquilla-outbox";
var OUTBOX_STORE = "notes";
var OUTBOX_LOCK = "toquilla-outbox";

// The outbox's database, as static/outbox.js makes it (the same name, version and index).
function openOutbox() {
  return new Promise(function (resolve, reject) {
    var request = indexedDB.open(OUTBOX_DB, 1);
    request.onupgradeneeded = function () {
      var notes = request.result.createObjectStore(OUTBOX_STORE, { keyPath: "key" });
      notes.createIndex("user", "user");
    };
    request.onsuccess = function () { resolve(request.result); };
    request.onerror = function () { reject(request.error); };
  });
}

function inOutbox(mode, work) {
  return openOutbox().then(function (db) {
    return new Promise(function (resolve, reject) {
      var tx = db.transaction(OUTBOX_STORE, mode);
      var result = work(tx.objectStore(OUTBOX_STORE));
      tx.oncomplete = function () { db.close(); resolve(result && "result" in result ? result.result : result); };
      tx.onerror = function () { db.close(); reject(tx.error); };
      tx.onabort = function () { db.close(); reject(tx.error); };
    });
  });
}

// The person's notes still waiting (not sent yet), oldest first.
function waitingNotes(user) {
  return inOutbox("readonly", function (notes) { return notes.index("user").getAll(user); }).then(function (rows) {
    return (rows || []).filter(function (row) { return !row.sent; })
      .sort(function (a, b) { return a.queued - b.queued; });
  });
}

function keepNote(note) { return inOutbox("readwrite", function (notes) { notes.put(note); }); }
// A refused note keeps its reason only while it is still in the outbox (its author may have removed it).
function keepIfThere(note) {
  return inOutbox("readwrite", function (notes) {
    var found = notes.get(note.key);
    found.onsuccess = function () { if (found.result) notes.put(note); };
  });
}

function withOutboxLock(work) {
  if (self.navigator.locks && self.navigator.locks.request) {
    return self.navigator.locks.request(OUTBOX_LOCK, { mode: "exclusive" }, work);
  }
  return work();
}

// Who is signed in now, and the session's CSRF token (null: nobody, and nothing is sent).
function signedIn() {
  return fetch(ROOT + "/auth/me", { credentials: "same-origin", headers: { accept: "application/json" } })
    .then(function (answer) {
      if (answer.status === 401 || answer.status === 403) return null;
      if (!answer.ok) throw new Error("auth/me answered " + answer.status);
      return answer.json().then(function (me) {
        var user = me && me.user && me.user.user_id;
        return user && me.csrf_token ? { user: user, csrf: me.csrf_token } : null;
      });
    });
}

// The page's request for one note (static/outbox.js, send), in the language of the page that kept it.
function sendNote(note, csrf) {
  var body = new URLSearchParams();
  body.set("note", note.note);
  body.set("input_mode", note.input_mode);
  body.set("hat_tag", note.hat_tag || "");
  body.set("idempotency_key", note.key);
  body.set("said_at", note.said_at);
  body.set("author", note.user);
  var headers = { "x-csrf-token": csrf, "hx-request": "true" };
  if (note.lang) headers["accept-language"] = note.lang;
  return fetch(ROOT + "/notes", { method: "POST", credentials: "same-origin", headers: headers, body: body });
}

function runOf(answer) {
  var pushed = answer.headers.get("hx-push-url") || "";
  return pushed ? new URL(pushed, self.location.origin).searchParams.get("run") : null;
}

function reasonOf(answer) {
  try {
    return decodeURIComponent(answer.headers.get("x-note-reason") || "");
  } catch (error) {
    return "";
  }
}

// Send the signed-in person's waiting notes, one by one; stop at the first that cannot go now. Resolves when
// there is nothing more to do until the person signs in again; rejects when it should be tried again later
// (no answer, the server busy or down), so the browser repeats the sync.
function drainOutbox() {
  return signedIn().then(function (me) {
    if (!me) return null; // signed out: the notes wait for their author's next visit
    return withOutboxLock(function () {
      return waitingNotes(me.user).then(function step(rows) {
        if (!rows.length) return null;
        var note = rows[0];
        return sendNote(note, me.csrf).then(function (answer) {
          var outcome = answer.headers.get("x-note-outcome") || "";
          if (answer.status === 200 && outcome === "sent") {
            note.sent = true;
            note.run = runOf(answer) || "";
            note.reason = "";
            return keepNote(note).then(function () { return step(rows.slice(1)); });
          }
          if (answer.status === 200 && outcome === "refused") {
            note.reason = reasonOf(answer);
            return keepIfThere(note).then(function () { return step(rows.slice(1)); });
          }
          if (answer.status === 401 || answer.status === 403 || outcome === "other_user") return null;
          throw new Error("the note was not taken now (" + answer.status + " " + outcome + ")");
        });
      });
    });
  });
}

// A page of the app that a person can see: it sends the notes itself.
function inSight(windows) {
  return windows.some(function (client) { return client.visibilityState === "visible"; });
}

self.addEventListener("sync", function (event) {
  if (event.tag !== "outbox") return;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then(function (windows) {
      var sent = inSight(windows) ? Promise.resolve() : drainOutbox();
      // Open pages send what is left and show what was sent (a hidden page when it is looked at again).
      return sent.then(function () {
        windows.forEach(function (client) { client.postMessage({ type: "drain" }); });
      }, function (error) {
        windows.forEach(function (client) { client.postMessage({ type: "drain" }); });
        throw error;
      });
    })
  );
});
