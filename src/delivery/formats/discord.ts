// A Discord webhook message (Execute Webhook) with embeds. `allowed_mentions: { parse: [] }` is
// the guard against pings: Discord then notifies nobody, whatever the text says. On top of it,
// submitted text is escaped so it renders as typed: markdown characters get a backslash (Discord
// drops a backslash before any punctuation), "<" too so <@id> and <#id> never become mention
// chips, and @everyone/@here get a zero-width space so they do not even look like mentions.
// Limits: https://discord.com/developers/docs/resources/message#embed-object-embed-limits
// (title 256, description 4096 (we use far less), 25 fields, field name 256, value 1024, footer 2048, and 6000
// characters across all embeds of a message).
import type { SubmissionEvent } from '../event.ts';
import {
  clip, fitEntries, omittedNote, submissionContent, translationHeading,
  type ContentEntry, type TextEncoding,
  titleMarks,
} from './content.ts';

const TITLE_MAX = 256;
const MAX_FIELDS = 25;
const FIELD_NAME_MAX = 256;
const FIELD_VALUE_MAX = 1024;
const FOOTER_MAX = 2048;
const TOTAL_MAX = 6000;
/** Short single-line values sit side by side; longer ones get a row of their own. */
const INLINE_MAX = 40;
/** The reason is a sentence from our spam check; more would only eat the 6000 shared by the fields. */
const SPAM_REASON_MAX = 1000;

export const DISCORD_RED = 0xed4245;
export const DISCORD_BLURPLE = 0x5865f2;

const MARKDOWN_CHARACTER = /[\\*_~`|<>[\]()#+-]/g;
const MASS_MENTION = /@(everyone|here)/g;

export const DISCORD_TEXT: TextEncoding = {
  escape: (text) => text.replace(MARKDOWN_CHARACTER, '\\$&'),
  cost: (encoded) => encoded.length,
};

/** Must run before escaping: it looks at more than one character at a time. */
function defuseMentions(text: string): string {
  return text.replace(MASS_MENTION, '@\u200b$1');
}

function defused(entries: ContentEntry[]): ContentEntry[] {
  return entries.map((entry) => ({ name: defuseMentions(entry.name), value: defuseMentions(entry.value) }));
}

interface EmbedField { name: string; value: string; inline: boolean }

function toFields(entries: ContentEntry[]): EmbedField[] {
  return entries.map((entry) => ({ ...entry, inline: entry.value.length <= INLINE_MAX && !entry.value.includes('\n') }));
}

export function discordMessage(event: SubmissionEvent, link: string) {
  const content = submissionContent(event, link);
  const color = content.spam ? DISCORD_RED : DISCORD_BLURPLE;
  const prefix = `${titleMarks(content)}New submission: `;
  const title = `${prefix}${clip(defuseMentions(content.formName), TITLE_MAX - prefix.length, DISCORD_TEXT)}`;
  const description = content.spam
    ? `**Flagged as spam**${content.spam.reason ? `: ${clip(defuseMentions(content.spam.reason), SPAM_REASON_MAX, DISCORD_TEXT)}` : ''}`
    : null;
  // Footers show no markdown and everything in them is ours, so they are not escaped.
  const footerBase = [content.language ? `Language: ${content.language}` : null, `Submission ${content.submissionId}`].filter(Boolean).join(' · ');
  const translationTitle = translationHeading(content.language);

  // Everything but the fields is counted first, with room kept for the longest note we might add.
  const reserved = title.length + (description?.length ?? 0) + footerBase.length + ` · ${omittedNote(999)}`.length
    + (content.translated ? translationTitle.length : 0);
  const limits = { maxEntries: MAX_FIELDS, nameMax: FIELD_NAME_MAX, valueMax: FIELD_VALUE_MAX };
  const data = fitEntries(defused(content.entries), { ...limits, budget: TOTAL_MAX - reserved }, DISCORD_TEXT);
  const translated = content.translated
    ? fitEntries(defused(content.translated), { ...limits, budget: data.remaining }, DISCORD_TEXT)
    : null;
  const omitted = data.omitted + (translated?.omitted ?? 0);
  const footer = clip(omitted > 0 ? `${footerBase} · ${omittedNote(omitted)}` : footerBase, FOOTER_MAX);

  const embeds: Record<string, unknown>[] = [{
    title,
    url: link,
    color,
    ...(description ? { description } : {}),
    fields: toFields(data.entries),
    footer: { text: footer },
    timestamp: content.createdAt,
  }];
  if (translated && translated.entries.length > 0) {
    // No url here: Discord merges embeds that share a url into one.
    embeds.push({ title: translationTitle, color, fields: toFields(translated.entries) });
  }
  return { embeds, allowed_mentions: { parse: [] as string[] } };
}
