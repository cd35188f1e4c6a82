/**
 * The explorer's HTML: a shell the bundle (web/src/explore.ts) fills in. Everything the
 * page needs to be usable without the script (labels, headings, the forms) is here, so a
 * screen reader meets a complete page and the first paint does not wait for the bundle.
 */
export const EXPLORE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>civicgraph ballot explorer</title>
<link rel="stylesheet" href="/explore/assets/explore.css">
<link rel="modulepreload" href="/explore/assets/explore.js">
<link rel="preload" href="/explore/assets/states.json" as="fetch" crossorigin="anonymous">
</head>
<body>
<header class="cg-header">
  <h1>civicgraph ballot explorer</h1>
  <p>Put in an address, a ZIP code or "lat,lng" — or choose a point on the map — to see its districts, the ballot on a date, and who holds office there. Every fact links to its source.</p>
</header>
<main class="cg-explore">
  <form id="cg-key-form" class="cg-key">
    <label for="cg-key">API key <span class="cg-hint">(kept in this tab only; <code>civicgraph up</code> prints a sandbox key)</span></label>
    <div class="cg-row">
      <input id="cg-key" name="key" type="password" autocomplete="off" spellcheck="false" placeholder="cg_test_…">
      <button type="submit">Use key</button>
    </div>
  </form>
  <div id="cg-app"></div>
</main>
<script type="module" src="/explore/assets/explore.js"></script>
</body>
</html>`;
