// The inbox's keyboard shortcuts and selection (listed on `?`): j/k move, o or Enter open, x select,
// e done, ! spam, # delete, / search. Actions press the bulk bar's buttons, so they post the same
// form a click would (and the server answers with a redirect). The rows may be swapped at any time
// by the live update: events are delegated from the document, the current row and the selection
// are kept by submission id and put back on the new rows.

const body = document.getElementById('inbox-rows');
const bulk = document.getElementById('bulk-form');

if (body && bulk) {
  const selected = new Set();
  let currentId = null;

  const rows = () => [...body.querySelectorAll('tr[data-id]')];
  const rowOf = (id) => rows().find((row) => row.dataset.id === id) ?? null;
  const boxOf = (row) => row?.querySelector('input[name="ids"]') ?? null;
  const linkOf = (row) => row?.querySelector('.from a') ?? null;
  const pageBox = bulk.querySelector('[data-select-page]');
  const count = document.getElementById('selected-count');

  function showCount() {
    if (count) count.textContent = selected.size ? `${selected.size} selected` : '';
    if (pageBox) {
      const boxes = rows().map(boxOf).filter(Boolean);
      pageBox.checked = boxes.length > 0 && boxes.every((box) => box.checked);
    }
  }

  function setCurrent(row, focus = true) {
    for (const other of body.querySelectorAll('tr.current')) other.classList.remove('current');
    if (!row) return;
    currentId = row.dataset.id;
    row.classList.add('current');
    if (focus) linkOf(row)?.focus();
  }

  function move(step) {
    const all = rows();
    if (all.length === 0) return;
    const at = all.findIndex((row) => row.dataset.id === currentId);
    const next = at === -1 ? all[step > 0 ? 0 : all.length - 1] : all[Math.min(all.length - 1, Math.max(0, at + step))];
    setCurrent(next);
  }

  function toggle(row, on) {
    const box = boxOf(row);
    if (!box) return;
    box.checked = on ?? !box.checked;
    if (box.checked) selected.add(row.dataset.id);
    else selected.delete(row.dataset.id);
    showCount();
  }

  /** Presses the bulk bar's button for a key, on the selection or else on the current row. */
  function act(key) {
    const button = bulk.querySelector(`button[data-key="${CSS.escape(key)}"]`);
    if (!button) return;
    if (selected.size === 0) {
      const row = rowOf(currentId);
      if (!row) return;
      toggle(row, true);
    }
    bulk.requestSubmit(button);
  }

  const dialog = document.getElementById('shortcuts');
  function showShortcuts() {
    if (dialog && !dialog.open) dialog.showModal();
  }
  for (const button of document.querySelectorAll('[data-shortcuts]')) {
    button.hidden = false;
    button.addEventListener('click', showShortcuts);
  }
  if (pageBox) {
    pageBox.hidden = false;
    for (const label of bulk.querySelectorAll('label[for="select-page"]')) label.hidden = false;
    pageBox.addEventListener('change', () => {
      const on = pageBox.checked;
      for (const row of rows()) toggle(row, on);
    });
  }

  document.addEventListener('change', (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || box.name !== 'ids' || !body.contains(box)) return;
    const row = box.closest('tr[data-id]');
    if (box.checked) selected.add(row.dataset.id);
    else selected.delete(row.dataset.id);
    setCurrent(row, false);
    showCount();
  });

  // Focus on a row's link makes it the current one, so Tab and j/k agree.
  document.addEventListener('focusin', (event) => {
    const row = event.target instanceof Element && body.contains(event.target) ? event.target.closest('tr[data-id]') : null;
    if (row && row.dataset.id !== currentId) setCurrent(row, false);
  });

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (dialog?.open) return;
    const key = event.key;
    if (key === 'j' || key === 'k') move(key === 'j' ? 1 : -1);
    else if (key === 'o' || (key === 'Enter' && !(target instanceof HTMLAnchorElement) && !(target instanceof HTMLButtonElement))) {
      const link = linkOf(rowOf(currentId));
      if (!link) return;
      window.location.assign(link.href);
    } else if (key === 'x') {
      const row = rowOf(currentId);
      if (row) toggle(row);
    } else if (key === 'e' || key === '!' || key === '#') act(key);
    else if (key === '/') document.getElementById('inbox-q')?.focus();
    else if (key === '?') showShortcuts();
    else return;
    event.preventDefault();
  });

  // The live update replaced the rows: put the selection, the current row and its focus back.
  new MutationObserver(() => {
    const hadFocus = document.activeElement === document.body || document.activeElement === null;
    const present = new Set(rows().map((row) => row.dataset.id));
    for (const id of [...selected]) if (!present.has(id)) selected.delete(id);
    for (const row of rows()) {
      const box = boxOf(row);
      if (box) box.checked = selected.has(row.dataset.id);
    }
    const row = rowOf(currentId);
    if (row) setCurrent(row, hadFocus);
    showCount();
  }).observe(body, { childList: true });

  showCount();
}
