/// The service worker, served as `/worker.js` (its scope is the whole site): it keeps the page
/// that reviews offline (`/review/offline`) and, when a page cannot be reached, answers with it.
/// It sends nothing and keeps no grade: the page does that (`OfflineScript`). A card's file the
/// page kept is served from the cache when the box cannot be reached; the style sheet and the
/// script, named after their content, from the cache first.
enum OfflineWorker {
    static let cache = "leitner-kept"

    static let text = """
        "use strict";
        var CACHE = "\(cache)";
        self.addEventListener("install", function (event) {
          event.waitUntil(caches.open(CACHE).then(function (cache) {
            return cache.add("/review/offline").catch(function () {});
          }).then(function () { return self.skipWaiting(); }));
        });
        self.addEventListener("activate", function (event) {
          event.waitUntil(self.clients.claim());
        });
        self.addEventListener("fetch", function (event) {
          var request = event.request;
          var url = new URL(request.url);
          if (url.origin !== self.location.origin) { return; }
          if (request.mode === "navigate") {
            // A page that cannot be reached: the review of what this browser kept, under the
            // address asked for (a form sent again from there online is a stale one, which the
            // review's handlers turn away).
            event.respondWith(fetch(request).catch(function () {
              return caches.match("/review/offline").then(function (kept) {
                return kept || new Response("The box cannot be reached, and this browser kept no review.",
                                            { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
              });
            }));
            return;
          }
          if (request.method !== "GET") { return; }
          if (url.pathname.indexOf("/static/") === 0) {
            event.respondWith(caches.match(request).then(function (kept) { return kept || fetch(request); }));
          } else if (/^\\/cards\\/[^/]+\\/((asset|voice)\\/(front|back)|medium\\/[^/]+)$/.test(url.pathname)) {
            event.respondWith(fetch(request).catch(function () {
              return caches.match(request).then(function (kept) { return kept || Response.error(); });
            }));
          }
        });

        """
}
