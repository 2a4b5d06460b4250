// A Telegram Bot API sendMessage request in HTML parse mode. Telegram wants every <, > and & that
// is not markup written as an entity (and " inside attribute values); that is all submitted text
// needs, since HTML mode reads no markdown. Link previews are off so a submitted URL never
// unfurls in the chat.
// Limit: https://core.telegram.org/bots/api#sendmessage (text of 1-4096 characters after entities
// parsing: tags count nothing, an entity counts as the one character it stands for).
import type { SubmissionEvent } from '../event.ts';
import {
  clip, contextLine, fitEntries, omittedNote, submissionContent, translationHeading,
  type ContentEntry, type TextEncoding,
  titleMarks,
} from './content.ts';

const TEXT_MAX = 4096;
const TITLE_MAX = 256;
const NAME_MAX = 256;
/** Telegram sets no limit per value; this keeps one long answer from crowding out the others. */
const VALUE_MAX = 1500;
const MAX_ENTRIES = 100;
const SPAM_REASON_MAX = 500;
/** ": " after the name and the line break after the value; the <b> tags count nothing. */
const ENTRY_OVERHEAD = 3;

const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export const TELEGRAM_HTML: TextEncoding = {
  escape: (text) => text.replace(/[&<>]/g, (character) => TEXT_ENTITIES[character] ?? character),
  cost: (encoded) => encoded.replace(/<[^<>]*>/g, '').replace(/&(?:lt|gt|amp|quot|#\d+);/g, '_').length,
};

function attribute(text: string): string {
  return text.replace(/[&<>"]/g, (character) => TEXT_ENTITIES[character] ?? character);
}

const TOKEN = /^\d+:[A-Za-z0-9_-]+$/;

/** The sendMessage endpoint of a bot. The token is checked so it cannot reshape the URL's path. */
export function telegramUrl(botToken: string): string {
  if (!TOKEN.test(botToken)) throw new Error('not a Telegram bot token (expected "<digits>:<letters, digits, _ or ->")');
  return `https://api.telegram.org/bot${botToken}/sendMessage`;
}

function entryLines(entries: ContentEntry[]): string[] {
  return entries.map((entry) => `<b>${entry.name}:</b> ${entry.value}`);
}

export function telegramMessage(event: SubmissionEvent, link: string, chatId: string | number) {
  const content = submissionContent(event, link);
  const title = `${titleMarks(content)}New submission: ${content.formName}`;
  const head = [`<b>${clip(title, TITLE_MAX, TELEGRAM_HTML)}</b>`];
  if (content.spam) {
    const reason = content.spam.reason ? `: ${clip(content.spam.reason, SPAM_REASON_MAX, TELEGRAM_HTML)}` : '';
    head.push(`⚠️ <b>Flagged as spam</b>${reason}`);
  }
  const tail = [`<i>${TELEGRAM_HTML.escape(contextLine(content))}</i>`, `<a href="${attribute(link)}">${content.linkLabel}</a>`];
  const translationTitle = `<b>${translationHeading(content.language)}</b>`;

  // Blank lines between the parts, the longest note we might add, and the translation heading.
  const fixed = [...head, ...tail, `<i>${omittedNote(999)}</i>`, translationTitle].join('\n\n');
  const limits = { maxEntries: MAX_ENTRIES, nameMax: NAME_MAX, valueMax: VALUE_MAX, entryOverhead: ENTRY_OVERHEAD };
  const data = fitEntries(content.entries, { ...limits, budget: TEXT_MAX - TELEGRAM_HTML.cost(fixed) - 8 }, TELEGRAM_HTML);
  const translated = content.translated ? fitEntries(content.translated, { ...limits, budget: data.remaining }, TELEGRAM_HTML) : null;
  const omitted = data.omitted + (translated?.omitted ?? 0);

  const parts = [head.join('\n')];
  if (data.entries.length > 0) parts.push(entryLines(data.entries).join('\n'));
  if (translated && translated.entries.length > 0) parts.push([translationTitle, ...entryLines(translated.entries)].join('\n'));
  if (omitted > 0) parts.push(`<i>${omittedNote(omitted)}</i>`);
  parts.push(tail.join('\n'));

  return {
    chat_id: chatId,
    text: parts.join('\n\n'),
    parse_mode: 'HTML' as const,
    link_preview_options: { is_disabled: true },
  };
}
