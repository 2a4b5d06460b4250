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

// The inbox's first page asks for its rows every few seconds and swaps them in when they changed.
function liveInbox() {
  const body = document.querySelector('tbody[data-poll]');
  if (!body) return;
  const url = body.getAttribute('data-poll');
  let last = body.innerHTML.trim();
  async function poll() {
    if (document.visibilityState === 'visible') {
      try {
        const response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
        if (response.ok) {
          const rows = (await response.text()).trim();
          if (rows !== last) {
            // The server escaped every value in these rows, as it does for whole pages.
            body.innerHTML = rows;
            last = rows;
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

copyButtons();
confirmations();
liveInbox();
const schema = document.querySelector('textarea[data-builder]');
if (schema) import('/assets/builder.js').then((m) => m.attach(schema));
