// A Microsoft Teams message (incoming webhook or Workflows "post to a channel" webhook) carrying an
// Adaptive Card. TextBlock text and FactSet facts are read as markdown, and Teams clients disagree
// on backslash escapes (mobile shows the backslash, desktop hides it), so there is no reliable
// way to escape submitted text there. Submitted text therefore goes into RichTextBlock TextRuns,
// which Adaptive Cards never read as markdown; TextBlocks carry only our own fixed labels.
// Version 1.4: what Teams and Workflows render on desktop and mobile (RichTextBlock needs 1.2).
// Limit: Teams refuses messages over about 28 KB; names and values are held to 20,000 bytes.
import type { SubmissionEvent } from '../event.ts';
import {
  clip, contextLine, fitEntries, omittedNote, submissionContent, translationHeading,
  type ContentEntry, type TextEncoding,
} from './content.ts';

/** Bytes of names and values; the card's own JSON around them stays well under the rest. */
const TEXT_BUDGET = 20_000;
/** JSON of the two RichTextBlocks around one entry. */
const ENTRY_OVERHEAD = 160;
const NAME_MAX = 256;
/** Teams sets no limit per text; this keeps one long answer from crowding out the others. */
const VALUE_MAX = 4000;
const MAX_ENTRIES = 100;
const SPAM_REASON_MAX = 1000;

/** Nothing to escape in a TextRun; what counts is the JSON size of the text. */
export const TEAMS_TEXT: TextEncoding = {
  escape: (text) => text,
  cost: (encoded) => Buffer.byteLength(JSON.stringify(encoded)) - 2,
};

type Element = Record<string, unknown>;

function richText(text: string, style: Record<string, unknown> = {}, block: Record<string, unknown> = {}): Element {
  return { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text, ...style }], ...block };
}

function entryElements(entries: ContentEntry[]): Element[] {
  return entries.flatMap((entry) => [
    richText(entry.name, { weight: 'Bolder' }, { spacing: 'Medium' }),
    richText(entry.value, {}, { spacing: 'None' }),
  ]);
}

export function teamsMessage(event: SubmissionEvent, link: string) {
  const content = submissionContent(event, link);
  const body: Element[] = [
    { type: 'TextBlock', text: content.test ? 'Test event: a sample submission' : 'New submission', isSubtle: true, wrap: true },
    richText(clip(content.formName, NAME_MAX, TEAMS_TEXT), { size: 'Large', weight: 'Bolder' }, { spacing: 'None' }),
  ];
  if (content.spam) {
    body.push({ type: 'TextBlock', text: 'Flagged as spam', color: 'Attention', weight: 'Bolder', wrap: true });
    if (content.spam.reason) body.push(richText(clip(content.spam.reason, SPAM_REASON_MAX, TEAMS_TEXT), { color: 'Attention' }, { spacing: 'None' }));
  }

  const limits = { maxEntries: MAX_ENTRIES, nameMax: NAME_MAX, valueMax: VALUE_MAX, entryOverhead: ENTRY_OVERHEAD };
  const data = fitEntries(content.entries, { ...limits, budget: TEXT_BUDGET }, TEAMS_TEXT);
  const [first, ...rest] = entryElements(data.entries);
  if (first) body.push({ ...first, separator: true }, ...rest);
  let omitted = data.omitted;

  if (content.translated) {
    const translated = fitEntries(content.translated, { ...limits, budget: data.remaining }, TEAMS_TEXT);
    omitted += translated.omitted;
    if (translated.entries.length > 0) {
      body.push({ type: 'TextBlock', text: translationHeading(content.language), weight: 'Bolder', separator: true, wrap: true });
      body.push(...entryElements(translated.entries));
    }
  }

  if (omitted > 0) body.push({ type: 'TextBlock', text: omittedNote(omitted), isSubtle: true, wrap: true, separator: true });
  body.push(richText(contextLine(content), { isSubtle: true, size: 'Small' }, { separator: true }));

  return {
    type: 'message',
    attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
        type: 'AdaptiveCard',
        version: '1.4',
        msteams: { width: 'Full' },
        body,
        actions: [{ type: 'Action.OpenUrl', title: content.linkLabel, url: link }],
      },
    }],
  };
}
