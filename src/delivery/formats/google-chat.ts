// A Google Chat incoming-webhook message with a card (cardsV2). Card text widgets read a small
// HTML subset (<b>, <i>, <a href>, <font>, <br>…), so submitted text is HTML-escaped and its line
// breaks become <br>. The top-level `text` of a message is read as Chat markup with <users/all>
// mentions, so the message has none: everything is in the card. The card header is plain text
// (the API documents no formatting there), so the form name goes in unescaped.
// Limit: https://developers.google.com/workspace/chat/create-messages (32,000 bytes a message);
// names and values are held to 24,000 bytes of it.
import type { SubmissionEvent } from '../event.ts';
import {
  clip, contextLine, fitEntries, omittedNote, submissionContent, translationHeading,
  type ContentEntry, type TextEncoding,
  titleMarks,
} from './content.ts';

const TEXT_BUDGET = 24_000;
/** JSON of the textParagraph widget and the tags around one entry. */
const ENTRY_OVERHEAD = 60;
const TITLE_MAX = 200;
const NAME_MAX = 256;
/** Chat sets no limit per widget; this keeps one long answer from crowding out the others. */
const VALUE_MAX = 4000;
const MAX_ENTRIES = 100;
const SPAM_REASON_MAX = 1000;

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '<br>' };

export const GOOGLE_CHAT_HTML: TextEncoding = {
  escape: (text) => text.replace(/[&<>"\n]/g, (character) => HTML_ENTITIES[character] ?? character),
  cost: (encoded) => Buffer.byteLength(JSON.stringify(encoded)) - 2,
};

type Widget = Record<string, unknown>;

function paragraph(html: string): Widget {
  return { textParagraph: { text: html } };
}

function entryWidgets(entries: ContentEntry[]): Widget[] {
  return entries.map((entry) => paragraph(`<b>${entry.name}</b><br>${entry.value}`));
}

export function googleChatMessage(event: SubmissionEvent, link: string) {
  const content = submissionContent(event, link);
  const sections: { header?: string; widgets: Widget[] }[] = [];

  if (content.spam) {
    const reason = content.spam.reason ? `<br>${clip(content.spam.reason, SPAM_REASON_MAX, GOOGLE_CHAT_HTML)}` : '';
    sections.push({ widgets: [paragraph(`<font color="#d93025"><b>Flagged as spam</b></font>${reason}`)] });
  }

  const limits = { maxEntries: MAX_ENTRIES, nameMax: NAME_MAX, valueMax: VALUE_MAX, entryOverhead: ENTRY_OVERHEAD };
  const data = fitEntries(content.entries, { ...limits, budget: TEXT_BUDGET }, GOOGLE_CHAT_HTML);
  if (data.entries.length > 0) sections.push({ widgets: entryWidgets(data.entries) });
  let omitted = data.omitted;

  if (content.translated) {
    const translated = fitEntries(content.translated, { ...limits, budget: data.remaining }, GOOGLE_CHAT_HTML);
    omitted += translated.omitted;
    if (translated.entries.length > 0) sections.push({ header: translationHeading(content.language), widgets: entryWidgets(translated.entries) });
  }

  const footer: Widget[] = [];
  if (omitted > 0) footer.push(paragraph(`<i>${omittedNote(omitted)}</i>`));
  footer.push(paragraph(`<font color="#5f6368">${GOOGLE_CHAT_HTML.escape(contextLine(content))}</font>`));
  footer.push({ buttonList: { buttons: [{ text: content.linkLabel, onClick: { openLink: { url: link } } }] } });
  sections.push({ widgets: footer });

  return {
    cardsV2: [{
      cardId: `submission-${content.submissionId}`,
      card: {
        header: { title: clip(`${titleMarks(content)}${content.formName}`, TITLE_MAX), subtitle: content.spam ? 'New submission, flagged as spam' : 'New submission' },
        sections,
      },
    }],
  };
}
