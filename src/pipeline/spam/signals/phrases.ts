// A short, curated list of what web-form spam says. Strong phrases name a spam trade
// (SEO, casino, pharma, crypto schemes); weak ones are sales talk that honest people use
// too ("guaranteed", "dear sir/madam"), so one weak phrase alone never flags a message.
// Matched against lower-cased prose with look-alike letters folded to Latin.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { unionOf } from '../pattern-union.ts';

interface Phrase { label: string; pattern: RegExp; weight: number }

const STRONG = 0.5;
const WEAK = 0.25;
const MAX_WEIGHT = 1.2;

const phrase = (label: string, pattern: RegExp, weight: number): Phrase => ({ label, pattern, weight });

export const SPAM_PHRASES: readonly Phrase[] = [
  phrase('SEO services', /\bseo\s+(?:services?|agency|expert|packages?|company|optimi[sz]ation)\b|\bsearch engine optimi[sz]ation\b/u, STRONG),
  phrase('first page of Google', /\b(?:first|1st|top)\s+page\s+(?:of|on|in)\s+(?:google|search)/u, STRONG),
  phrase('backlinks', /\bback-?links?\b|\bdomain authority\b|\bguest posts?\b/u, STRONG),
  phrase('more traffic/leads', /\b(?:increase|boost|drive|grow|skyrocket)\s+(?:your\s+)?(?:website\s+)?(?:traffic|leads|sales|rankings?)\b/u, WEAK),
  phrase('casino', /\b(?:casinos?|online betting|sports betting|slot machines?|jackpot|poker online|free (?:spins|bets?))\b/u, STRONG),
  // "cialis" after a letter lookbehind: `\b` is ASCII-only, so it held inside the French "spécialisé" (the accent is no
  // word character to it), and every French translator "spécialisée dans …" named a drug (issue 35's eighth round).
  phrase('pharma', /\b(?:viagra|(?<!\p{L})cialis|levitra|tramadol|xanax|valium|phentermine|pharmacy online|online pharmacy|weight loss pills?)\b/u, STRONG),
  // "xxx" as the last word is kisses under a message ("thank you so much xxx"), not a film: issue 35's eighth round.
  phrase('adult content', /\b(?:porn\w*|xxx(?![^\p{L}\p{N}]{0,5}$)|sexy (?:girls|singles)|adult dating|hot singles|escort services?)\b/u, STRONG),
  phrase('loans', /\b(?:payday loans?|instant loans?|loan offer|credit repair)\b/u, STRONG),
  phrase('dear sir/madam', /\bdear\s+(?:sir|madam|sir\s*(?:\/|or|and)\s*madam|friend|beloved|website owner)\b/u, WEAK),
  phrase('guaranteed', /\bguarantee[ds]?\b/u, WEAK),
  phrase('click here', /\bclick\s+(?:here|(?:on\s+)?the\s+link|below)\b/u, WEAK),
  phrase('limited-time offer', /\b(?:limited time|act now|order now|buy now|special promotion|exclusive (?:deal|offer)|don'?t miss (?:out|this))\b/u, WEAK),
  // A free trial or quote offered ("get your free quote"), not asked about ("is there a free trial?").
  phrase('free offer', /\b100%\s*free\b|\brisk[- ]free\b|\bno obligation\b|\b(?:get|claim|request|book|start|grab|try)\s(?:a\s|an\s|your\s|my\s)?free\s(?:trial|quote|consultation)\b|\bfree\s(?:trial|quote|consultation)\s(?:offer|today|now)\b/u, WEAK),
  phrase('web design pitch', /\b(?:web(?:site)? (?:design|development) (?:services?|company|agency)|redesign your website|mobile[- ]friendly website)\b/u, WEAK),
  // The trades of web-form spam in the words and languages they come in (docs/spam.md, "Signals").
  phrase('SEO services', /\b(?:link\sbuilding|do-?\s?follow|sponsored\spost|white-hat|seo-optimierung|r[ée]f[ée]rencement|posicionamiento(?:\sseo)?|pozycjonowani\w{0,3})\b|\bda\s\d{2}\+/u, STRONG),
  phrase('essay writing', /\b(?:essay\s(?:writ(?:ing|ers?)|service)|write\smy\s(?:essay|paper)|assignment\s(?:help|writing)|(?:dissertation|thesis|coursework)\s(?:writing|help)|custom\sthesis|take\smy\sonline\sclass|plagiarism[\s-]free|sin\splagio|trabajos\sacad[ée]micos)\b/u, STRONG),
  phrase('replica goods', /\b(?:replicas?|replika|1:1\scopy|aaa\squality|same\sas\soriginal|identica\sall'originale|factory\sprices)\b/u, STRONG),
  phrase('casino', /\b(?:freispiele|online\scasino|cassino|rodadas\sgr[áa]tis|apostas\sesportivas|judi\sonline|slot\sgacor|betting\stips|fixed\smatches|welcome\sbonus)\b/u, STRONG),
  phrase('pharma', /\b(?:without\s(?:a\s)?prescription|no\sprescription(?:\sneeded)?|sans\sordonnance|sin\sreceta|keto\spills|pastillas\spara\sadelgazar|adderall|oxycodone|generic\scialis)\b/u, STRONG),
  // `\b` is ASCII-only even with the `u` flag, so Cyrillic words are bounded by letter look-arounds; and, like
  // "bitcoin trading", the scheme (earning or investing in it) is the phrase, not the currency a customer may pay with.
  phrase('crypto scheme', /\b(?:airdrop|trading\sbot|(?:certified|personal|dedicated|my|our)\saccount\smanager|forex\strader|recover\s(?:your\s)?(?:lost|stolen)\s(?:or\s(?:lost|stolen)\s)?(?:crypto|bitcoin|funds)|bitcoin\strading|krypto)\b|(?<![\p{L}\p{N}])(?:заработ\p{L}{0,4}|доход\p{L}{0,3}|инвест\p{L}{0,8}|вложени\p{L}{0,2})\s(?:на|в)\sкриптовалют\p{L}{0,3}(?![\p{L}\p{N}])/u, STRONG),
  phrase('loans', /\b(?:private\slender|no\scredit\scheck|bad\scredit|loans?\sat\s\d{1,2}%|pr[êe]t\sentre\sparticuliers|pr[ée]stamos\sr[áa]pidos|sin\saval|working\scapital|urgent\sfinancial\sassistance)\b/u, STRONG),
  phrase('adult content', /\b(?:lonely\sand\slooking|meet\stonight|singles\sin\syour\sarea|sexkontakte|hei[ßs]e\sfrauen|diskrete\streffen|serious\srelationship)\b/u, STRONG),
  phrase('account threat', /\b(?:verify|confirm)\syour\s(?:account|identity|details)|\bwill\sbe\s(?:suspended|blocked|deleted|terminated)\b|\bcopyright\sinfringement\b|\bunusual\ssign-in\b|\bkonto\swurde\s(?:vor[üu]bergehend\s)?gesperrt\b|\bfrais\sde\sr[ée]exp[ée]dition\b|\binfected\swith\smalware\b/u, STRONG),
  phrase('web design pitch', /\b(?:app\sdevelopment\scompany|web\sdesign\sand\sdevelopment|(?:uber|airbnb)\sclone|looks\soutdated|wirkt\sveraltet|webagentur|empresa\sde\sdesarrollo\sweb|non\s[èe]\sottimizzato)\b/u, WEAK),
  // Issue 35's third round: the same trades in more of the languages they come in, written against the validation
  // parts' misses (scripts/spam-validation-misses.ts). Cyrillic and Arabic words take a letter lookbehind, since \b
  // only knows ASCII letters.
  phrase('SEO services', /\bseo[\s-](?:pakket\w{0,3}|paket\w{0,3}|pacchett\w|paquetes?|pacotes?|pakiet\w{0,2})\b|\b(?:enlaces|links)\sde\scalidad\b|\bgastartikel\b|(?<!\p{L})(?:seo-продвижени|вывед\p{L}{1,3}\s(?:ваш\p{L}{0,2}\s)?(?:сайт\s)?в\sтоп)|(?:外链|百度首页|seo优化)/u, STRONG),
  phrase('first page of Google', /\b(?:prima\spagina|primera\sp[áa]gina|premi[eè]re\spage|seite\s1|pagina\s1|primeira\sp[áa]gina)\s(?:(?:di|de|del|auf|bei|su|in|em|op|do|von)\s)?(?:google|bing)\b|\b(?:google|bing)\s(?:en\sla\s|auf\s|on\s)?(?:primera\sp[áa]gina|seite\s1|pagina\s1)\b|(?<!\p{L})топ-?\s?(?:3|5|10)\s(?:яндекс|google|гугл)/u, STRONG),
  phrase('SEO writing', /\bseo[\s-](?:optimi[sz]ed|friendly)\s(?:articles|blog\sposts|content)\b/u, WEAK),
  phrase('essay writing', /\b(?:hausarbeit|bachelorarbeit|masterarbeit|seminararbeit)\s(?:schreiben\slassen|kaufen)\b|\bghostwriter\w{0,3}\s(?:erstell\w{1,3}|schreib\w{1,3})\s(?:ihre|deine)\b|\b(?:tesi|tesina)\s(?:su\scommissione|chiavi\sin\smano)\b|\bm[ée]moire\scl[ée]\sen\smain\b/u, STRONG),
  phrase('replica goods', /\b(?:borse\sfirmate|prezzi\sdi\sfabbrica|precios\sde\sf[áa]brica|prix\sd'usine|fabrikpreise|pre[çc]os\sde\sf[áa]brica|(?:nfl|nba|mlb|nhl)\sjerseys|cheap\s(?:jerseys|designer|handbags|watches|sneakers))\b/u, STRONG),
  phrase('crypto scheme', /\b(?:recovery\s(?:experts?|specialists?|agents?)|no\srecovery,?\sno\sfee|get\syour\s(?:funds|money|crypto)\sback|lost\s(?:money|funds)\sto\s(?:an?\s)?(?:investment\s|crypto\s)?(?:scam|fraud)\?|robô\sde\sinvestimentos?|rob[ôo]\sde\strading|criptovalute\scon\sil\snostro|guadagn\w{1,3}\sfino\sa|ganhe\sr\$|kripto\spara\sile)\b|(?<!\p{L})заработ\p{L}{0,4}\sна\sкриптовалют/u, STRONG),
  phrase('loans', /\b(?:prestiti\s(?:veloci|rapidi|personali\ssenza)|senza\sbusta\spaga|senza\sgaranzie|sin\sconsultar\sasnef|sin\sn[óo]mina|pr[ée]stamos?\s(?:personales\s)?entre\sparticulares|pr[êe]ts?\srapides?\ssans|kredit\sohne\sschufa|sofortkredit|empr[ée]stimos?\ssem\sconsulta|money\sin\syour\saccount\swithin|dinero\sen\s(?:tu\scuenta\sen\s)?(?:24\shoras|\d{1,2}\sminutos)|soldi\ssul\sconto\sin)\b|(?<!\p{L})(?:займ\p{L}{0,2}\sбез|кредит\sбез\sсправок|قروض\sسريعة|قروض\sبدون)/u, STRONG),
  phrase('adult content', /\b(?:diskretes\streffen|my\s(?:private|hot|sexy)\s(?:photos|pictures|pics)|lonely\stonight|young\swoman\sfrom\s(?:ukraine|russia)|i\ssaw\syour\sprofile\sand\si\slike\syou|schau\sdir\smeine\s(?:bilder|fotos)\san|singles\sin\sdeiner\sn[äa]he|rencontres?\scoquines?|citas\scalientes)\b/u, STRONG),
  phrase('account threat', /\b(?:pacco|colis|paquete|pakket|paket|encomenda|pacote)\s(?:[\p{L}']{1,12}\s){0,4}(?:in\sgiacenza|retenid[oa]|bloqu[ée]|wordt\steruggestuurd|retid[oa]|zur[üu]ckgehalten)|\b(?:spese\sdi\sspedizione|gastos\sde\senv[íi]o|verzendkosten|frais\sde\slivraison|zustellgeb[üu]hr)\s(?:di|de|van|von\s)?\s?\d{1,2}[.,]\d{2}\s?(?:€|eur)|\bdue\sfor\srenewal\b[^\n]{0,80}\bsuspension\b|\bto\savoid\s(?:suspension|legal\saction|losing\syour\s(?:website|domain))\b/u, STRONG),
  phrase('pharma', /\b(?:cbd\s(?:oil|gummies)\b[^\n]{0,80}(?:%\soff|today\sonly|order\snow)|sin\sreceta\sm[ée]dica|senza\sricetta|ohne\srezept)\b/u, STRONG),
  phrase('web design pitch', /\b(?:agencia\sde\sdise[ñn]o\sweb|redise[ñn]amos|criamos\ssites|sites\sprofissionais|realizziamo\ssiti|agenzia\sweb|webdesignbureau|(?:\d{2,3}\+?\s)?developers\s(?:from|in)\sindia|at\s\d{2}%\slower\scost|le\srediseñamos)\b/u, WEAK),
  phrase('limited-time offer', /\b(?:order\stoday|apply\s(?:now|today)|solic[íi]t(?:elo|alo)\s(?:ahora|ya)|richiedi\sora|jetzt\s(?:registrieren|anmelden|bestellen)|inscrivez-vous|commandez\s(?:sur|maintenant)|acesse\sagora|pe[çc]a\sj[áa](?!\p{L})|posti\slimitati|places\slimit[ée]es|plazas\slimitadas|vagas\slimitadas)\b|(?<!\p{L})места\sограничены/u, WEAK),
  // Issue 35's eighth round: loans, link selling and app pitches in languages the lists did not hold, from the validation
  // parts' misses (scripts/spam-validation-misses.ts); words that end or start in a letter outside ASCII take letter
  // look-arounds, as `\b` does not see those letters.
  phrase('loans', /\b(?:credite\srapide|f[ăa]r[ăa]\sverificare\s(?:[îi]n\s)?(?:biroul|la\sbiroul)|pr[êe]ts?\ss[ée]rieux|accorde\sdes\spr[êe]ts|walang\scollateral|loan\sagad)\b|(?<!\p{L})δάνεια\sχωρίς(?!\p{L})/u, STRONG),
  phrase('SEO services', /(?<!\p{L})(?:pakiet\p{L}{0,2}\slink[óo]w|gastbeitr[äa]g\p{L}{0,2}|ilk\ssayfaya\s[çc][ıi]kar\p{L}{0,8})(?!\p{L})/u, STRONG),
  phrase('web design pitch', /\bdise[ñn]amos\s(?:tiendas|p[áa]ginas|webs|sitios)\b|(?<!\p{L})разработа\p{L}{0,3}\s(?:\p{L}{1,12}\s)?приложени\p{L}{0,2}(?!\p{L})/u, WEAK),
  phrase('cheap prices', /\b(?:cheap(?:est)?|lowest price|best prices?|discount(?:ed)?)\b/u, WEAK),
];

const ANY_PHRASE = unionOf(SPAM_PHRASES.map((candidate) => candidate.pattern));

/** The phrases the prose contains, in the list's order (pattern-union.ts). */
function phrasesIn(text: SubmissionText): Phrase[] {
  if (!ANY_PHRASE.test(text.foldedProse)) return [];
  return SPAM_PHRASES.filter((candidate) => candidate.pattern.test(text.foldedProse));
}

/** The labels of the strong phrases (a spam trade named, not sales talk) the prose contains. */
export function tradePhrases(text: SubmissionText): string[] {
  return [...new Set(phrasesIn(text).filter((candidate) => candidate.weight >= STRONG).map((candidate) => candidate.label))];
}

export function spamPhraseSignal(text: SubmissionText): SignalHit | null {
  const matched = phrasesIn(text);
  if (matched.length === 0) return null;
  const weight = Math.min(MAX_WEIGHT, matched.reduce((sum, candidate) => sum + candidate.weight, 0));
  const noun = matched.length === 1 ? 'phrase' : 'phrases';
  return { id: 'spam_phrases', weight, detail: `spam ${noun}: ${matched.map((candidate) => candidate.label).join(', ')}` };
}
