/// The forms' part of the one script: the add page's drawing pads (pointer events: a finger, a
/// pen with its pressure, or a mouse) whose drawing becomes the PNG file the form sends, photos
/// shrunk to fit the body limit (1 MiB for the whole form), and the card list's tag and level
/// choices applied at once. Without it the forms still work, except drawing.
enum FormScript {
    static let text = """
        (function () {
          document.documentElement.classList.add("js");
          var pending = 0, submitWhenDone = null;
          function started() { pending += 1; }
          function finished() {
            pending -= 1;
            if (pending === 0 && submitWhenDone) { var form = submitWhenDone; submitWhenDone = null; form.submit(); }
          }
          function setFile(input, blob, name) {
            var transfer = new DataTransfer();
            if (blob) { transfer.items.add(new File([blob], name, { type: blob.type })); }
            input.files = transfer.files;
          }
          Array.prototype.forEach.call(document.querySelectorAll("canvas.pad"), function (pad) {
            var context = pad.getContext("2d"), last = null, drawn = false;
            var input = document.getElementById(pad.id.replace(/-pad$/, "-drawing"));
            // White, not transparent: the drawing is shown on a dark card too.
            function blank() { context.fillStyle = "#fff"; context.fillRect(0, 0, pad.width, pad.height); drawn = false; }
            function store() {
              if (!drawn) { setFile(input, null); return; }
              started();
              pad.toBlob(function (blob) { setFile(input, blob, "drawing.png"); finished(); }, "image/png");
            }
            function point(event) {
              var box = pad.getBoundingClientRect(), scale = pad.width / box.width;
              var width = event.pointerType === "pen" && event.pressure > 0 ? 2 + 8 * event.pressure : 5;
              return { x: (event.clientX - box.left) * scale, y: (event.clientY - box.top) * scale, width: width * scale };
            }
            blank();
            context.lineCap = "round"; context.lineJoin = "round"; context.strokeStyle = "#111"; context.fillStyle = "#111";
            pad.addEventListener("pointerdown", function (event) {
              pad.setPointerCapture(event.pointerId);
              last = point(event);
              context.fillStyle = "#111";
              context.beginPath(); context.arc(last.x, last.y, last.width / 2, 0, 2 * Math.PI); context.fill();
              drawn = true; event.preventDefault();
            });
            pad.addEventListener("pointermove", function (event) {
              if (!last) { return; }
              var next = point(event);
              context.lineWidth = next.width;
              context.beginPath(); context.moveTo(last.x, last.y); context.lineTo(next.x, next.y); context.stroke();
              last = next; event.preventDefault();
            });
            function end() { if (last) { last = null; store(); } }
            pad.addEventListener("pointerup", end);
            pad.addEventListener("pointercancel", end);
            var clear = document.querySelector("button.clear[data-pad='" + pad.id + "']");
            if (clear) { clear.addEventListener("click", function () { blank(); store(); }); }
          });
          // A camera's photo is several MiB: drawn again at most 1280 px wide or high, as JPEG.
          Array.prototype.forEach.call(document.querySelectorAll("input[type=file][capture]"), function (input) {
            input.addEventListener("change", function () {
              var file = input.files && input.files[0];
              if (!file || file.size <= 400000 || !window.createImageBitmap) { return; }
              started();
              createImageBitmap(file).then(function (bitmap) {
                var scale = Math.min(1, 1280 / Math.max(bitmap.width, bitmap.height));
                var canvas = document.createElement("canvas");
                canvas.width = Math.round(bitmap.width * scale); canvas.height = Math.round(bitmap.height * scale);
                canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
                canvas.toBlob(function (blob) { if (blob) { setFile(input, blob, "photo.jpg"); } finished(); }, "image/jpeg", 0.85);
              }, finished);
            });
          });
          Array.prototype.forEach.call(document.querySelectorAll("form.add"), function (form) {
            form.addEventListener("submit", function (event) {
              if (pending > 0) { event.preventDefault(); submitWhenDone = form; return; }
              // The server takes 1 MiB a form (docs/web.md): said beside the side, not as a page.
              var total = 0, biggest = null;
              Array.prototype.forEach.call(form.querySelectorAll("input[type=file]"), function (input) {
                var kind = form.querySelector("input[name='" + input.name.replace(/-(photo|drawing)$/, "-kind") + "']:checked");
                if (!kind || input.name.slice(-kind.value.length) !== kind.value || !input.files[0]) { return; }
                total += input.files[0].size;
                if (!biggest || input.files[0].size > biggest.files[0].size) { biggest = input; }
              });
              Array.prototype.forEach.call(form.querySelectorAll(".size-error"), function (old) { old.remove(); });
              if (total > 1000000) {
                event.preventDefault();
                var message = document.createElement("p");
                message.className = "field-error size-error";
                message.id = biggest.name.replace(/-(photo|drawing)$/, "") + "-error";
                message.setAttribute("role", "alert");
                message.textContent = "Too big to send: " + Math.round(total / 1000) + " kB, and a card may send 1000 kB. Choose a smaller picture.";
                biggest.closest("fieldset").appendChild(message);
              }
            });
          });
          // The card list: a tag or level chosen is applied at once (the Search button does it without the script).
          Array.prototype.forEach.call(document.querySelectorAll("form.search select"), function (select) {
            select.addEventListener("change", function () { select.form.submit(); });
          });
        })();

        """
}
