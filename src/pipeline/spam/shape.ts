// The shape of a message, for the text classifier: what the sender does, not what they sell. Outreach and a
// supplier's introduction share their words ("website", "quote", "our team", "I came across your site"); what
// differs is their shape. Outreach greets nobody in particular ("Hi there", "Dear website owner"), offers a generic
// benefit to anyone (more customers, rankings, a free audit), pushes a reply or a link, and asks for nothing it
// needs. A real introduction or enquiry names a person or how the sender came to write (a colleague's
// recommendation, a trade fair, an order), states something concrete (quantities, dates, an order number) and
// asks a question about it.
//
// Each part is a feature the classifier weighs (learnt from the training parts, where both shapes are); the
// conjunctions say what a linear model cannot add up by itself ("an offer, with no named person and no referral").
// Read on the first SHAPE_PREFIX characters only; every quantifier is bounded or between disjoint classes, so the
// regex audit finds no super-linear pattern.

import type { SubmissionText } from './submission-text.ts';
import { siteCritique } from './site-critique.ts';

/** Shape lives in the opening and the sign-off; a long text's middle adds cost, not evidence. */
const SHAPE_PREFIX = 2_000;
const SIGN_OFF_TAIL = 120;
const GREETING_HEAD = 80;

/** A greeting to nobody in particular. Matched on lower-cased text. */
const GENERIC_GREETING = /^(?:hi|hello|hey|dear|greetings|good\s(?:day|morning|afternoon))?[\s,!]{0,3}(?:there|team|all|friend|sir(?:\s?\/\s?madam)?|sir\sor\smadam|madam|webmaster|website\sowner|site\sowner|business\sowner|owner|manager|partner|colleague|investor|customer)\b|^good\sday\b|^greetings\b/u;
/** A greeting to a named person: the name is capitalised, so this reads the text as written. */
const NAMED_GREETING = /^(?:hi|hello|hey|dear|hallo|guten\stag|liebe[rs]?|sehr\sgeehrte[rs]?|hola|buenos\sd[ií]as|bonjour|ciao|buongiorno|salve|ol[áa]|bom\sdia|goedemiddag|goedemorgen|dzie[ńn]\sdobry|merhaba|здравствуйте)?[\s,]{0,3}(?:(?:mr|mrs|ms|miss|dr|prof|herr|frau|madame|monsieur|mme|m\.|se[ñn]or|se[ñn]ora|signor|signora|sig\.|sra?\.|pan|pani|meneer|mevrouw)\.?\s)?(\p{Lu}\p{Ll}{1,20})\b/u;
const NOT_A_NAME = new Set(['There', 'Team', 'All', 'Sir', 'Madam', 'Friend', 'Webmaster', 'Website', 'Owner', 'Manager', 'Partner', 'Dear', 'Hello', 'Hi', 'Hey', 'Good', 'Greetings', 'Damen', 'The', 'We', 'I', 'My', 'Our', 'Your', 'This', 'Is', 'Are', 'Do', 'Can', 'Please', 'Quick', 'Just', 'Want', 'Need']);
/** A sender who gives a full name ("I'm Tom Reid from …"): outreach tends to give a first name or none. Read as written. */
const FULL_NAME = /(?:\b[Ii]'m|\b[Ii]\sam|\b[Mm]y\sname\sis|\b[Tt]his\sis|\b[Ii]ch\sbin|\b[Jj]e\ssuis|\b[Ss]oy|\b[Ss]ono|\b[Ss]ou\s(?:a|o)|\b[Ii]k\sben|\b[Nn]azywam\ssi[ęe]|\bben|[Мм]еня\sзовут)\s(\p{Lu}\p{Ll}{1,20})\s(?:\p{Lu}\p{Ll}{1,20})\b/u;
/** A sign-off followed by a name, near the end. */
const SIGNED = /(?:regards|thanks|thank\syou|cheers|best|sincerely|grüße|gruß|cordialement|bien\s[àa]\svous|saludos?|un\ssaludo|cordiali\ssaluti|grazie|obrigad[ao]|groet(?:en)?|pozdrawiam|с\sуважением)[,!.]?\s{1,3}(?:\p{L}{1,3}\.?\s)?(\p{Lu}\p{Ll}{1,20})/u;
/** How the sender came to write: someone's recommendation, a meeting, an order, a question asked before. */
const REFERRAL = /\b(?:recommended|mentioned|told\sme|suggested|referred|gave\sme\syour|we\smet|we\sspoke|as\spromised|you\sasked|you\srequested|your\scolleague|your\saccountant|thank\syou\sfor\svisiting|at\sthe\s(?:trade\s)?(?:fair|show|expo|event|meetup|conference)|on\sthe\s\p{L}{2,20}\sforum|empfohlen|meinten|unterhalten|besuch\san\sunserem|recomend[óo]|nos\sdio\stu\scontacto|m'aviez\sdemand[ée]|nous\snous\ssommes\scrois[ée]s|mi\sha\sdetto|vertelde|pyta[łl]|gave\sus\syour)\b/u;
/** "I noticed / came across your website": opens outreach, and some real introductions too. */
const DISCOVERY = /\b(?:noticed|came\sacross|found|visited|stumbled\supon|was\s(?:looking\sat|on|checking|browsing)|saw)\s(?:on\s)?(?:your\s(?:website|site|business|company|page|shop|store|listing|profile)|you\son\s(?:google|linkedin|facebook|instagram))|\bauf\s(?:ihre|ihr)\s(?:website|unternehmen|seite)|\bvotre\ssite\b|\bsu\s(?:sitio|p[áa]gina|web|empresa)\b|\bil\svostro\ssito\b|\bo\sseu\ssite|\buw\swebsite\b/u;
/** The sender's offer, in the first person plural or as a service. */
const OFFER = /\b(?:we\s(?:offer|provide|specialise|specialize|help|build|develop|deliver|guarantee|can\s(?:help|get|rank|fix|build|provide|bring|send))|i\s(?:can\s(?:help|get|fix|provide|build|make|bring|send|rank)|offer|provide|help\sbusinesses)|our\s(?:services?|team|experts|packages?|agency|company|prices?\sstart)|we\sare\sa\s(?:leading\s|professional\s|top\s)?(?:\p{L}{2,20}\s){0,3}(?:company|agency|team|firm|provider)|wir\sbieten|wir\serstellen|nous\sproposons|notre\sagence|ofrecemos|somos\suna\s(?:agencia|empresa)|offriamo|realizziamo|siamo\sun'agenzia|oferecemos|trabalhamos\scom|wij\s(?:bieden|helpen)|zajmujemy\ssi[ęe]|oferujemy|gwarantujemy|prowadzimy\spozycjonowanie|dise[ñn]amos|desarrollamos|vi\s(?:hj[äa]lper|erbjuder)|nab[íi]z[íi]me|oferim|realiz[ăa]m)\b/u;
/**
 * Issue 35's tenth round: the offer and the pitch's ask in more of the training and validation parts' languages, from
 * `standard`'s and `intelligent`'s validation misses: German "gerne schicken wir Ihnen", "wir liefern"; Turkish "-abiliriz"
 * ("we can …", TURKISH_WE_CAN), "sunuyoruz"; Polish "chętnie przygotuję", "czy mogę ją przesłać"; Dutch "wij leveren"; Italian "posso
 * inserire"; Czech "zašleme"; and, where `\b` cannot see a word's edge, Greek, Russian, Hindi and Korean.
 */
const OFFER_MORE = /\b(?:gerne?\s(?:schicken|senden|erstellen)\swir|wir\s(?:liefern|programmieren|entwickeln|bringen\ssie)|sunuyoruz|ch[ęe]tnie\sprzygotuj[ęe]|wij\sleveren|posso\sinserire|za[šs]leme)|(?<!\p{L})(?:предлагаем|выведем|сделаем|θα\sήθελα\sνα\sσας\sπροτείνω|बनाते\sहैं|तैयार\sकरती\sहै|보장해\s?드립니다|제작해\s?드립니다)/u;
/** Turkish "we can …" ("taşıyabiliriz"): asked only of a text that holds the suffix, as the word before it costs a scan. */
const TURKISH_WE_CAN = /\b\p{L}{2,20}(?:abiliriz|ebiliriz)\b/u;
const PITCH_MORE = /\bczy\smog[ęe]\s(?:\p{L}{1,4}\s)?przes[łl]a|(?<!\p{L})(?:να\sσας\sστείλω|भेज\sसकता|관심\s?있으시면)/u;
/** What outreach promises anyone: more customers, rankings, traffic, growth. */
const GENERIC_BENEFIT = /\b(?:more\s(?:customers|clients|leads|traffic|visitors|sales|bookings|enquiries|calls)|businesses\slike\syours|grow\syour\s(?:business|sales)|boost\syour|rank(?:ing)?\s(?:higher|on\sgoogle|#?1)|first\spage|top\s(?:3|three|10)\s(?:of|on|in)\sgoogle|organic\straffic|double\syour|(?:guaranteed|daily)\s(?:profits?|returns?|results)|online\spresence|more\sclients|mehr\s(?:kunden|anfragen)|plus\sde\sclients|m[áa]s\sclientes|pi[ùu]\sclienti|mais\sclientes|meer\sklanten)\b/u;
/**
 * What asks for a reply to the pitch rather than about a need. "interested?" stands outside the closing `\b`, which
 * never holds after a "?" followed by a space or the end (until issue 35's sixth round it never matched).
 */
const PITCH_ASK = /\binterested\?|\b(?:if\syou(?:'re|\sare)\sinterested|are\syou\sinterested|would\syou\sbe\s(?:open|interested)|open\sto\sa\s(?:quick\s)?(?:call|chat)|quick\s(?:call|chat)|(?:shall|should|can|may)\si\ssend|reply\s(?:with\s)?["'“]?(?:yes|info|interested)|no\s(?:obligation|strings|cost|commitment)|free\s(?:audit|consultation|trial|mockup|report|estimate|quote|analysis|case\sevaluation)|sign\sup|order\snow|apply\s(?:now|in)|get\sstarted|act\s(?:now|quickly)|limited\s(?:time|offer|spots)|before\sspots|let\sme\sknow\sif|whatsapp\s(?:me|us)|sin\scompromiso|unverbindlich|vrijblijvend|sans\sengagement|senza\simpegno|sem\scompromisso|can\si\sshare|email\sme\sfor\s(?:more\s)?details|kindly\sreply|le\sinteresa|te\sinteresa|czy\smog[ęe]\sprzes[łl]a|prosz[ęe]\so\skontakt\szwrotny|s[ąa]\spa[ńn]stwo\szainteresowani|h[äa]tten\ssie\sinteresse|(?:soll|darf)\sich\sihnen|puis-je\svous\s(?:envoyer|proposer)|[êe]tes-vous\sint[ée]ress[ée]s?|posso\s(?:inviarvi|mandarvi|inviarle|mandarle)|vi\sinteressa|posso\s(?:enviar|mandar)|tem\sinteresse|zal\sik\s(?:u|een)|vill\sni\sha|kan\sjag\sskicka)\b/u;
/** Something concrete the sender needs: quantities with units, an order or invoice number, a day, a date. */
const CONCRETE = /\b\d{1,5}\s?(?:x\s?\d{1,4}|people|guests|persons|pieces|pcs|units|boxes|bottles|cases|bags|staff|colleagues|adults|children|kids|m²|m2|sq\s?m|kg|km|pages|rooms|seats|tickets|personnes|personas|pessoas|persone|personen|stück|sztuk|osób|человек)\b|\b(?:order|invoice|booking|reference|ref|account|customer|bon|pedido|commande|bestellung|ordine|rechnung|fattura|factura|fatura)\s?(?:no\.?|nr\.?|number|n[º°]|#)?\s?\d{3,}|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next\sweek|this\sweek|montag|dienstag|mittwoch|donnerstag|freitag|samstag|lundi|mardi|mercredi|jeudi|vendredi|samedi|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|luned[ìi]|marted[ìi]|sabato|domenica)\b|\b\d{1,2}\.?\s(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|januar|februar|märz|juni|juli|oktober|dezember|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|enero|febrero|marzo|abril|mayo|junio|julio|agosto|octubre|noviembre|diciembre)\b/u;
/** The sender's own need, in the first person: what customers, applicants and buyers write. */
const OWN_NEED = /\b(?:i(?:'d|\swould)\slike|we(?:'d|\swould)\slike|i\s(?:need|want|ordered|bought|booked|paid|applied|am\sapplying|'m\sapplying)|we\s(?:need|want|ordered|bought)|my\s(?:order|account|booking|cv|parcel|invoice|subscription)|can\s(?:you|i|we|someone)|could\s(?:you|someone|i|we)|do\syou\s(?:have|sell|deliver|offer|do|ship|accept)|is\sit\spossible|are\syou\s(?:free|open|available)|how\s(?:much|long|do\si)|what\s(?:is|would|are)\sthe|ich\s(?:möchte|hätte|brauche)|wir\s(?:möchten|brauchen|suchen)|je\s(?:voudrais|cherche|souhaite)|quiero|quer[íi]a|me\sinteresa|vorrei|gostaria|ik\s(?:wil|heb)|chcia[łl](?:a|by)m)\b/u;
const QUESTION = /[?¿؟]/u;
/**
 * A business that can be found: a registration or tax number, or a street address. Outreach hides where it
 * is; a supplier, a workshop or a tradesperson writing to a neighbour says it. Matched on lower-cased text.
 */
const BUSINESS_IDENTITY = /\b(?:vat(?:\sno\.?|\snumber)?|company\s(?:no\.?|number|reg(?:istration)?\.?(?:\sno\.?)?)|reg\.?\sno\.?|ust-?idnr\.?|ust-?id|handelsregister|hrb|siret|siren|p\.?\s?iva|partita\siva|cif|nif|nipc|kvk|btw|nip|regon|inn|инн|огрн|vergi\sno|mersis)[\s:.]{0,3}(?:[a-z]{2}\s?)?\d[\d\s]{3,16}|\b\d{1,4}[a-z]?,?\s(?:[\p{L}'-]{2,20}\s){0,3}(?:street|st|road|rd|lane|avenue|yard|way|place|square)\b|\b\d{1,4},?\s(?:rue|avenue|boulevard|bd|chemin|all[ée]e|impasse|quai)\s|\b(?:unit|rue|via|calle|rua|ul\.|avenida|piazza|plaza|straat|gatan|sokak|cadde|улица|ул\.)\s(?:[\p{L}'-]{2,20}\s){0,3}\d{1,4}\b|\b[\p{L}-]{2,30}(?:str\.|straße|strasse|weg|gasse|platz|straat|gatan|vej)\s\d{1,4}\b/u;
/**
 * A price in a currency: "$299", "from 990 €", "£340 each", "1.500 euros", "990 Kč". Issue 35's tenth round: a price
 * quoted in an offer to nobody in particular is an advert's (signals/site-critique.ts reads the conjunction below).
 */
const PRICE = /(?:[$€£₹]\s?\d{1,3}(?:[.,\s]?\d{3}){0,3}(?:[.,]\d{1,2})?|\b\d{1,3}(?:[.,\s]?\d{3}){0,3}(?:[.,]\d{1,2})?\s?(?:€|eur(?:os?)?\b|usd\b|dollars?\b|kč|zł|lei\b|kr\b|руб|₺|tl\b))/u;
/** Pressure that a neighbour's offer does not need: a guarantee of results, a deadline, "order now". */
const PRESSURE = /\b(?:guaranteed|guarantee|money[\s-]back|limited\s(?:time\s)?offer|offer\s(?:ends|expires)|this\sweek\sonly|only\sthis\s(?:week|month)|act\snow|order\snow|buy\snow|apply\snow|sign\sup\snow|hurry|garantiert|garantie|garanti(?:e|s|t|ta|to|do|da)?|gegarandeerd|z\sgwarancj[aą]|с\sгарантией|garantili|jetzt\s(?:bestellen|registrieren)|offre\slimit[ée]e|oferta\slimitada|offerta\svalida\ssolo)\b/u;

/** The shape features of a text (lower-cased and folded `prose`, the text as written in `original`), each a feature name. */
export function shapeFeatures(original: string, prose: string, urlCount: number): string[] {
  const head = shapeHead(prose);
  const text = original.trimStart();
  const end = Math.min(text.length, SHAPE_PREFIX);
  const fullName = FULL_NAME.exec(text.slice(0, SHAPE_PREFIX));
  const named = namedGreeting(text.slice(0, GREETING_HEAD)) || signed(text.slice(Math.max(0, end - SIGN_OFF_TAIL), end)) || (fullName !== null && !NOT_A_NAME.has(fullName[1]!));
  const generic = GENERIC_GREETING.test(head.slice(0, GREETING_HEAD));
  const referral = REFERRAL.test(head);
  const discovery = DISCOVERY.test(head);
  const offer = OFFER.test(head) || OFFER_MORE.test(head) || (head.includes('biliriz') && TURKISH_WE_CAN.test(head));
  const benefit = GENERIC_BENEFIT.test(head);
  const pitch = asksForReply(head);
  const concrete = CONCRETE.test(head);
  const need = OWN_NEED.test(head);
  const question = QUESTION.test(head);
  const identity = BUSINESS_IDENTITY.test(head);
  const pressure = PRESSURE.test(head);
  const features: string[] = [];
  const add = (name: string, present: boolean) => { if (present) features.push(`h:${name}`); };
  add('named', named);
  add('generic_greeting', generic);
  add('referral', referral);
  add('discovery', discovery);
  add('offer', offer);
  add('benefit', benefit);
  add('pitch', pitch);
  add('concrete', concrete);
  add('need', need);
  add('identity', identity);
  add('pressure', pressure);
  add('critique', siteCritique(head));
  // Conjunctions: the shapes themselves.
  const personal = named || referral;
  add('offer_to_nobody', (offer || benefit) && !personal);
  add('discovery_to_nobody', discovery && !personal);
  add('pitch_without_need', pitch && !need && !concrete);
  add('link_with_offer', urlCount > 0 && (offer || benefit || pitch) && !question);
  add('generic_greeting_offer', generic && (offer || benefit || pitch));
  add('concrete_question', question && (concrete || need) && !pitch);
  add('personal_concrete', personal && (concrete || need));
  add('identified_offer', identity && !pressure && (offer || benefit || discovery));
  add('pressured_offer', pressure && !need && (offer || benefit || pitch || urlCount > 0));
  add('priced_offer', (offer || benefit || pitch) && !personal && !need && !concrete && !identity && PRICE.test(head));
  return features;
}

/** What the shape features read of the lower-cased prose. */
export function shapeHead(prose: string): string {
  return prose.slice(0, SHAPE_PREFIX).trimStart();
}

/** `h:pitch` alone, for a heuristic that needs it before the rest (cold_offer): a pitch's ask for a reply. */
export function asksForReply(head: string): boolean {
  return PITCH_ASK.test(head) || PITCH_MORE.test(head);
}

/** A price in the head, without which there is no `h:priced_offer` (priced_offer asks this first). */
export function quotesPrice(head: string): boolean {
  return PRICE.test(head);
}

function namedGreeting(head: string): boolean {
  const found = NAMED_GREETING.exec(head);
  return found !== null && found[0].trim() !== found[1] && !NOT_A_NAME.has(found[1]!);
}

function signed(tail: string): boolean {
  const found = SIGNED.exec(tail);
  return found !== null && !NOT_A_NAME.has(found[1]!);
}

/**
 * The shape features of a submission's prose without its links, as the heuristics that read them (cold_pitch,
 * trade_advert, a paired stranger_link) see it; read once per check however many ask (text-view.ts).
 */
export function proseShape(text: SubmissionText): { written: string; shape: ReadonlySet<string> } {
  return { written: text.view.written, shape: text.view.shapeSet };
}
