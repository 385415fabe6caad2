/// The one script, served as `/static/app-HASH.js`: keys and swipes for the review (`s` suspends,
/// `e` edits: the Edit link is only on the answer's page, so `e` does nothing before). Every page
/// works without it; it only clicks the links and buttons the page already has, so it changes
/// nothing a form would not.
enum ReviewScript {
    /// The whole script: the review's keys and swipes, then the forms' (`FormScript`), then
    /// reviewing offline (`OfflineScript`).
    static let text = keys + FormScript.text + OfflineScript.text

    static let keys = """
        "use strict";
        (function () {
          function click(id) {
            var element = document.getElementById(id);
            if (element) { element.click(); return true; }
            return false;
          }
          document.addEventListener("keydown", function (event) {
            if (event.ctrlKey || event.metaKey || event.altKey) { return; }
            var target = event.target;
            if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) { return; }
            var done = false;
            switch (event.key) {
              case " ": case "Enter": done = click("show"); break;
              case "y": case "ArrowRight": done = click("right"); break;
              case "n": case "ArrowLeft": done = click("wrong"); break;
              case "u": done = click("undo"); break;
              case "s": done = click("suspend"); break;
              case "e": done = click("edit"); break;
            }
            if (done) { event.preventDefault(); }
          });
          var card = document.getElementById("card");
          if (!card) { return; }
          var startX = null, startY = null;
          card.addEventListener("touchstart", function (event) {
            if (event.touches.length !== 1) { startX = null; return; }
            startX = event.touches[0].clientX; startY = event.touches[0].clientY;
          }, { passive: true });
          card.addEventListener("touchend", function (event) {
            if (startX === null) { return; }
            var dx = event.changedTouches[0].clientX - startX, dy = event.changedTouches[0].clientY - startY;
            startX = null;
            if (Math.abs(dx) < 60 || Math.abs(dx) < 2 * Math.abs(dy)) { return; }
            if (document.getElementById("show")) { click("show"); return; }
            card.classList.add(dx > 0 ? "swipe-right" : "swipe-left");
            click(dx > 0 ? "right" : "wrong");
          });
        })();

        """
}
