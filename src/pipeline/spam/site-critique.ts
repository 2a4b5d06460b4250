// Issue 35's tenth round: the fault found in the reader's own site, the opening of most SEO and web-design pitches
// in every language ("your site isn't mobile friendly", "Ihre Webseite rankt nur auf Seite 4", "il vostro sito non
// compare nelle ricerche locali", "seu site não aparece no Google Maps"). A customer may mention a fault too ("your
// site gives a 404"), so the critique alone is weak; what makes it a pitch is the offer that follows it
// (signals/site-critique.ts). Read by the classifier as a shape feature (`h:critique`, shape.ts) and by `standard`.
//
// The wordings are those of the training and validation parts' web-form spam (English, German, French, Spanish,
// Italian, Portuguese, Dutch, Polish, Romanian, Turkish, Swedish, Indonesian), not a list of every language's.
// Matched on lower-cased prose; each gap is a bounded run of one class, so matching stays linear.

/** The reader's site, page, listing or profile, then within a clause what is wrong with it. */
const YOUR_SITE = String.raw`(?:your\s(?:web\s?site|site|homepage|home\spage|google\s(?:business\s)?(?:profile|listing)|listing|wordpress\ssite|online\sshop|store)|ihre?\s(?:website|webseite|homepage|seite|praxis|firma|eintrag)|votre\s(?:site|page|fiche)|su\s(?:p[áa]gina|web|sitio|negocio)|tu\s(?:p[áa]gina|web|sitio|negocio)|il\svostro\s(?:sito|negozio)|(?:o\s)?seu\s(?:site|neg[óo]cio)|o\ssite\sda\svossa|(?:uw|jullie)\s(?:website|site)|pa[ńn]stwa\sstron[aęy]|site-ul\sdumneavoastr[ăa]|web\ssiteniz|siteniz|er\s(?:hemsida|webbplats)|website\s(?:bisnis\s)?(?:kakak|anda))`;
const FAULT = String.raw`(?:(?:isn't|is\snot|not)\s(?:mobile[\s-]friendly|responsive|ranking|showing|appearing|secure|optimi[sz]ed)|doesn't\s(?:show\sup|rank|appear)|looks\s(?:outdated|dated|old)|loads\sslow|(?:has|with)\s\d{1,3}\s(?:technical\s|seo\s)?(?:errors|issues)|(?:on\s)?page\s(?:[2-9]|two|three|four)\b|veraltet|nicht\smehr\szeitgem[äa](?:ß|ss)|nicht\s(?:mobil|auf\sgoogle)|gar\snicht\sauf|nur\sauf\sseite|rankt\s[^.?!]{0,40}seite\s\d|n'appara[iî]t\s(?:pas|qu'en)|page\s\d\b|pas\sadapt[ée]|m[ée]riterait\sune\srefonte|no\s(?:sale|aparece|est[áa]\sadaptad[ao]|funciona\sbien)|desactualizad[ao]|casi\sno\sla\smuestra|non\s(?:compare|appare|[èe]\sottimizzat[ao])|n[ãa]o\saparece|perdendo\sclientes|nauwelijks|pas\sop\spagina|niet\s(?:mobiel|gevonden|zichtbaar)|dopiero\sna|przestarza[łl]|nu\sarat[ăa]\sbine|nu\sapare|gerisinde|g[öo]r[üu]nm[üu]yor|syns\sinte|belum\smuncul|tidak\smuncul)`;
const CRITIQUE = new RegExp(String.raw`${YOUR_SITE}[^.?!\n]{0,60}${FAULT}`, 'u');
/** The fault found without naming the site: "I found 37 technical errors", "spotted a few things costing you enquiries". */
const FOUND_FAULT = /\b(?:found|spotted|noticed)\s(?:\d{1,3}|a\sfew|several|some)\s(?:technical\s|seo\s|critical\s)?(?:errors|issues|problems|things)\b|\b\d{1,3}\s(?:technische\s)?fehler\s(?:gefunden|im\s)|\bzauwa[żz]y[łl]em\skilka\sb[łl][ęe]d[óo]w|\bcosting\syou\s(?:customers|clients|enquiries|sales|leads)|\blosing\syou\s(?:customers|clients|visitors|half)/u;

export function siteCritique(lowerProse: string): boolean {
  return CRITIQUE.test(lowerProse) || FOUND_FAULT.test(lowerProse);
}
