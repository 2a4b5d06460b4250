// Issue 35's thirteenth round: build_pitch, an unasked offer to build the reader a website, an online shop or an app. The
// twelfth round left these pitches missed because what they sell is the site or the app itself, not more customers
// (growth_pitch) nor a fix for a fault found in the reader's site (site_critique): "We build responsive websites,
// e-commerce stores and mobile apps at very affordable rates", "Realizziamo siti professionali a prezzo fisso con consegna
// in due settimane", "wir entwickeln Apps für Handwerksbetriebe … Darf ich Ihnen ein kurzes Angebot zukommen lassen?",
// "ทางเรารับทำเว็บไซต์ใหม่ราคาประหยัด … เสร็จใน 7 วัน".
//
// Two things together: the sender says it builds sites, shops or apps (in the first person plural or singular, or a
// seller's word such as "รับทำ", "nhận làm", "承接", "制作を行って"), and the pitch's terms follow: a delivery time, a free
// draft, mock-up, demo or prototype, a low or fixed price, examples or a portfolio offered, or the pitch's ask for a reply
// (shape.ts). Its near-miss twins, pinned in test/spam-thirteenth-round.test.ts: a freelance developer who shows her own
// work on her own site ("mes réalisations sur …"), a studio that names its company number or who sent it (a referral),
// a customer who needs a site built in two weeks (the sender's own need), and a customer asking whether the owner builds
// shops (a question, no "we build").
//
// The words are those of the training and validation parts' web-design and app pitches and of the dictionaries of their
// languages. Matched on the lower-cased leading prose; every gap is a bounded run of one class, so matching stays linear
// (test/regex-audit.test.ts).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { asksForReply, proseShape, quotesPrice, shapeHead } from '../shape.ts';
import { unionOf } from '../pattern-union.ts';
import { OWN_NEED } from './growth-pitch.ts';

/** Alone enough under `standard` (its threshold is 0.95); in a short text it also flags under `intelligent`. */
export const BUILD_PITCH_WEIGHT = 0.95;

/** Up to four words between the verb and what is built ("we build responsive, fast websites"). */
const GAP = String.raw`(?:[\p{L}\p{M}'-]{1,20},?\s){0,4}`;

/** The sender builds sites, shops or apps. */
const BUILDS = new RegExp([
  String.raw`\b(?:we|i|team|studio|agency|designers|developers|engineers)\s(?:also\s|only\s|usually\s)?(?:build|create|design|develop|make|craft|redesign|rebuild|provide|builds|creates|designs|develops|makes)\s${GAP}(?:websites?|sites|web\s?apps?|apps|applications|mobile\sapps?|online\s(?:stores?|shops?)|e-?commerce|landing\spages?|shopify\sstores?|webshops?)\b`,
  String.raw`\b(?:i|we|designers|developers)\s(?:can|will|could)\s(?:\p{L}{1,12}\s)?(?:build|create|design|redesign|rebuild|develop|make|turn)\s(?:you\s)?${GAP}(?:websites?|site|app|online\sstore|store|shop)\b`,
  String.raw`\b(?:app|web|website|web\sdesign|software|mobile\sapp)\s(?:development|design|dev)\s(?:company|agency|studio|team|firm|services|shop)\b|\b(?:offer(?:ing)?|specialis(?:ed|ing)\sin|specializ(?:ed|ing)\sin)\s${GAP}(?:website|web|app|mobile\sapp)\s(?:development|design)\b|\bmobile\sapp\sstudio\b`,
  String.raw`\b(?:wir|ich|und)\s(?:erstellen|entwickeln|bauen|gestalten|programmieren|realisieren|erstelle|entwickle|baue|gestalte|programmiere)\s${GAP}(?:webseiten|websites?|webseite|seite|internetauftritte?|homepages?|apps?|onlineshops?|online-shops?|webshops?)\b`,
  String.raw`\b(?:nous|je|agence|[ée]quipe|studio)\s(?:cr[ée]ons|concevons|d[ée]veloppons|r[ée]alisons|fabriquons|cr[ée]e|con[çc]ois|con[çc]oit|d[ée]veloppe|r[ée]alise)\s${GAP}(?:sites?|applications?|apps?|boutiques?\sen\sligne|e-commerce)\b`,
  String.raw`(?<!\p{L})(?:creamos|dise[ñn]amos|redise[ñn]amos|desarrollamos|hacemos|rehacemos|programamos|realizziamo|creiamo|sviluppiamo|progettiamo|realizzo|criamos|desenvolvemos|fazemos|constru[íi]mos)\s${GAP}(?:p[áa]ginas?\sweb|webs?|sitios?|siti|sites?|site-uri|aplicaciones|aplicaci[óo]n|aplicativos?|applicazioni|apps?|tiendas?\s(?:online|virtuales?)|lojas?\s(?:virtuais|virtual|online)|negozi\sonline|e-?commerce)(?!\p{L})`,
  String.raw`\b(?:wij|we|ik|vi|jeg|jag)\s(?:bouwen|maken|ontwerpen|ontwikkelen|bouw|maak|ontwerp|bygger|skapar|designar|utvecklar|laver|udvikler|lager|utvikler)\s${GAP}(?:websites?|(?:\p{L}{1,12}-)?sites?|webshops?|apps?|appar|hemsidor|webbplatser|webbutiker|hjemmesider|nettsider|nettbutikker)\b`,
  String.raw`(?<!\p{L})(?:tworzymy|projektujemy|budujemy|wykonujemy|vytv[áa][řr][íi]me|vytvor[íi]me|vytvo[řr][íi]me|tvo[řr][íi]me|programujeme|realiz[ăa]m|cre[ăa]m|dezvolt[ăa]m|teemme|rakennamme|k[ée]sz[íi]t[üu]nk|fejleszt[üu]nk)\s${GAP}(?:stron\p{L}{0,3}|sklep\p{L}{0,3}|aplikac\p{L}{0,4}|web\p{L}{0,4}|str[áa]nk\p{L}{0,2}|e-shop\p{L}{0,2}|site-uri|magazine\sonline|aplica[țţt]ii|kotisivu\p{L}{0,4}|verkkosivu\p{L}{0,4}|sovellu\p{L}{0,4}|weboldal\p{L}{0,6}|honlap\p{L}{0,4}|alkalmaz[áa]s\p{L}{0,4})`,
  String.raw`(?<!\p{L})(?:web\s?sitesi|web\ssiteleri|mobil\suygulama|uygulama|site)\p{L}{0,4}\s(?:[\p{L}-]{1,15},?\s){0,3}(?:tasarl|yap[ıi]yoruz|geli[şs]tir|haz[ıi]rl)`,
  String.raw`(?<!\p{L})(?:созда[её]м|разрабатываем|делаем|создаю|разрабатываю|разработаем|создадим|сделаем|створюємо|розробляємо|робимо|φτιάχνουμε|δημιουργούμε|σχεδιάζουμε|κατασκευάζουμε|αναπτύσσουμε)\s${GAP}(?:сайт\p{L}{0,3}|интернет-магазин\p{L}{0,3}|приложени\p{L}{0,3}|лендинг\p{L}{0,3}|застосунк\p{L}{0,3}|додатк\p{L}{0,3}|ιστοσελίδ\p{L}{1,3}|e-shop|εφαρμογ\p{L}{1,3})`,
  String.raw`(?<!\p{L})(?:نصمم|نبني|نطور|ننشئ|نقوم\sب(?:تصميم|تطوير|إنشاء)|متخصص\p{L}{0,2}\sفي\s(?:تصميم|تطوير|إنشاء|برمجة)|בונים|מעצבים|מפתחים)\s?${GAP}(?:موقع|مواقع|تطبيق|متجر|متاجر|אתרים|אתר|אפליקציות|אפליקציה|חנויות)`,
  String.raw`(?:वेबसाइट|ऐप|ऐप्स|एप)\s(?:[\p{L}\p{M}]{1,12}\s){0,3}(?:बनाते|बनाता|बनाती|तैयार\sकर)`,
  String.raw`\b(?:kami|saya)\s(?:\p{L}{1,12}\s)?(?:membuat|membangun|mendesain|mengembangkan|bikin|buat|membina|mereka\sbentuk)\s${GAP}(?:website|situs|aplikasi|toko\sonline|laman\sweb|laman\s?web)\b|\bjasa\s(?:pembuatan|desain|bikin)\s(?:website|aplikasi|web|toko)`,
  String.raw`\bspecializzat[ao]\sin\s(?:siti|app|e-commerce)|\bespecializad[ao]s?\sen\s(?:p[áa]ginas|dise[ñn]o\sweb|desarrollo\sde\s(?:apps|aplicaciones|p[áa]ginas))|\bagencia\sde\s(?:dise[ñn]o\sweb|desarrollo\sde\s(?:apps|aplicaciones))|\brefonte\s(?:compl[èe]te|de\svotre\ssite)`,
  String.raw`(?:nh[ậa]n|chuy[êe]n)\s(?:thi[ếe]t\sk[ếe]|l[àa]m|l[ậa]p\str[ìi]nh|x[âa]y\sd[ựu]ng)\s(?:website|web|trang\sweb|app|[ứu]ng\sd[ụu]ng)`,
  String.raw`รับทำ(?:เว็บ|แอป|แอพ)|รับออกแบบเว็บ|รับพัฒนาแอ|(?:专业|定制|承接)\p{L}{0,6}(?:网站|app|小程序|应用)|(?:网站|app|小程序)(?:开发|建设|制作)(?:公司|服务)`,
  String.raw`(?:ホームページ|ウェブサイト|webサイト|サイト|アプリ)(?:の)?(?:制作|作成|開発|構築)を?(?:行って|承って|して|いたし|致し)|(?:홈페이지|웹사이트|앱|어플|쇼핑몰)\s?(?:을|를)?\s?(?:제작|개발)(?:합니다|해\s?드립니다|하고\s있|\s?전문)`,
].join('|'), 'u');

/**
 * What is built, as unanchored stems, asked first: most messages name no site, shop or app, and a pattern with no boundary
 * before its alternatives is scanned fast for their first letters. Then BUILDS as a union (pattern-union.ts), then BUILDS.
 */
const BUILT_THING = /site|web|app|shop|store|commerce|landing|internetauftritt|boutique|nettbutikk|magazine|verkkosivu|alkalmaz|магазин|лендинг|toko|refonte|seite|homepage|sitio|siti|loja|tienda|negozi|stron|sklep|aplika|aplica|applica|str[áa]nk|hemsid|hjemmesid|nettsid|honlap|kotisivu|sovellu|uygulama|сайт|приложен|застосун|додат|ιστοσελ|εφαρμογ|موقع|مواقع|تطبيق|متجر|متاجر|אתר|אפליקצ|חנויות|वेबसाइट|ऐप|एप|situs|ứng|เว็บ|แอป|แอพ|网站|小程序|应用|ホームページ|サイト|アプリ|홈페이지|웹사이트|앱|어플|쇼핑몰/u;
const BUILDS_ANY = unionOf([BUILDS]);

/** The pitch's terms: a delivery time, something free to see first, a low or fixed price, examples offered. */
const TERMS = new RegExp([
  String.raw`\b(?:in|within|in\sunder|under|en|innerhalb\svon|binnen|entro|em\saté|em|dentro\sde|w\sci[ąa]gu|w|от)\s(?:just\s|only\s|nur\s|seulement\s)?(?:one|two|three|four|a\sfew|zwei|drei|vier|deux|trois|quatre|dos|tres|cuatro|due|tre|quattro|duas|tr[êe]s|twee|drie|двух|трёх|трех)\s(?:working\s|business\s)?(?:days?|weeks?|tagen|wochen|jours|semaines|d[íi]as|semanas|giorni|settimane|dagen|weken|dni|tygodni|недел\p{L}{1,2})\b`,
  // A number of days or weeks (a delivery time), or hours: "in 7 days", "4-6 weeks", "7 gün içinde", "trong 7 ngày", "48h".
  String.raw`\d{1,2}\s?(?:days?|weeks?|tagen?|wochen|jours|semaines|d[íi]as|semanas|giorni|settimane|dagen|weken|dni|tygodni|zile|g[üu]n|hafta|hari|minggu|ng[àa]y|tu[ầa]n|napon|nap|dn[íiů]|dagar|veckor|dage|uger|p[äa]iv[äa]\p{L}{0,3})(?!\p{L})|\d{1,2}\s?(?:дн\p{L}{0,2}|недел\p{L}{0,2}|тиж\p{L}{0,3}|ημέρ\p{L}{1,2}|يوم|أيام|ימים|दिन|วัน|日|일|天)|\b\d{2}\s?h\b|(?<!\p{L})(?:minggu\sini|this\sweek)(?!\p{L})`,
  String.raw`\b(?:free|gratis|kostenlos\p{L}{0,2}|gratuit\p{L}{0,2}|sin\scoste|sin\scosto|senza\simpegno|sem\scusto|bezp[łl]atn\p{L}{1,2}|ingyenes|zdarma|[üu]cretsiz)\s(?:\p{L}{1,12}\s)?(?:mock-?ups?|drafts?|designs?|demo|prototype|quote|proposal|entwurf|vorschlag|demo|maquette|[ée]bauche|boceto|prototipo|bozza|proposta|orçamento|schets|projekt|l[áa]tv[áa]nyterv\p{L}{0,2}|n[áa]vrh)\b|\b(?:mock-?up|maquette|boceto|bozza|prototipo|entwurf|schets)\s(?:gratuit\p{L}{0,2}|gratis|kostenlos|sin\scoste|gratuita)\b`,
  String.raw`\b(?:affordable|low[-\s]cost|lower\scost|cheap|fixed\sprice|flat\sfee|festpreis|fix\s?preis|prix\sfixe|precio\scerrado|prezzo\sfisso|preço\sfixo|vaste\sprijs|fast\spris|fix\s[áa]ron|pre[țţt]\sfix|sabit\sfiyat|reasonable\s(?:price|rates?)|very\sreasonable|tarifs?\sabordables?|precios?\sasequibles?|prezzi\saccessibili|pre[çc]os?\sacess[íi]veis|geringe[mn]?\skosten|g[üu]nstig|faire[nm]?\spreise[n]?|unschlagbare[nm]?\spreise[n]?|discount|\d{1,2}\s?%\s(?:less|lower|cheaper)|rates?\s(?:start|from)|starting\sat|[àa]\spartir\sde|desde|a\spartire\sda|a\spartir\sde|vanaf|ab\s\d|mulai|atrakcyjn\p{L}{2,3}\scen\p{L}{1,2}|v[ýy]hodn\p{L}{1,3}\scen\p{L}{1,2}|pre[țţt]uri\smici|pago\s[úu]nico|pagamento\sparcelado|quote|quotation|estimate|devis|presupuesto|preventivo|or[çc]amento|angebot|offerte|wycen\p{L}{1,2}|cenov\p{L}{1,3}\sponuk\p{L}{1,2}|fiyat\steklifi)\b|(?<!\p{L})(?:ราคาประหยัด|ราคาถูก|giá\srẻ|低价|价格优惠|格安|저렴|합리적인\s가격|цены\sниже|смет\p{L}{1,2}|под\sключ|החל\sמ|הצעת?\sמחיר|אשמח\sלשלוח)`,
  String.raw`\b(?:portfolio|portofolio|examples?|samples?|case\sstud(?:y|ies)|before\/after|our\s(?:recent\s)?work|referenzen|beispiele|r[ée]f[ée]rences|r[ée]alisations|exemples|realizaciones|ejemplos|realizzazioni|esempi|portf[óo]lio|exemplos|voorbeeld(?:en)?|referencj\p{L}{1,3}|realizacj\p{L}{1,3}|przyk[łl]ad\p{L}{0,3}|referenci\p{L}{1,3}|uk[áa][žz]k\p{L}{1,2}|exemple|p[ée]ld[áa]\p{L}{0,3}|[öo]rnek\p{L}{0,8})\b|(?<!\p{L})(?:डेमो|демо|портфолио|案例|事例|포트폴리오|ผลงาน|mẫu\sgiao\sdiện|contoh\s(?:aplikasi|website))`,
].join('|'), 'u');

/** Besides growth_pitch's OWN_NEED, a customer looking for someone to build it: "looking for a developer", "suchen einen Webdesigner". */
const LOOKING_FOR = /\b(?:looking\sfor\s(?:a|an|someone)|suchen\s(?:eine[nm]?|jemanden))\b/u;

/** The sender's own work shown on a site ("mes réalisations sur hugo-dev.fr", "my portfolio is at …"): a freelancer introducing themselves. */
const OWN_WORK = /\b(?:my|mes|mis|meine|miei|meus|minhas|mijn)\s(?:\p{L}{1,12}\s)?(?:portfolio|work|r[ée]alisations|trabajos|arbeiten|lavori|trabalhos|projekte|projets|werk)\s(?:is\s|are\s|sont\s|est\s|sind\s|son\s|sono\s|est[ãa]o\s|zijn\s)?(?:on|at|sur|en|auf|su|em|op|:)\s/u;

export function buildPitchSignal(text: SubmissionText): SignalHit | null {
  const prose = text.leadingProse;
  if (!BUILT_THING.test(prose) || !BUILDS_ANY.test(prose)) return null;
  const built = BUILDS.exec(prose);
  if (!built) return null;
  const head = shapeHead(text.view.lowerWritten);
  if (!TERMS.test(prose) && !asksForReply(head) && !quotesPrice(head)) return null;
  if (OWN_NEED.test(prose) || LOOKING_FOR.test(prose) || OWN_WORK.test(prose)) return null;
  const { shape } = proseShape(text);
  if (shape.has('h:referral') || shape.has('h:identity')) return null;
  return { id: 'build_pitch', weight: BUILD_PITCH_WEIGHT, detail: `an unasked offer to build you a site or an app ("${built[0].trim().slice(0, 50)}") on a pitch's terms` };
}
