// Issue 35's thirteenth round: rank_promise, the SEO pitch's promise of the top of a search engine: "first page of Google",
// "in die Top 10 bei Google", "az első oldalra juttatjuk", "صفحه اول گوگل", "ТОП-10 Яндекса". The twelfth round left SEO
// pitches missed that name no fault in the reader's site (site_critique) and promise no customers (growth_pitch); what
// they share is a top position, on a search engine named beside it.
//
// Its near-miss twins, pinned in test/spam-thirteenth-round.test.ts: a customer who asks how to get their own site onto
// the first page ("my site", "notre site": the sender's own), a customer who wants it and asks the owner, an SEO agency,
// for a quote (the sender's own need), and a message that names Google and a first page of something else.
//
// The words are the training and validation parts' SEO pitches' and the dictionaries' of their languages. Matched on the
// lower-cased leading prose; every gap is a bounded run of one class, so matching stays linear (test/regex-audit.test.ts).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { OWN_NEED } from './growth-pitch.ts';

/** Alone enough under `standard`; in a short text it also flags under `intelligent` (classifier-verdict.ts). */
export const RANK_PROMISE_WEIGHT = 0.95;

/** A top position: the first page, the top ten, the first places, "#1". */
const TOP = new RegExp([
  String.raw`\b(?:first|1st|front)\spage\b|\bpage\s(?:one|1)\b|\btop\s?(?:3|5|10|three|ten)\b|\btop-(?:3|5|10)\b|\b(?:top|first)\spositions?\b|\brank(?:ing)?\s(?:#?1|first|number\sone)\b`,
  String.raw`\berste[nr]?\sseite\b|\b(?:platz|position)\s1\b|\bpremi[èe]re\spage\b|\bpremi[èe]res?\spositions?\b|\bprimera\sp[áa]gina\b|\bprimeras\sposiciones\b|\bprima\spagina\b|\bprime\sposizioni\b|\bprimeira\sp[áa]gina\b|\bprimeiras\sposi[çc][õo]es\b|\btopo\sdo\b`,
  String.raw`\beerste\spagina\b|\bbovenaan\sin\b|\bf[öo]rsta\ssidan\b|\bf[øo]rste\sside\b|\bensimm[äa]iselle\ssivulle\b|\bpierwsz\p{L}{1,3}\sstron\p{L}{1,3}|\bprvn[íi]\sstr[áa]nk\p{L}{1,3}|\bprv[áa]\sstr[áa]nk\p{L}{1,3}|(?<!\p{L})els[őo]\soldal\p{L}{0,4}|\bilk\ssayfa\p{L}{0,4}|\bprima\spagin[ăa]\b|\bhalaman\s(?:pertama|satu)\b|\bl[êe]n\stop\b|\btop\s(?:google|yandex|bing)\b`,
  String.raw`(?<!\p{L})(?:перв\p{L}{2}\sстраниц\p{L}{1,2}|перш\p{L}{2}\sсторінк\p{L}{1,2}|топ-?\s?(?:3|5|10)|πρώτη\sσελίδα|الصفحة\sالأولى|صفحه\s(?:اول|یک)|העמוד\sהראשון|पहले\sपेज|หน้าแรก|trang\s(?:đầu|nhất|1)|첫\s?페이지|상위\s?노출|首页|前三|1ページ目|上位表示|検索順位1位)`,
].join('|'), 'u');

/** A search engine named. */
const ENGINE = /(?<!\p{L})(?:google|bing|yandex|яндекс\p{L}{0,2}|naver|네이버|谷歌|百度|گوگل|جوجل|غوغل|גוגל|गूगल|กูเกิล)(?!\p{L})/u;

/** ENGINE's names with no edge asked, for the first cheap pass. */
const ENGINE_STEM = /google|bing|yandex|яндекс|naver|네이버|谷歌|百度|گوگل|جوجل|غوغل|גוגל|गूगल|กูเกิล/u;

/** How far from the position the engine may be named, in characters. */
const NEAR = 40;

/** The sender placed there by someone: "put us on the first page", "got us onto page one" (a customer's own ranking). */
const PLACED_US = /\b(?:put|get|got|bring|brought|rank(?:ed)?|place[ds]?|helped)\sus\b/u;

/** The sender's own site ("my website", "notre site"): a customer asking about their own ranking, not a pitch. */
const OWN_SITE = /\b(?:my|our|mon|notre|ma|meine|unsere|mi|nuestra|nuestro|il\smio|il\snostro|o\smeu|o\snosso|a\sminha|mijn|onze|moja|nasza)\s(?:web\s?)?(?:site|website|webseite|homepage|seite|sitio|p[áa]gina|sito|pagina|strona|shop|store|boutique|tienda|negozio|loja|winkel)\b/u;

export function rankPromiseSignal(text: SubmissionText): SignalHit | null {
  const prose = text.leadingProse;
  // The engine's name first, as unanchored stems (a fast scan): most messages name none.
  if (!ENGINE_STEM.test(prose)) return null;
  const top = TOP.exec(prose);
  if (!top) return null;
  // The engine within a few words of the position ("first page of Google", "Google'da ilk sayfa"), not anywhere in a long text.
  const near = prose.slice(Math.max(0, top.index - NEAR), top.index + top[0].length + NEAR);
  if (!ENGINE.test(near) || OWN_SITE.test(prose) || PLACED_US.test(prose) || OWN_NEED.test(prose)) return null;
  return { id: 'rank_promise', weight: RANK_PROMISE_WEIGHT, detail: `a top place on a search engine promised ("${top[0].slice(0, 40)}")` };
}
