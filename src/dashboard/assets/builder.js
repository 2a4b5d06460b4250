// The field builder: edits the same fields_schema JSON as the textarea beside it, both ways.
// The textarea stays the source of truth (it is what the form submits).
const TYPES = ['string', 'email', 'number', 'boolean', 'date'];
const OPS = ['required', 'honeypot', 'one_of', 'not_one_of', 'min_length', 'max_length', 'min', 'max', 'pattern', 'after', 'before'];
const WITH_VALUE = new Set(['min_length', 'max_length', 'min', 'max', 'pattern', 'after', 'before']);
const WITH_VALUES = new Set(['one_of', 'not_one_of']);
const NUMERIC = new Set(['min_length', 'max_length', 'min', 'max']);
const COMPARATORS = ['eq', 'neq', 'one_of', 'not_one_of', 'gt', 'lt', 'gte', 'lte', 'filled', 'empty'];
// What the owner reads; the JSON keeps the rule names the API defines.
const LABELS = {
  required: 'Required', honeypot: 'Honeypot (trap for bots)', one_of: 'One of', not_one_of: 'Not one of',
  min_length: 'At least (characters)', max_length: 'At most (characters)', min: 'At least', max: 'At most',
  pattern: 'Matches pattern', after: 'After (date)', before: 'Before (date)',
  eq: 'equals', neq: 'does not equal', gt: 'greater than', lt: 'less than', gte: 'at least', lte: 'at most', filled: 'is filled', empty: 'is empty',
  string: 'Text', email: 'Email', number: 'Number', boolean: 'Yes / no', date: 'Date',
};
let uid = 0;

function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') node.textContent = value;
    else if (value === true) node.setAttribute(key, '');
    else if (value !== false && value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

function labelled(text, control) {
  const id = `b-${++uid}`;
  control.id = id;
  return el('div', { class: 'bfield' }, [el('label', { for: id, text }), control]);
}

function selectOf(options, value) {
  const select = el('select');
  for (const option of options) select.append(el('option', { value: option, text: LABELS[option] ?? option, selected: option === value }));
  return select;
}

function scalar(text, numeric) {
  if (numeric && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}

export function attach(textarea) {
  const root = document.querySelector(textarea.getAttribute('data-builder'));
  if (!root) return;
  root.hidden = false;
  let state = null;

  function write() {
    textarea.value = JSON.stringify(state, null, 2);
  }

  function ruleRow(field, rule, index) {
    const row = el('div', { class: 'rule' });
    const op = selectOf(OPS, rule.op);
    op.addEventListener('change', () => {
      field.rules[index] = { op: op.value, ...(rule.when ? { when: rule.when } : {}) };
      write();
      render();
    });
    row.append(labelled('Rule', op));
    if (WITH_VALUE.has(rule.op)) {
      const value = el('input', { value: rule.value ?? '', type: NUMERIC.has(rule.op) ? 'number' : rule.op === 'after' || rule.op === 'before' ? 'date' : 'text' });
      value.addEventListener('input', () => { rule.value = NUMERIC.has(rule.op) ? Number(value.value) : value.value; write(); });
      row.append(labelled('Value', value));
    }
    if (WITH_VALUES.has(rule.op)) {
      const values = el('input', { value: (rule.values ?? []).join(', '), placeholder: 'a, b, c' });
      values.addEventListener('input', () => {
        rule.values = values.value.split(',').map((v) => v.trim()).filter(Boolean).map((v) => scalar(v, field.type === 'number'));
        write();
      });
      row.append(labelled('Values', values));
    }
    const conditional = el('input', { type: 'checkbox', checked: Boolean(rule.when) });
    conditional.addEventListener('change', () => {
      if (conditional.checked) rule.when = { field: state.fields.find((f) => f !== field)?.name ?? '', is: 'filled' };
      else delete rule.when;
      write();
      render();
    });
    row.append(labelled('Only when…', conditional));
    if (rule.when) {
      const names = state.fields.filter((f) => f !== field).map((f) => f.name);
      const other = selectOf(names, rule.when.field);
      other.addEventListener('change', () => { rule.when.field = other.value; write(); });
      const is = selectOf(COMPARATORS, rule.when.is);
      is.addEventListener('change', () => { rule.when.is = is.value; if (is.value === 'filled' || is.value === 'empty') delete rule.when.value; write(); render(); });
      row.append(labelled('field', other), labelled('is', is));
      if (rule.when.is !== 'filled' && rule.when.is !== 'empty') {
        const list = rule.when.is === 'one_of' || rule.when.is === 'not_one_of';
        const value = el('input', { value: Array.isArray(rule.when.value) ? rule.when.value.join(', ') : (rule.when.value ?? '') });
        value.addEventListener('input', () => {
          rule.when.value = list ? value.value.split(',').map((v) => scalar(v.trim(), true)) : scalar(value.value, ['gt', 'lt', 'gte', 'lte'].includes(rule.when.is));
          write();
        });
        row.append(labelled('value', value));
      }
    }
    const remove = el('button', { type: 'button', class: 'button secondary small', text: 'Remove rule' });
    remove.addEventListener('click', () => { field.rules.splice(index, 1); write(); render(); });
    row.append(remove);
    return row;
  }

  function fieldCard(field, index) {
    field.rules ??= [];
    const legend = el('legend', { text: field.name || `Field ${index + 1}` });
    const card = el('fieldset', { class: 'bcard' }, [legend]);
    const name = el('input', { value: field.name ?? '', required: true, autocomplete: 'off' });
    // No re-render here: it would replace the control the pointer is about to click.
    name.addEventListener('input', () => { field.name = name.value; legend.textContent = name.value || `Field ${index + 1}`; write(); });
    const type = selectOf(TYPES, field.type);
    type.addEventListener('change', () => { field.type = type.value; write(); });
    const required = el('input', { type: 'checkbox', checked: field.required === true });
    required.addEventListener('change', () => { field.required = required.checked; write(); });
    card.append(el('div', { class: 'brow' }, [labelled('Name', name), labelled('Type', type), labelled('Required', required)]));
    field.rules.forEach((rule, i) => card.append(ruleRow(field, rule, i)));
    const addRule = el('button', { type: 'button', class: 'button secondary small', text: 'Add rule' });
    addRule.addEventListener('click', () => { field.rules.push({ op: 'max_length', value: 1000 }); write(); render(); });
    const move = (by, label) => {
      const button = el('button', { type: 'button', class: 'button secondary small', text: label, disabled: !state.fields[index + by] });
      button.addEventListener('click', () => {
        state.fields.splice(index + by, 0, ...state.fields.splice(index, 1));
        write();
        render();
        // Focus follows the field to its new place (or stays on the button that can still move it).
        const card = root.querySelectorAll('.bcard')[index + by];
        const again = [...(card?.querySelectorAll('button') ?? [])].find((b) => b.textContent === label && !b.disabled);
        (again ?? card?.querySelector('input'))?.focus();
      });
      return button;
    };
    const up = move(-1, 'Move up');
    const down = move(1, 'Move down');
    const remove = el('button', { type: 'button', class: 'button danger small', text: 'Remove field' });
    remove.addEventListener('click', () => { state.fields.splice(index, 1); write(); render(); });
    card.append(el('div', { class: 'actions' }, [addRule, up, down, remove]));
    return card;
  }

  function render() {
    root.replaceChildren();
    root.append(el('p', { class: 'builder-title', text: 'Field builder' }));
    if (!state || !Array.isArray(state.fields)) {
      root.append(el('p', { class: 'error', text: 'The JSON has an error; fix it there and the builder comes back.' }));
      return;
    }
    state.fields.forEach((field, i) => root.append(fieldCard(field, i)));
    const add = el('button', { type: 'button', class: 'button secondary', id: 'add-field', text: 'Add field' });
    add.addEventListener('click', () => {
      state.fields.push({ name: `field_${state.fields.length + 1}`, type: 'string', required: false, rules: [] });
      write();
      render();
      const cards = root.querySelectorAll('.bcard');
      cards[cards.length - 1]?.querySelector('input')?.focus();
    });
    root.append(add);
  }

  function read() {
    try {
      state = JSON.parse(textarea.value);
    } catch {
      state = null;
    }
  }

  let timer;
  textarea.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { read(); render(); }, 300);
  });
  read();
  render();
}
