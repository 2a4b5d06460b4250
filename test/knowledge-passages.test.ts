import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { answered, answerParts } from '../src/replies/offline.ts';
import { FAQ } from './fixtures.ts';

describe('passages', () => {
  it('keeps a question with its whole answer', () => {
    const passages = splitPassages(FAQ);
    assert.equal(passages.length, 3);
    assert.equal(passages[1]?.heading, 'Do you ship to Canada?');
    assert.equal(passages[1]?.body, 'Yes. Orders to Canada arrive within 5 to 8 working days.\nCustoms fees are paid on delivery.');
  });

  it('keeps a Markdown section under its heading, and ignores headings inside code', () => {
    const passages = splitPassages('Intro line.\n\n# Refunds\nWe refund in 5 days.\n\nAsk support.\n\n## Code\n```\n# not a heading\n```\n');
    assert.deepEqual(passages.map((p) => p.heading), [null, 'Refunds', 'Code']);
    assert.equal(passages[1]?.body, 'We refund in 5 days.\n\nAsk support.');
    assert.match(passages[2]?.body ?? '', /# not a heading/);
  });

  it('splits plain text into paragraphs', () => {
    const passages = splitPassages('First paragraph.\r\n\r\nSecond one\nstill second.\n\n\n\nThird.');
    assert.deepEqual(passages.map((p) => p.body), ['First paragraph.', 'Second one\nstill second.', 'Third.']);
    assert.deepEqual(passages.map((p) => p.position), [0, 1, 2]);
  });

  it('reads numbered section titles over numbered clauses (terms and conditions), not a numbered list', () => {
    const passages = splitPassages('BOOKING TERMS\n\n1. Appointments\n1.1 Grooms are by appointment.\n1.2 A groom takes 2 hours.\n\n2) Payment\nWe take cash and card.\n\nWhat we sell:\n\n1. Bread\n2. Cakes');
    assert.deepEqual(passages.map((p) => p.heading), [null, 'Appointments', 'Payment']);
    assert.equal(passages[1]?.body, '1.1 Grooms are by appointment.\n1.2 A groom takes 2 hours.');
    assert.equal(passages[2]?.body, 'We take cash and card.\n\nWhat we sell:\n\n1. Bread\n2. Cakes');
    // A title's number is read off once: a line of numbers is not unwrapped number by number.
    const hostile = splitPassages(`Intro.\n\n${'1. '.repeat(50_000)}x\nText under it.`);
    assert.equal(hostile.length, 2);
    assert.equal(hostile[1]?.heading, null);
  });

  it('every body is a verbatim piece of the content', () => {
    const content = `${FAQ}\n\n# Extra\n\nSome more text here.`;
    for (const passage of splitPassages(content)) assert.ok(content.replace(/\r\n?/g, '\n').includes(passage.body));
  });
});

describe('retrieval', () => {
  const index = buildIndex(splitPassages(FAQ));

  it('ranks the passage that answers first and decides it answers', () => {
    const matches = index.search('I forgot my password, how can I reset it?');
    assert.equal(matches[0]?.passage.heading, 'How do I reset my password?');
    assert.ok(answered(answerParts(index, 'I forgot my password, how can I reset it?')));
  });

  it('finds nothing to answer a question the knowledge base does not cover', () => {
    for (const question of ['What colour is the sky on Mars?', 'the a of', '']) assert.ok(!answered(answerParts(index, question)), question);
  });
});

describe('passages of hostile content', () => {
  // A backtracking pattern takes minutes on these lines; the timeout turns that into a failure.
  it('splits long lines of spaces and markers without backtracking', { timeout: 30_000 }, () => {
    const lines = [`# a${' '.repeat(200_000)}b`, `Q:${' '.repeat(100_000)}x`, `\n${' \t'.repeat(100_000)}`, `## Title ##`, 'body'];
    const passages = splitPassages(lines.join('\n'));
    assert.ok(passages.some((p) => p.heading === 'Title'));
  });
});
