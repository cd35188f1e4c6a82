import { Api } from './api.js';
import { Explorer, today } from './explorer.js';

/** The key lives in this tab's session storage: gone when the tab closes, never sent anywhere but the API. */
const KEY_ITEM = 'civicgraph.key';

function start(): void {
  const keyForm = document.getElementById('cg-key-form') as HTMLFormElement;
  const keyInput = document.getElementById('cg-key') as HTMLInputElement;
  const app = document.getElementById('cg-app') as HTMLElement;
  keyInput.value = sessionStorage.getItem(KEY_ITEM) ?? '';
  const params = new URLSearchParams(location.search);
  const api = new Api(location.origin, () => sessionStorage.getItem(KEY_ITEM));
  const explorer = new Explorer({
    api,
    atlasBase: '/explore/assets',
    query: params.get('q') ?? '',
    date: params.get('date') ?? today(),
    onLookup: (q, date) => {
      // The address bar holds the lookup, so a view can be shared or reloaded (never the key).
      const url = new URL(location.href);
      url.searchParams.set('q', q);
      url.searchParams.set('date', date);
      history.replaceState(null, '', url);
    },
  });
  keyForm.addEventListener('submit', (e) => {
    e.preventDefault();
    sessionStorage.setItem(KEY_ITEM, keyInput.value.trim());
    void explorer.lookup();
  });
  app.replaceChildren(explorer.element);
}

start();
