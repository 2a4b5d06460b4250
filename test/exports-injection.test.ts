// CSV exports that no spreadsheet misreads, whatever an anonymous submitter sends: hostile values
// (line breaks of every kind, `;`, quotes, tabs, formulas after any of them) and a form whose field
// names are formulas, submitted through the public endpoint and exported through the REST API and
// the dashboard's Export button. Each export is read three ways: by a real CSV parser (one row per
// submission, every cell the value sent with an apostrophe before each formula start); and as the
// rules spreadsheets follow, cell by cell (no cell, line of a cell or `;`-separated piece of one
// starts with a formula character) and line by line of the file as a `;` locale splits it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { bearer, pathOf, type TestApp } from './helpers.ts';
import { ownerWithForm, type DashboardClient } from './dashboard-helpers.ts';

/** What a submitter sends, and what the export's cell must hold. */
const HOSTILE: Array<[string, string]> = [
  ['hi\n=1+1', "hi\n'=1+1"],
  ['hi\r=1+1', "hi\r'=1+1"],
  ['hi\r\n=1+1', "hi\r\n'=1+1"],
  ['a\r\r=1', "a\r'\r'=1"],
  ['x;=2*3;y', "x;'=2*3;y"],
  ['x;"=2*3";y', 'x;\'"=2*3";y'],
  ['say "hello", =1', 'say "hello", =1'],
  ['"=1+1"', '\'"=1+1"'],
  ['\t=cmd', "'\t=cmd"],
  ['\r=cmd', "'\r'=cmd"],
  ['-2+3', "'-2+3"],
  ['@SUM(A1)', "'@SUM(A1)"],
  ['ok\n\t=cmd\n+1;@2;-3', "ok\n'\t=cmd\n'+1;'@2;'-3"],
  ['\uFF1D1+1', "'\uFF1D1+1"],
  ['semi;colon', 'semi;colon'],
  ['line one\nline two', 'line one\nline two'],
  ['ends with\n', 'ends with\n'],
  ['=HYPERLINK("http://evil.example";"x")', '\'=HYPERLINK("http://evil.example";"x")'],
  ['plain', 'plain'],
  ['', ''],
];
/** Field names a form owner (or an agent acting on a submitter's words) might give. */
const FIELDS = ['message', '=cmd', 'a;=b', 'q"uote', '@name'];
const HEADERS = ['message', "'=cmd", "a;'=b", 'q"uote', "'@name"];
const FORMULA = /^"*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Every place a spreadsheet may start a cell within this text: its start, each line, each `;` piece. */
const cellStarts = (text: string) => text.split(/\r\n|\r|\n|;/);

describe('CSV exports of hostile submissions', () => {
  let t: TestApp;
  let key: string;
  let owner: DashboardClient;
  let form: { id: string; endpoint: string };

  before(async () => {
    ({ t, owner, key, form } = await ownerWithForm(FIELDS.map((name) => ({ name, type: 'string' }))));
    // Every field of every submission hostile: each value in a field of its own turn.
    for (let i = 0; i < HOSTILE.length; i++) {
      const payload = Object.fromEntries(FIELDS.map((name, f) => [name, HOSTILE[(i + f) % HOSTILE.length]![0]]));
      const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload });
      assert.equal(r.statusCode, 201, r.body);
    }
  });
  after(() => t.close());

  const check = (body: string) => {
    const text = body.replace(/^\uFEFF/, '');
    // Any line break ends a record outside quotes, as spreadsheets read it (csv-parse alone would take the first one it meets).
    const rows = parse(text, { bom: true, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true }) as string[][];
    const [header, ...data] = rows;
    assert.equal(data.length, HOSTILE.length, 'one row per submission, no more');
    const at = (name: string) => header!.indexOf(name);
    assert.deepEqual(HEADERS.map(at).map((i) => i >= 0), HEADERS.map(() => true), `headers neutralised: ${JSON.stringify(header)}`);
    // Oldest first, so row i is submission i.
    data.forEach((row, i) => {
      assert.equal(row.length, header!.length, `row ${i} has every column`);
      HEADERS.forEach((name, f) => assert.equal(row[at(name)], HOSTILE[(i + f) % HOSTILE.length]![1], `row ${i}, ${name}`));
    });
    for (const cell of rows.flat()) {
      for (const start of cellStarts(cell)) assert.doesNotMatch(start, FORMULA, `a cell start in ${JSON.stringify(cell)}`);
    }
    // A `;` locale splits each line of the file at every `;`; a quote is special only at a piece's start.
    for (const line of text.split(/\r\n|\r|\n/)) {
      for (const piece of line.split(';')) assert.doesNotMatch(piece, FORMULA, `a ;-separated piece of ${JSON.stringify(line)}`);
    }
  };

  it('through the REST export', async () => {
    for (const bom of [false, true]) {
      const r = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/export?filter=all&bom=${bom}`, headers: bearer(key) });
      assert.equal(r.statusCode, 200, r.body);
      check(r.body);
    }
  });

  it('through the dashboard\'s Export CSV', async () => {
    const r = await owner.get(`/forms/${form.id}/export?tab=all`);
    assert.equal(r.statusCode, 200);
    assert.match(r.headers['content-type'] as string, /^text\/csv/);
    check(r.body);
  });

  it('quotes every value holding a quote, a comma, a semicolon, a CR or an LF, and no other', async () => {
    const r = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/export?filter=all`, headers: bearer(key) });
    for (const [, expected] of HOSTILE) {
      if (expected === '') continue;
      const quoted = `"${expected.replaceAll('"', '""')}"`;
      if (/[",;\r\n]/.test(expected)) assert.ok(r.body.includes(quoted), `quoted: ${JSON.stringify(expected)}`);
      else assert.ok(r.body.includes(`,${expected},`) && !r.body.includes(quoted), `bare: ${JSON.stringify(expected)}`);
    }
  });
});
