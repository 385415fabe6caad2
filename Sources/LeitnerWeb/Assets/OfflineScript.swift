/// The page's part of reviewing offline (docs/rules.md, R35; docs/web.md, "Reviewing offline"),
/// in the one script. On the review's pages, online, it sends the grades the browser kept, then
/// keeps the day's test (`GET /review/kept`) in IndexedDB and its files in the cache. Offline it
/// reviews from there (`/review/offline`, or a grade clicked on the answer's page while the
/// browser says it is offline): each grade written to IndexedDB at once, with its time, before
/// the next card is shown. Grades are sent in the order given, one at a time, each by its
/// number, which the box takes once; a grade the box refuses is set aside, shown with its card
/// and the box's reason until the learner forgets it, and the grades after it go on. Nothing here
/// reads or writes a cookie; it never runs inline.
enum OfflineScript {
    static let text = """
        (function () {
          var offlinePage = document.getElementById("offline-review");
          if (!offlinePage && !/^\\/review(\\/answer)?$/.test(location.pathname)) { return; }
          var status = document.getElementById("kept");
          function say(text) { if (status) { status.hidden = false; status.textContent = text; } }
          if (!window.isSecureContext || !("serviceWorker" in navigator) || !window.indexedDB || !window.caches) {
            say("Reviewing offline is off here: a browser allows it only on localhost or over HTTPS (docs/web.md, \\"Reviewing offline\\").");
            if (offlinePage) { document.getElementById("kept-state").textContent = "Nothing was kept on this device."; }
            return;
          }
          navigator.serviceWorker.register("/worker.js", { scope: "/" }).catch(function (error) {
            say("Reviewing offline is off: the browser refused its service worker (" + error.message + ").");
          });

          function request(r) {
            return new Promise(function (resolve, reject) {
              r.onsuccess = function () { resolve(r.result); };
              r.onerror = function () { reject(r.error); };
            });
          }
          function openStore() {
            var r = indexedDB.open("leitner-offline", 1);
            r.onupgradeneeded = function () {
              r.result.createObjectStore("kept", { keyPath: "name" });
              r.result.createObjectStore("grades", { keyPath: "sequence" });
            };
            return request(r);
          }
          // A write is done when its transaction is: only then is a grade called kept.
          function write(db, name, work) {
            return new Promise(function (resolve, reject) {
              var t = db.transaction([name], "readwrite", { durability: "strict" });
              work(t.objectStore(name));
              t.oncomplete = function () { resolve(); };
              t.onerror = t.onabort = function () { reject(t.error || new Error("not written")); };
            });
          }
          function readAll(db, name) { return request(db.transaction([name]).objectStore(name).getAll()); }

          var db = null, kept = null, grades = [], shownAt = Date.now(), answerShown = false, sending = false, gone = 0, trouble = "";
          function bySequence(a, b) { return a.sequence - b.sequence; }
          // A grade is waiting until the box took it or refused it; a refused one stays kept
          // aside (docs/web.md), never sent again: the box knows a device's grades by the highest number
          // it took, and would call it taken once a later one is.
          function waiting() { return grades.filter(function (g) { return !g.sent && !g.refused; }); }
          function refused() { return grades.filter(function (g) { return g.refused; }).sort(bySequence); }
          function up(level) { return level === "7" ? "finished" : String(Number(level) + 1); }
          function down(level) { return kept && kept.onFail === "previous" ? String(Math.max(1, Number(level) - 1)) : "1"; }

          // The test as the page has it now: what was kept, and this device's grades of it since.
          function state() {
            var cards = {}, queue = [], done = 0, wrong = {};
            if (!kept) { return null; }
            kept.cards.forEach(function (card) { cards[card.id] = { card: card, level: card.level }; queue.push(card.id); });
            var mine = grades.filter(function (g) { return g.keptAt === kept.keptAt; }).sort(bySequence);
            mine.forEach(function (g) {
              var at = queue.indexOf(g.id);
              if (at >= 0) { queue.splice(at, 1); }
              if (!cards[g.id]) { return; }
              cards[g.id].level = g.to;
              if (g.correct) { done += 1; delete wrong[g.id]; } else { queue.push(g.id); wrong[g.id] = true; }
            });
            return { cards: cards, queue: queue, done: done, repeating: Object.keys(wrong).length, mine: mine };
          }

          function showCount() {
            var n = waiting().length, aside = refused(), sent = grades.some(function (g) { return g.sent; });
            var words = n > 0 ? "Not sent yet — kept on this phone: " + n + " grade" + (n === 1 ? "" : "s") + " waiting. "
                                + (n === 1 ? "It is" : "They are") + " sent as soon as the box can be reached."
                              : (sent && aside.length === 0 ? "All grades kept on this phone are sent." : "");
            if (aside.length > 0) {
              words += " " + (aside.length === 1 ? "1 grade was refused by the box and is" : aside.length + " grades were refused by the box and are")
                       + " kept aside on this phone (below)." + (n === 0 && sent ? " All the others are sent." : "");
            }
            if (gone > 0) { words += " " + gone + " grade" + (gone === 1 ? " was" : "s were") + " for a card no longer in the box; it is in the history."; }
            if (trouble && n > 0) { words += " " + trouble; }
            if (words) { say(words.trim()); } else if (status) { status.hidden = true; }
            showRefused(aside);
            var online = document.getElementById("online");
            if (online) { online.hidden = n > 0; }
          }

          // Each grade the box refused, in words for the person who gave it: which card, the
          // answer and when, the box's reason, and a button to forget it once read.
          function showRefused(aside) {
            var list = document.getElementById("kept-refused");
            if (!list) { return; }
            list.textContent = "";
            list.hidden = aside.length === 0;
            aside.forEach(function (g) {
              var item = document.createElement("div");
              item.className = "notice refused";
              item.setAttribute("data-sequence", String(g.sequence));
              item.setAttribute("data-card", g.id);
              var text = document.createElement("p");
              text.textContent = "Not counted: your answer “" + (g.correct ? "Right" : "Wrong") + "” to card " + g.id
                + (g.front ? " (" + g.front + ")" : "") + ", given " + new Date(g.time).toLocaleString() + " by this phone's clock. "
                + "The box refused it: " + localTimes(g.refused) + ". The card stays where it was in the box; this grade is not sent again.";
              var forget = document.createElement("button");
              forget.type = "button";
              forget.textContent = "Forget it";
              forget.addEventListener("click", function () {
                write(db, "grades", function (store) { store.delete(g.sequence); }).then(function () {
                  grades = grades.filter(function (other) { return other !== g; });
                  showCount();
                });
              });
              item.appendChild(text);
              item.appendChild(forget);
              list.appendChild(item);
            });
          }

          // The box's times in a reason (RFC 3339, in the box's zone) as the phone says the grade's own time.
          function localTimes(text) {
            return text.replace(/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)/g, function (stamp) {
              return new Date(stamp).toLocaleString();
            });
          }

          // The front's words, to name the card beside its id when a grade of it is refused.
          function frontText(id) {
            var card = kept && kept.cards.filter(function (c) { return c.id === id; })[0];
            if (!card) { return ""; }
            var words = (new DOMParser().parseFromString(card.front, "text/html").body.textContent || "").replace(/\\s+/g, " ").trim();
            return words.length > 60 ? words.slice(0, 59) + "…" : words;
          }

          function nextSequence() {
            var top = kept ? kept.sequence : 0;
            grades.forEach(function (g) { top = Math.max(top, g.sequence); });
            return top + 1;
          }

          function keep(id, level, correct) {
            var g = { sequence: nextSequence(), id: id, correct: correct, time: Date.now(), level: level,
                      to: correct ? up(level) : down(level), position: kept.position, keptAt: kept.keptAt,
                      ms: Date.now() - shownAt, sent: false, front: frontText(id) };
            return write(db, "grades", function (store) { store.put(g); }).then(function () {
              grades.push(g);
              showCount();
            });
          }

          function token() {
            return fetch("/review/kept/token", { credentials: "same-origin", cache: "no-store" })
              .then(function (r) { return r.json(); }).then(function (body) { return body.csrf; });
          }
          function post(g, csrf) {
            var form = new URLSearchParams({ csrf: csrf, sequence: String(g.sequence), card: g.id, correct: g.correct ? "yes" : "no",
                                             time: String(g.time), level: g.level, position: String(g.position), ms: String(g.ms) });
            return fetch("/review/kept", { method: "POST", body: form, credentials: "same-origin", cache: "no-store" });
          }
          // Sends the waiting grades in the order given, one at a time. A grade the box refuses
          // (422: its time out of bounds, say) is set aside, kept with the reason, and the next
          // one goes; anything else that fails (no network, leitner-web or the daemon down)
          // stops there, to try that grade again when the browser is back online or in a while.
          function send() {
            if (sending || !navigator.onLine || !db) { return Promise.resolve(); }
            var queue = waiting().sort(bySequence);
            if (queue.length === 0) { return Promise.resolve(); }
            sending = true;
            var csrf = null;
            function one(i) {
              if (i >= queue.length) { return Promise.resolve(); }
              var g = queue[i];
              return (csrf ? Promise.resolve(csrf) : token()).then(function (t) {
                csrf = t;
                return post(g, csrf);
              }).then(function (r) {
                if (r.status !== 403) { return r; }
                return token().then(function (t) { csrf = t; return post(g, csrf); });
              }).then(function (r) {
                return r.json().then(function (body) {
                  if (r.status === 422) {
                    g.refused = body.reason || body.error || "no reason given";
                  } else if (!r.ok) {
                    trouble = "Sending waits: " + (body.error || "the answer was " + r.status) + ".";
                    showCount();
                    throw new Error(trouble);
                  } else {
                    if (body.level === null) { gone += 1; }
                    g.sent = true;
                  }
                  trouble = "";
                  return write(db, "grades", function (store) { store.put(g); });
                });
              }).then(function () { showCount(); return one(i + 1); });
            }
            return one(0).catch(function () {}).then(function () { sending = false; showCount(); render(); });
          }

          function cacheFiles() {
            var files = ["/review/offline"];
            document.querySelectorAll("link[rel=stylesheet], script[src]").forEach(function (e) { files.push(e.getAttribute("href") || e.getAttribute("src")); });
            kept.cards.forEach(function (card) { files = files.concat(card.files); });
            return caches.open("\(OfflineWorker.cache)").then(function (cache) {
              return Promise.all(files.map(function (file) { return cache.add(file).catch(function () {}); }));
            });
          }

          // Online: keeps the test as it is now, unless grades still wait (they belong to the
          // test kept before, and are sent first).
          function refresh() {
            if (offlinePage || !navigator.onLine || waiting().length > 0) { return Promise.resolve(); }
            return fetch("/review/kept", { credentials: "same-origin", cache: "no-store" }).then(function (r) {
              if (!r.ok) { return null; }
              return r.json();
            }).then(function (body) {
              if (!body || !body.cards) { return; }
              body.name = "test";
              body.keptAt = Date.now();
              return write(db, "kept", function (store) { store.put(body); }).then(function () {
                return write(db, "grades", function (store) { grades.forEach(function (g) { if (g.sent) { store.delete(g.sequence); } }); });
              }).then(function () {
                grades = grades.filter(function (g) { return !g.sent; });
                kept = body;
                document.documentElement.setAttribute("data-kept", String(body.cards.length));
                return cacheFiles();
              });
            }).catch(function () {});
          }

          function element(id) { return document.getElementById(id); }
          function render() {
            if (!offlinePage) { return; }
            var s = state();
            var line = element("kept-state");
            if (!s) { line.textContent = "This phone kept no test: open the review once while the box can be reached."; return; }
            var total = kept.total, done = kept.done + s.done;
            element("progress").textContent = done + " of " + total + " done" + (s.repeating > 0 ? " · " + s.repeating + " to repeat" : "");
            line.textContent = "Offline: the test of " + kept.date + ", from what this phone kept.";
            var old = element("kept-old");
            if (Date.now() >= Date.parse(kept.dayEnds)) {
              old.hidden = false;
              old.textContent = "The day has changed: these cards are still the test of " + kept.date + ", and your grades count for it. "
                + "A new test starts only once the box can be reached.";
            }
            var last = s.mine[s.mine.length - 1];
            element("undo").hidden = !(last && waiting().indexOf(last) >= 0);
            if (s.queue.length === 0) {
              element("card").hidden = true;
              ["show", "right", "wrong"].forEach(function (id) { element(id).hidden = true; });
              line.textContent = "No card is left of the test of " + kept.date + " that this phone kept.";
              return;
            }
            var head = s.cards[s.queue[0]];
            if (element("card").getAttribute("data-card") !== head.card.id || element("card").hidden) { answerShown = false; shownAt = Date.now(); }
            element("card").hidden = false;
            element("card").setAttribute("data-card", head.card.id);
            element("card").setAttribute("data-level", head.level);
            element("kept-front").innerHTML = head.card.front;
            element("kept-back").innerHTML = head.card.back;
            element("kept-back").hidden = !answerShown;
            element("show").hidden = answerShown;
            element("right").hidden = !answerShown;
            element("wrong").hidden = !answerShown;
          }

          function gradeShown(correct) {
            var card = element("card");
            var id = card && card.getAttribute("data-card"), level = card && card.getAttribute("data-level");
            if (!id || !level || !kept) { return Promise.resolve(false); }
            return keep(id, level, correct).then(function () { return true; });
          }

          openStore().then(function (opened) {
            db = opened;
            return Promise.all([request(db.transaction(["kept"]).objectStore("kept").get("test")), readAll(db, "grades")]);
          }).then(function (read) {
            kept = read[0] || null;
            grades = read[1] || [];
            showCount();
            if (offlinePage) {
              render();
              element("show").addEventListener("click", function () { answerShown = true; render(); });
              element("right").addEventListener("click", function () { if (!answerShown) { return; } answerShown = false; gradeShown(true).then(render).then(send); });
              element("wrong").addEventListener("click", function () { if (!answerShown) { return; } answerShown = false; gradeShown(false).then(render).then(send); });
              element("undo").addEventListener("click", function () {
                var s = state(), last = s && s.mine[s.mine.length - 1];
                if (!last || waiting().indexOf(last) < 0) { return; }
                write(db, "grades", function (store) { store.delete(last.sequence); }).then(function () {
                  grades = grades.filter(function (g) { return g !== last; });
                  answerShown = false;
                  showCount();
                  render();
                });
              });
            } else {
              // A grade clicked while the browser is offline is kept, and the review goes on
              // from what was kept; online, the page's own form sends it.
              document.addEventListener("click", function (event) {
                var target = event.target.closest ? event.target.closest("#right, #wrong, #show") : null;
                if (!target || navigator.onLine || !kept) { return; }
                event.preventDefault();
                event.stopPropagation();
                var go = function () { location.assign("/review/offline"); };
                if (target.id === "show") { go(); return; }
                gradeShown(target.id === "right").then(go, go);
              }, true);
            }
            return send().then(refresh);
          }).catch(function (error) { say("Reviewing offline is off: the browser's storage cannot be opened (" + error + ")."); });

          window.addEventListener("online", function () { send().then(refresh); });
          window.addEventListener("offline", showCount);
          setInterval(function () { send(); }, 15000);
        })();

        """
}
