// A Slack incoming-webhook message (Block Kit). Slack reads &, < and > as control characters in
// every text object (<!channel>, <@U123>, <https://x|label>), so they are always sent as entities.
// mrkdwn has no escape for * _ ~ `, so submitted text goes into plain_text objects only, which
// Slack never formats; mrkdwn carries nothing but our own fixed labels.
// Limits: https://docs.slack.dev/reference/block-kit/blocks (50 blocks a message, header text 150,
// section text 3000, 10 fields a section of 2000 each, button text 75, context 10 elements).
import type { SubmissionEvent } from '../event.ts';
import {
  clip, contextLine, fitEntries, omittedNote, submissionContent, translationHeading,
  type ContentEntry, type TextEncoding,
  titleMarks,
} from './content.ts';

const MAX_BLOCKS = 50;
const HEADER_MAX = 150;
const SECTION_TEXT_MAX = 3000;
const FIELD_TEXT_MAX = 2000;
/** Names are short labels; a long one would crowd the value column out. */
const NAME_MAX = 200;
/** Fields come in name/value pairs, two fields per row of a section. */
const ENTRIES_PER_SECTION = 5;
/**
 * Slack documents no size limit for blocks as a whole, only 40,000 characters for `text`; we hold
 * all names and values to that so one message never grows past what Slack documents at all.
 */
const TEXT_BUDGET = 40_000;
/** header, spam, translation heading, omitted note, context, actions. */
const FIXED_BLOCKS = 6;

export const SLACK_TEXT: TextEncoding = {
  escape: (text) => text.replace(/[&<>]/g, (character) => (character === '&' ? '&amp;' : character === '<' ? '&lt;' : '&gt;')),
  cost: (encoded) => encoded.length,
};

interface PlainText { type: 'plain_text'; text: string; emoji: boolean }
type Block = Record<string, unknown>;

function plain(text: string): PlainText {
  // emoji: false keeps ":name:" in submitted text as typed.
  return { type: 'plain_text', text, emoji: false };
}

function entrySections(entries: ContentEntry[]): Block[] {
  const sections: Block[] = [];
  for (let start = 0; start < entries.length; start += ENTRIES_PER_SECTION) {
    const fields = entries.slice(start, start + ENTRIES_PER_SECTION).flatMap((entry) => [plain(entry.name), plain(entry.value)]);
    sections.push({ type: 'section', fields });
  }
  return sections;
}

export function slackMessage(event: SubmissionEvent, link: string): { text: string; mrkdwn: false; blocks: Block[] } {
  const content = submissionContent(event, link);
  const title = `${titleMarks(content)}New submission: ${content.formName}`;
  const blocks: Block[] = [{ type: 'header', text: plain(clip(title, HEADER_MAX, SLACK_TEXT)) }];

  if (content.spam) {
    const reason = content.spam.reason ? `Flagged as spam: ${content.spam.reason}` : 'Flagged as spam';
    blocks.push({ type: 'section', text: plain(clip(`⚠️ ${reason}`, SECTION_TEXT_MAX, SLACK_TEXT)) });
  }

  let sectionsLeft = MAX_BLOCKS - FIXED_BLOCKS;
  const limits = { nameMax: NAME_MAX, valueMax: FIELD_TEXT_MAX };
  const data = fitEntries(content.entries, { ...limits, maxEntries: sectionsLeft * ENTRIES_PER_SECTION, budget: TEXT_BUDGET }, SLACK_TEXT);
  const dataSections = entrySections(data.entries);
  blocks.push(...dataSections);
  sectionsLeft -= dataSections.length;
  let omitted = data.omitted;

  if (content.translated) {
    const translated = fitEntries(content.translated, { ...limits, maxEntries: sectionsLeft * ENTRIES_PER_SECTION, budget: data.remaining }, SLACK_TEXT);
    omitted += translated.omitted;
    if (translated.entries.length > 0) {
      blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*${translationHeading(content.language)}*` } });
      blocks.push(...entrySections(translated.entries));
    }
  }

  if (omitted > 0) blocks.push({ type: 'context', elements: [plain(omittedNote(omitted))] });
  blocks.push({ type: 'context', elements: [plain(clip(contextLine(content), SECTION_TEXT_MAX, SLACK_TEXT))] });
  blocks.push({
    type: 'actions',
    elements: [{ type: 'button', text: plain(content.linkLabel), url: link }],
  });

  // `text` is the notification and screen-reader fallback; mrkdwn: false keeps it unformatted.
  return { text: clip(title, SECTION_TEXT_MAX, SLACK_TEXT), mrkdwn: false, blocks };
}
