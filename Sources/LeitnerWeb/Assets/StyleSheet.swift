/// The pages' style, served as `/static/app-HASH.css` (an inline style would need the policy to
/// allow one). Mobile first: one column, buttons at least 48 px high, the system's dark mode,
/// and motion only for those who have not asked for less.
enum StyleSheet {
    static let text = """
        :root { color-scheme: light dark; --bg: #f6f8fa; --fg: #1b1f24; --muted: #57606a; --card: #fff;
          --line: #d0d7de; --accent: #0969da; --right: #1a7f37; --wrong: #cf222e; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --card: #161b22; --line: #30363d;
            --accent: #4493f8; --right: #3fb950; --wrong: #f85149; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 17px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
        header nav { display: flex; gap: 4px; overflow-x: auto; padding: 8px; border-bottom: 1px solid var(--line); }
        header nav a { padding: 10px 12px; border-radius: 8px; color: var(--fg); text-decoration: none; white-space: nowrap; }
        header nav a[aria-current] { background: var(--card); border: 1px solid var(--line); font-weight: 600; }
        main { max-width: 640px; margin: 0 auto; padding: 16px; }
        h1 { font-size: 1.4em; margin: 8px 0 12px; }
        a { color: var(--accent); }
        .muted, .note { color: var(--muted); }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 20px;
          min-height: 40vh; overflow-wrap: anywhere; touch-action: pan-y; }
        .side img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
        /* An image as large as the card allows and whole on the screen, however large its file. */
        .card .side img { width: auto; max-height: 70vh; object-fit: contain; }
        .side table { display: block; overflow-x: auto; }
        .side audio { width: 100%; }
        .side pre, .plain { white-space: pre-wrap; font: inherit; margin: 0; }
        .side pre code, code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .92em; }
        .side + .side { border-top: 1px dashed var(--line); margin-top: 16px; padding-top: 16px; }
        .card-id { color: var(--muted); font-size: .9em; margin: 16px 0 0; }
        .actions { display: flex; gap: 12px; margin: 16px 0; }
        .devices { list-style: none; padding: 0; }
        .device { border-bottom: 1px solid var(--line); padding-bottom: 8px; }
        .device input[type=text] { flex: 1; min-width: 0; font: inherit; padding: 10px; }
        .device .actions button { flex: 0 0 auto; }
        .actions form { flex: 1; display: flex; }
        .button, button { flex: 1; display: block; min-height: 52px; padding: 12px 16px; border-radius: 10px;
          border: 1px solid var(--line); background: var(--card); color: var(--fg); font: inherit; font-weight: 600;
          text-align: center; text-decoration: none; cursor: pointer; }
        /* What the script hides stays hidden, whatever display the rules above give it. */
        [hidden] { display: none !important; }
        .primary { background: var(--accent); border-color: var(--accent); color: #fff; }
        .right { background: var(--right); border-color: var(--right); color: #fff; }
        .wrong { background: var(--wrong); border-color: var(--wrong); color: #fff; }
        .proposed { outline: 4px solid var(--fg); outline-offset: 2px; }
        .right:not(.proposed), .wrong:not(.proposed) { opacity: .75; }
        .typed-answer input[type=text] { display: block; width: 100%; box-sizing: border-box; font: inherit; font-size: 1.3em;
          padding: 12px; margin: 6px 0 12px; border-radius: 10px; border: 1px solid var(--line); }
        .typed del { color: var(--wrong); text-decoration: line-through; }
        .typed del::before { content: "[-"; } .typed del::after { content: "-]"; }
        .typed ins { color: var(--right); text-decoration: underline; }
        .typed ins::before { content: "{+"; } .typed ins::after { content: "+}"; }
        .voice audio { width: 100%; }
        .secondary { display: flex; justify-content: space-between; align-items: center; gap: 12px; }
        .secondary button { flex: 0 0 auto; font-weight: 400; }
        progress { width: 100%; height: 8px; accent-color: var(--accent); }
        .keys { color: var(--muted); font-size: .85em; }
        .tools { justify-content: flex-end; flex-wrap: wrap; }
        .tools .button, .tools form { flex: 0 0 auto; }
        .tools .button { font-weight: 400; }
        .tags { margin: 12px 0 0; }
        .tag { display: inline-block; padding: 2px 10px; margin: 2px 4px 2px 0; border: 1px solid var(--line);
          border-radius: 999px; text-decoration: none; font-size: .9em; }
        .filters { display: flex; gap: 8px; width: 100%; }
        form.search { flex-wrap: wrap; }
        form.search input[type=search] { flex: 1 1 60%; width: auto; }
        .box-name { margin-left: auto; align-self: center; padding: 4px 10px; border-radius: 8px;
          background: var(--accent); color: #fff; font-size: .85em; white-space: nowrap; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); }
        .week { display: grid; grid-template-columns: repeat(7, 1fr); gap: 4px; list-style: none; padding: 0; }
        .week li { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 6px 2px;
          text-align: center; font-size: .8em; }
        .week li.today { border-color: var(--accent); border-width: 2px; }
        .week .state { display: block; color: var(--muted); }
        .problem { border-left: 4px solid var(--wrong); background: var(--card); padding: 12px 16px; border-radius: 8px; }
        form.search { display: flex; gap: 8px; }
        input[type=search], textarea, select { font: inherit; padding: 10px; border-radius: 8px; border: 1px solid var(--line);
          background: var(--card); color: var(--fg); width: 100%; }
        textarea { min-height: 8em; }
        .results { list-style: none; padding: 0; }
        .results li { border-bottom: 1px solid var(--line); }
        .results a { display: flex; flex-direction: column; justify-content: center; min-height: 56px; padding: 6px 0;
          color: var(--fg); text-decoration: none; overflow-wrap: anywhere; }
        .results .muted { font-size: .85em; }
        main { overflow-wrap: anywhere; }
        button, .button, select { overflow-wrap: normal; white-space: nowrap; }
        .counts { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; padding: 0; margin: 0; }
        .counts li { border: 1px solid var(--line); background: var(--card); border-radius: 8px; padding: 4px 10px; }
        .pages { display: flex; justify-content: space-between; margin: 16px 0; }
        label { display: block; margin: 12px 0 4px; font-weight: 600; }
        .card.question { display: flex; flex-direction: column; justify-content: center; text-align: center; }
        .card.question .side { font-size: 1.5em; line-height: 1.35; }
        .card.question.short .side { font-size: 2.2em; }
        .card.question.long .side { font-size: 1.1em; text-align: left; }
        /* The answer read at arm's length: sized to the screen's width (20 px at 360, 24 px from
           460 on), the question above it smaller; a long line wraps (.card). */
        .card.answer .side.back { font-size: clamp(1.2rem, 4.2vw + .3rem, 1.5rem); line-height: 1.45; }
        .card.answer .side.front { color: var(--muted); }
        .notice { display: flex; align-items: center; justify-content: space-between; gap: 12px; margin: 8px 0;
          padding: 6px 6px 6px 14px; min-height: 52px; border-radius: 10px; background: var(--card); border: 1px solid var(--line); }
        .notice form { flex: 0 0 auto; display: flex; }
        /* A refused grade's paragraph is long: the whole width for it, its button below. */
        .notice.refused { flex-direction: column; align-items: flex-start; padding: 6px 14px 14px; }
        .notice .ok { color: var(--right); font-weight: 600; }
        .notice .bad { color: var(--wrong); font-weight: 600; }
        .field-error { color: var(--wrong); margin: 6px 0 0; font-weight: 600; }
        input[type=text] { font: inherit; padding: 10px; min-height: 48px; border-radius: 8px; border: 1px solid var(--line);
          background: var(--card); color: var(--fg); width: 100%; }
        select { min-height: 48px; }
        fieldset.side-input { border: 1px solid var(--line); border-radius: 12px; margin: 12px 0; padding: 8px 12px 12px; }
        fieldset.side-input legend { font-weight: 600; padding: 0 6px; }
        .kinds { display: flex; gap: 0; margin: 4px 0 10px; }
        .kinds label { flex: 1; margin: 0; font-weight: 400; }
        .kinds input { position: absolute; opacity: 0; }
        .kinds span { display: block; min-height: 48px; line-height: 46px; text-align: center; border: 1px solid var(--line);
          background: var(--card); }
        .kinds label:first-child span { border-radius: 10px 0 0 10px; }
        .kinds label:last-child span { border-radius: 0 10px 10px 0; }
        .kinds input:checked + span { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
        .kinds input:focus-visible + span { outline: 2px solid var(--accent); outline-offset: 2px; }
        .kind-photo, .kind-drawing { display: none; }
        .side-input:has(input[value=photo]:checked) .kind-photo, .side-input:has(input[value=drawing]:checked) .kind-drawing { display: block; }
        .side-input:has(input[value=photo]:checked) .kind-text, .side-input:has(input[value=drawing]:checked) .kind-text { display: none; }
        input[type=file] { font: inherit; width: 100%; min-height: 48px; }
        canvas.pad { display: block; width: 100%; aspect-ratio: 4 / 3; background: #fff; border: 1px solid var(--line);
          border-radius: 10px; touch-action: none; }
        .pad-tools { display: flex; align-items: center; gap: 12px; margin: 8px 0 0; }
        .pad-tools button { flex: 0 0 auto; font-weight: 400; }
        label.check { display: flex; align-items: center; gap: 10px; min-height: 48px; margin: 4px 0; font-weight: 400; }
        /* Its own size beside words that wrap (the reverse card's two lines), not squeezed by them. */
        label.check input { width: 24px; height: 24px; flex: none; }
        .reverse-too { display: none; }
        form.add:has(#reverse:checked) .reverse-too { display: inline; }
        .js .no-script { display: none; }
        .actions input[type=text], .actions select { flex: 1; }
        .actions button { flex: 0 0 auto; }
        .actions form button { flex: 1; }
        /* A touch screen has no keys to teach. */
        @media (hover: none) and (pointer: coarse) { .keys { display: none; } }
        @media (prefers-reduced-motion: no-preference) {
          .card { transition: transform .15s ease-out, opacity .15s ease-out; }
          .card.swipe-right { transform: translateX(40px) rotate(2deg); opacity: .6; }
          .card.swipe-left { transform: translateX(-40px) rotate(-2deg); opacity: .6; }
        }
        """
}
