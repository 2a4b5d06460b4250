// A short, curated list of what web-form spam says. Strong phrases name a spam trade
// (SEO, casino, pharma, crypto schemes); weak ones are sales talk that honest people use
// too ("guaranteed", "dear sir/madam"), so one weak phrase alone never flags a message.
// Matched against lower-cased prose with look-alike letters folded to Latin.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';

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
  phrase('pharma', /\b(?:viagra|cialis|levitra|tramadol|xanax|valium|phentermine|pharmacy online|online pharmacy|weight loss pills?)\b/u, STRONG),
  phrase('adult content', /\b(?:porn\w*|xxx|sexy (?:girls|singles)|adult dating|hot singles|escort services?)\b/u, STRONG),
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
  phrase('crypto scheme', /\b(?:airdrop|trading\sbot|account\smanager|forex\strader|recover\s(?:your\s)?(?:lost|stolen)\s(?:crypto|bitcoin|funds)|bitcoin\strading|krypto|криптовалют\w{0,3})\b/u, STRONG),
  phrase('loans', /\b(?:private\slender|no\scredit\scheck|bad\scredit|loans?\sat\s\d{1,2}%|pr[êe]t\sentre\sparticuliers|pr[ée]stamos\sr[áa]pidos|sin\saval|working\scapital|urgent\sfinancial\sassistance)\b/u, STRONG),
  phrase('adult content', /\b(?:lonely\sand\slooking|meet\stonight|singles\sin\syour\sarea|sexkontakte|hei[ßs]e\sfrauen|diskrete\streffen|serious\srelationship)\b/u, STRONG),
  phrase('account threat', /\b(?:verify|confirm)\syour\s(?:account|identity|details)|\bwill\sbe\s(?:suspended|blocked|deleted|terminated)\b|\bcopyright\sinfringement\b|\bunusual\ssign-in\b|\bkonto\swurde\s(?:vor[üu]bergehend\s)?gesperrt\b|\bfrais\sde\sr[ée]exp[ée]dition\b|\binfected\swith\smalware\b/u, STRONG),
  phrase('web design pitch', /\b(?:app\sdevelopment\scompany|web\sdesign\sand\sdevelopment|(?:uber|airbnb)\sclone|looks\soutdated|wirkt\sveraltet|webagentur|empresa\sde\sdesarrollo\sweb|non\s[èe]\sottimizzato)\b/u, WEAK),
  phrase('cheap prices', /\b(?:cheap(?:est)?|lowest price|best prices?|discount(?:ed)?)\b/u, WEAK),
];

export function spamPhraseSignal(text: SubmissionText): SignalHit | null {
  const matched = SPAM_PHRASES.filter((candidate) => candidate.pattern.test(text.foldedProse));
  if (matched.length === 0) return null;
  const weight = Math.min(MAX_WEIGHT, matched.reduce((sum, candidate) => sum + candidate.weight, 0));
  const noun = matched.length === 1 ? 'phrase' : 'phrases';
  return { id: 'spam_phrases', weight, detail: `spam ${noun}: ${matched.map((candidate) => candidate.label).join(', ')}` };
}
