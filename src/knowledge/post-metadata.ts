// Lines of a pasted web page that are about a post, not part of what it says: who asked or answered
// and when ("Asked by Karen M · 3 years ago", "Answer from the owner · 3 years ago"), and what
// readers did with it ("👍 4", "Helpful (4)", "12w · Like · Reply"). Owners paste a business
// listing's questions and answers, a social-media page or a review site as their knowledge base;
// such a line answers nothing, and quoted as the answer to the question over it, it was sent for
// "hi how much for a chimney sweep" (issue 36, seventeenth round). In the five languages of
// knowledge bases. Every pattern here is tried on one short line only.

/** A line longer than this is taken for text, whatever it holds. */
const MAX_LINE = 80;

/**
 * When a post was written, counted back from now: "3 years ago", "a year ago", "il y a 2 mois", "vor
 * 3 Wochen", "hace un año", "2 anni fa". Each alternative is a fixed run of words: linear.
 */
const AGO = new RegExp([
  String.raw`\b(?:\d{1,3}|an?|one)\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?)\s+ago\b`,
  String.raw`\bil\s+y\s+a\s+(?:\d{1,3}|une?)\s+(?:secondes?|minutes?|heures?|jours?|semaines?|mois|ans?|années?)(?![\p{L}])`,
  String.raw`\bvor\s+(?:\d{1,3}|einem|einer|zwei|drei)\s+(?:Sekunden|Minuten?|Stunden?|Tag(?:en)?|Wochen?|Monat(?:en)?|Jahr(?:en)?)\b`,
  String.raw`\b(?:\d{1,3}|un|una|un')\s*(?:secondi|minuti|ore|ora|giorni|giorno|settimane|settimana|mesi|mese|anni|anno)\s+fa\b`,
  String.raw`\bhace\s+(?:\d{1,3}|un|una)\s+(?:segundos?|minutos?|horas?|d[ií]as?|semanas?|mes(?:es)?|años?)(?![\p{L}])`,
].join('|'), 'iu');

/**
 * Who wrote the post, opening the line: "Asked by", "Answer from the owner", "Posted by", "Réponse du
 * propriétaire", "Antwort des Inhabers", "Risposta del proprietario", "Respuesta del propietario".
 */
const BY = /^(?:(?:asked|answered|posted|written|submitted|reviewed|replied)\s+(?:by|on)|(?:question|answer|response|reply|comment)\s+(?:by|from)|(?:pos[ée]e?|r[ée]pondu|publi[ée]e?|[ée]crite?)\s+(?:par|le)|r[ée]ponse\s+(?:du|de|des)|(?:gefragt|beantwortet|geschrieben|gepostet|verfasst)\s+(?:von|am)|antwort\s+(?:von|des|der|vom)|(?:chiesto|domandato|risposto|pubblicato|scritto)\s+(?:da|il)|risposta\s+(?:del|della|di|dal)|(?:preguntado|respondido|publicado|escrito)\s+(?:por|el)|respuesta\s+(?:del|de))\s/iu;

/** The owner's answer announced on a line of its own: "Answer from the owner", "Response from the business". */
const FROM_OWNER = /^(?:answer|response|reply)\s+from\s+(?:the\s+)?(?:owner|business|seller|host|management)$|^r[ée]ponse\s+du\s+propri[ée]taire$|^antwort\s+des\s+(?:inhabers|eigent[üu]mers|anbieters)$|^risposta\s+del\s+proprietario$|^respuesta\s+del\s+propietario$/iu;

/** What separates the parts of such a line: "Asked by Dan · 2 years ago", "12w | Like | Reply". */
const SEPARATOR = /[·•|]/;

/**
 * What readers do with a post, in the five languages: a line of these words, counts, ages ("12w",
 * "3d") and emoji only ("Like · Reply", "Helpful (4)", "👍 4", "J'aime · Répondre", "Gefällt mir ·
 * Antworten", "Mi piace · Rispondi", "Me gusta · Responder").
 */
const ACTIONS = new Set([
  'like', 'likes', 'reply', 'replies', 'share', 'shares', 'comment', 'comments', 'report', 'helpful', 'unhelpful', 'useful', 'votes', 'upvote', 'upvotes', 'edited',
  'j', 'aime', 'répondre', 'repondre', 'partager', 'commenter', 'signaler', 'utile', 'modifié',
  'gefällt', 'mir', 'antworten', 'teilen', 'kommentieren', 'melden', 'hilfreich', 'bearbeitet',
  'mi', 'piace', 'rispondi', 'condividi', 'commenta', 'segnala', 'modificato',
  'me', 'gusta', 'responder', 'compartir', 'comentar', 'denunciar', 'útil', 'editado',
]);
/** Words a line of actions may hold beside them: none carries what a post says. */
const PIECE = /[\s·•|()[\]'’,:]+/u;
const COUNT = /^\d[\d.,]*[km]?$/i;
const AGE_UNIT = '(?:s|min|h|hr|d|w|wk|mo|y|yr|j|sem|t|g)';
/** An age written short, its number and unit together or apart ("12w", "3 sem"). */
const AGE = new RegExp(`^(?:\\d{1,3}${AGE_UNIT}|${AGE_UNIT})$`, 'i');
const EMOJI = /^[\p{Extended_Pictographic}\u{FE0F}\u{200D}\p{M}]+$/u;

function isActions(line: string): boolean {
  const pieces = line.split(PIECE).filter((p) => p.length > 0);
  const acted = pieces.some((p) => ACTIONS.has(p.toLowerCase()) || EMOJI.test(p));
  return acted && pieces.every((p) => ACTIONS.has(p.toLowerCase()) || EMOJI.test(p) || COUNT.test(p) || AGE.test(p));
}

/**
 * Whether a line (one unit of a passage, on a line of its own) is about a post rather than of it:
 * short, ending no sentence, and either the owner's answer announced, who wrote it with when or a
 * separator ("Asked by Dan · 2 years ago"), when with a separator ("Priya · a year ago"), or only
 * what readers did. Not "Reply by text to confirm your booking", "We opened 3 years ago", "Like new".
 */
export function isPostMetadata(line: string): boolean {
  const text = line.trim();
  if (text.length === 0 || text.length > MAX_LINE || text.includes('\n') || /[.!?]["')\]]*$/.test(text)) return false;
  if (FROM_OWNER.test(text) || isActions(text)) return true;
  const dated = AGO.test(text);
  const separated = SEPARATOR.test(text);
  return (BY.test(text) && (dated || separated)) || (dated && separated);
}
