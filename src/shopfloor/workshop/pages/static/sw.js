// Toquilla Trace's service worker (docs/workshop-pages.md, "Offline"). The server puts BUILD (the build's
// content hash), ROOT ("/workshop") and SHELL (the static files) before this file.
//
// - Static files: kept at install, answered from the cache (a new build is a new cache, named by its hash).
// - The pages a member reads offline (the dashboard, hats, weavers, the sign-in page): from the network while
//   there is one, each good answer kept; from the cache when there is none. Nothing else is kept, and nothing
//   but GET requests is ever touched: notes and decisions always go to the server (the outbox keeps notes).
// - Background Sync "outbox": open pages are told to send the waiting notes.
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

self.addEventListener("sync", function (event) {
  if (event.tag !== "outbox") return;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then(function (windows) {
      windows.forEach(function (client) { client.postMessage({ type: "drain" }); });
    })
  );
});
