import { Api } from './api.js';
import { Explorer, today } from './explorer.js';
import css from './styles.css';

/**
 * "What's on my ballot", embedded with one script tag:
 *
 *   <script src="https://civicgraph.example/explore/widget.js" data-key="cg_live_…" data-date="2026-11-03" async></script>
 *
 * It draws the explorer right after its own tag, inside a shadow root so the host page's
 * styles and ours leave each other alone, and asks the API of the origin it was loaded from.
 */
function mount(script: HTMLScriptElement): void {
  const origin = new URL(script.src).origin;
  const key = script.dataset['key'] ?? null;
  const host = document.createElement('div');
  host.className = 'civicgraph-widget';
  script.after(host);
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [sheet];
  const explorer = new Explorer({
    api: new Api(origin, () => key),
    atlasBase: `${origin}/explore/assets`,
    query: script.dataset['address'] ?? '',
    date: script.dataset['date'] ?? today(),
    headingLevel: 3,
    officeholders: script.dataset['officeholders'] !== 'false',
  });
  root.append(explorer.element);
}

// `currentScript` is the tag while a classic script first runs (async included); a tag
// added later by a tag manager is found by its src instead.
const current = document.currentScript;
const scripts =
  current instanceof HTMLScriptElement
    ? [current]
    : [...document.querySelectorAll<HTMLScriptElement>('script[src$="/explore/widget.js"]')].filter(
        (s) => s.nextElementSibling?.classList.contains('civicgraph-widget') !== true,
      );
for (const script of scripts) mount(script);
