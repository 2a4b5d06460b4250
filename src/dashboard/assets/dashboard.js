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

// A list that changes on its own (an inbox's first page, the forms list) stays current: a server-sent
// event stream (/live, one per page) says when there are new submissions, verdicts or delivery
// results, and the page then asks for itself and swaps in the rows (and the parts marked data-live-part: an inbox's counts). Without a stream (no EventSource, refused, a proxy
// that cuts it) it asks every few seconds instead. DOMParser runs no scripts; the server escaped
// every value anyway. Focus and scroll position survive a swap: rows are keyed by data-id.
const POLL_MS = 2500;

function rowOf(node) {
  return node instanceof Element ? node.closest('[data-id]') : null;
}

/** Where focus is within the rows, to put it back on the same row (by id) after a swap. */
function focusWithin(container) {
  const active = document.activeElement;
  if (!active || !container.contains(active)) return null;
  const row = rowOf(active);
  if (!row) return null;
  const focusables = [...row.querySelectorAll('a, button, input, select, textarea, [tabindex]')];
  return { id: row.getAttribute('data-id'), index: active === row ? -1 : focusables.indexOf(active), top: row.getBoundingClientRect().top };
}

function restoreFocus(container, saved) {
  if (!saved) return;
  const row = [...container.querySelectorAll('[data-id]')].find((r) => r.getAttribute('data-id') === saved.id);
  if (!row) return;
  const focusables = [...row.querySelectorAll('a, button, input, select, textarea, [tabindex]')];
  const target = saved.index === -1 ? row : focusables[saved.index] ?? focusables[0] ?? row;
  target.focus({ preventScroll: true });
  // The focused row stays where the reader's eyes are, however many rows arrived above it.
  window.scrollBy(0, row.getBoundingClientRect().top - saved.top);
}

function liveList() {
  const rows = document.querySelector('[data-poll]');
  if (!rows) return;
  const url = rows.getAttribute('data-poll');
  const status = document.getElementById('live-status');
  let refreshing = null;
  let again = false;

  async function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      try {
        const response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
        if (!response.ok) return;
        const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
        const next = fresh.querySelector('[data-poll]');
        if (next && rows.innerHTML !== next.innerHTML) {
          const known = new Set([...rows.querySelectorAll('[data-id]')].map((r) => r.getAttribute('data-id')));
          const added = [...next.querySelectorAll('[data-id]')].filter((r) => !known.has(r.getAttribute('data-id'))).length;
          const saved = focusWithin(rows);
          const scroll = window.scrollY;
          rows.replaceChildren(...next.childNodes);
          window.scrollTo(0, scroll);
          restoreFocus(rows, saved);
          const noun = rows.getAttribute('data-announce');
          if (noun && added > 0 && known.size > 0 && status) status.textContent = `${added} new ${noun}${added === 1 ? '' : 's'}`;
        }
        // The parts that count the rows (an inbox's tabs, its "Select all N") are swapped with them.
        for (const part of document.querySelectorAll('[data-live-part]')) {
          const next = fresh.getElementById(part.id);
          if (next && part.innerHTML !== next.innerHTML) part.replaceChildren(...next.childNodes);
        }
      } catch {
        // Offline for a moment: the next event or tick tries again.
      }
    })();
    await refreshing;
    refreshing = null;
    if (again) { again = false; await refresh(); }
  }

  let polling = false;
  function poll() {
    if (polling) return;
    polling = true;
    rows.setAttribute('data-live-mode', 'polling');
    const tick = async () => {
      if (document.visibilityState === 'visible') await refresh();
      setTimeout(tick, POLL_MS);
    };
    setTimeout(tick, POLL_MS);
  }

  const stream = rows.getAttribute('data-live');
  if (!stream || typeof EventSource !== 'function') return poll();
  const source = new EventSource(stream);
  let opened = false;
  let timer = null;
  // Events come in bursts (a batch, then its verdicts): one refresh for each burst.
  const soon = () => { clearTimeout(timer); timer = setTimeout(refresh, 150); };
  source.addEventListener('ready', () => {
    // Reconnected after a drop: whatever happened meanwhile is fetched once.
    if (opened) soon();
    opened = true;
    rows.setAttribute('data-live-mode', 'stream');
  });
  for (const type of ['submissions', 'verdicts', 'deliveries', 'resync']) source.addEventListener(type, soon);
  source.addEventListener('error', () => {
    // A refused stream (too many tabs, a proxy, logged out) does not come back: poll instead.
    if (source.readyState === EventSource.CLOSED) poll();
  });
  // Never connected within a few seconds (a proxy that holds the response): poll instead.
  setTimeout(() => { if (!opened) { source.close(); poll(); } }, 8000);
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

// The form editor shows a setting only while the switch it depends on is on.
function dependentSettings() {
  for (const group of document.querySelectorAll('[data-shown-by]')) {
    const name = group.getAttribute('data-shown-by');
    const toggle = document.querySelector(`input[type="checkbox"][name="${CSS.escape(name)}"]`);
    if (!toggle) continue;
    const show = () => { group.hidden = !toggle.checked; };
    toggle.addEventListener('change', show);
    show();
  }
}

// A new form's slug follows its name (lowercase ASCII words joined by hyphens) until the owner types
// a slug of their own; emptying it by hand hands it back to the name. The server still validates it.
const FOLD = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

function slugOf(name) {
  return name.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[ßæœøđðłþı]/g, (c) => FOLD[c])
    .replace(/[^a-z0-9]+/g, '-').slice(0, 64).replace(/^-+|-+$/g, '');
}

function slugSuggestion() {
  const slug = document.querySelector('input[data-slug-from]');
  const name = slug && document.querySelector(slug.getAttribute('data-slug-from'));
  if (!slug || !name) return;
  let byHand = slug.value !== '' && slug.value !== slugOf(name.value);
  slug.addEventListener('input', () => { byHand = slug.value !== ''; });
  name.addEventListener('input', () => { if (!byHand) slug.value = slugOf(name.value); });
}

copyButtons();
slugSuggestion();
destinationTypes();
dependentSettings();
confirmations();
liveList();
const schema = document.querySelector('textarea[data-builder]');
if (schema) import(schema.getAttribute('data-builder-module') ?? '/assets/builder.js').then((m) => m.attach(schema));
