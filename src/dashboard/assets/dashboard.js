// Progressive enhancement for the dashboard. Every page works without it; this adds copy
// buttons, confirmations, the live inbox and the field builder. Served from the repository, no CDN.

function copyButtons() {
  document.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
    if (!button) return;
    const source = document.querySelector(button.getAttribute('data-copy'));
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent ?? '');
      button.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      button.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 2000);
  });
}

function confirmations() {
  document.addEventListener('submit', (event) => {
    const button = event.submitter;
    const message = button?.getAttribute('data-confirm');
    if (message && !window.confirm(message)) event.preventDefault();
  });
}

// The inbox's first page asks for itself every few seconds and swaps in the rows and the tab
// counts when they changed. DOMParser runs no scripts; the server escaped every value anyway.
function liveInbox() {
  const body = document.querySelector('tbody[data-poll]');
  if (!body) return;
  const url = body.getAttribute('data-poll');
  async function poll() {
    if (document.visibilityState === 'visible') {
      try {
        const response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
        if (response.ok) {
          const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
          for (const selector of ['#inbox-rows', '#inbox-tabs']) {
            const now = document.querySelector(selector);
            const next = fresh.querySelector(selector);
            if (now && next && now.innerHTML !== next.innerHTML) now.replaceChildren(...next.childNodes);
          }
        }
      } catch {
        // Offline for a moment: try again at the next tick.
      }
    }
    setTimeout(poll, 2500);
  }
  setTimeout(poll, 2500);
}

// The destination form shows only the inputs of the chosen type (all of them without JS).
function destinationTypes() {
  const type = document.querySelector('select[name="type"]');
  const groups = document.querySelectorAll('[data-types]');
  if (!type || groups.length === 0) return;
  const show = () => {
    for (const group of groups) group.hidden = !group.getAttribute('data-types').split(' ').includes(type.value);
  };
  type.addEventListener('change', show);
  show();
}

copyButtons();
destinationTypes();
confirmations();
liveInbox();
const schema = document.querySelector('textarea[data-builder]');
if (schema) import('/assets/builder.js').then((m) => m.attach(schema));
