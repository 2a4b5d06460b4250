// Issue 35's twelfth round: growth_pitch, the structure of an unsolicited offer about the reader's own business. The
// sender promises the reader more customers, sales, leads or bookings ("we help companies like yours get 20 new clients a
// month", "deutlich mehr Anfragen", "portarvi più clienti", "更多客户") and asks for a call, a meeting or a reply to the
// pitch ("a quick 15-minute call?", "Hätten Sie Zeit für ein kurzes Gespräch?", "¿Le parece bien una llamada?"). The
// eleventh held-out set's outreach pitches, in twelve languages, carried no trade phrase and named no fault in the
// reader's site, so neither `spam_phrases` nor `site_critique` saw them; what they share is this shape.
//
// Its near-miss twins: a supplier offering goods of its own trade and asking to drop by (no growth promised to the
// reader), a student asking for twenty minutes (the same ask, no promise), a freelancer "looking for new clients" (the
// sender's own growth, not the reader's), and a customer who wants more customers and asks the owner, an agency, to call
// ("we'd like more bookings, could you call us?": the sender's own need). Each is pinned in test/spam-twelfth-round.test.ts.
//
// The words are the dictionary words for customers, clients, sales, leads, bookings and enquiries, for "more" and "new",
// and for a call, a talk, a meeting or a consultation, in the languages of the training and validation parts (33 of
// them; not Bengali or Persian, which those parts do not hold). A time-boxed talk ("15 minutes", "10 min", "15分") is read
// in the same languages' words for a minute. Matched on the lower-cased leading prose; every gap is a bounded run of one
// class, so matching stays linear (test/regex-audit.test.ts).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { asksForReply, proseShape, shapeHead } from '../shape.ts';

/** Alone enough under `standard` (its threshold is 0.95), and, in a short text, under `intelligent` (classifier-verdict.ts). */
export const GROWTH_PITCH_WEIGHT = 0.95;

/** The reader's gain: more or new customers, clients, sales, leads, bookings, enquiries; sales raised or doubled. */
const GROWTH = new RegExp([
  String.raw`\b(?:(?:\d{1,4}\+?(?:\s?[-–]\s?\d{1,4})?\s)?(?:more|new|extra|additional|qualified)|\d{1,4}\s?[-–]\s?\d{1,4})\s(?:new\s|qualified\s|extra\s|paying\s|local\s|high-quality\s){0,2}(?:customers|clients|leads|bookings|appointments|enquiries|inquiries|patients|sales|orders)\b`,
  String.raw`\b(?:double|triple|increase|boost|grow|scale)\s(?:your|their)\s(?:sales|revenue|bookings|leads|enquiries|inquiries|customers|clients|business|traffic|turnover|profits?)\b`,
  String.raw`\b(?:mehr|neue|zus[äa]tzliche)\s(?:\p{L}{1,15}\s)?(?:kunden|kundschaft|anfragen|auftr[äa]ge|termine|buchungen|patienten|umsatz)\b`,
  String.raw`\b(?:plus\sde|davantage\sde|nouveaux|nouvelles)\s(?:clients|demandes|rendez-vous|r[ée]servations|ventes|patients|prospects)\b|\bdoubler\s\p{L}{2,6}\s(?:demandes|ventes|clients|r[ée]servations|chiffre)`,
  String.raw`\b(?:m[áa]s|nuevos)\s(?:clientes|reservas|ventas|pacientes|citas|pedidos)\b|\bclientes\snuevos\b|\baumentar\s(?:sus|tus|las)\s(?:ventas|reservas)`,
  String.raw`\b(?:pi[ùu]|nuovi)\s(?:clienti|prenotazioni|vendite|richieste|pazienti)\b|\baumentare\s(?:le\s)?(?:vendite|visite|richieste|prenotazioni)\b`,
  String.raw`\b(?:mais|novos)\s(?:clientes|vendas|reservas|pedidos|pacientes)\b`,
  String.raw`\b(?:meer|nieuwe)\s(?:klanten|aanvragen|boekingen|omzet|klantaanvragen)\b`,
  String.raw`\b(?:fler|nya|flere|nye)\s(?:kunder|bokningar|f[öo]rfr[åa]gningar|bookinger|henvendelser|oppdrag)\b|\b(?:lis[äa][äa]|uusia)\sasiakkaita\b`,
  String.raw`\b(?:wi[ęe]cej|nowych|nowe)\s(?:klient[óo]w|zlece[ńn]|zapyta[ńn]|rezerwacji|zam[óo]wie[ńn]|pacjent[óo]w)|\b(?:v[íi]ce|v[íi]c|nov[ée]|nov[ýy]ch)\s(?:z[áa]kazn[íi]k\p{L}{0,3}|klient\p{L}{0,3}|popt[áa]v\p{L}{0,3})`,
  String.raw`(?<!\p{L})(?:t[öo]bb|[úu]j)\s(?:[üu]gyfel\p{L}{0,4}|v[áa]s[áa]rl[óo]\p{L}{0,3}|megrendel\p{L}{0,4})|\bmai\smul[țţt]i\sclien[țţt]i|\bclien[țţt]i\snoi\b|\b(?:vi[šs]e|novih)\s(?:kupaca|klijenata|upita)\b`,
  String.raw`\b(?:daha\sfazla|yeni)\sm[üu][şs]teri|\bsat[ıi][şs]lar[ıi]n[ıi]z[ıi]\sart[ıi]r`,
  String.raw`\b(?:lebih\s(?:banyak|ramai)|menambah)\spelanggan\b|\bpelanggan\sbaru\b|\bmeningkatkan\spenjualan\b|\b(?:mas\smaraming|bagong)\s(?:customer|kliyente)|\bwateja\s(?:wengi|wapya)\b`,
  String.raw`(?<!\p{L})(?:больше|новых|новые|більше|нових|нові)\s(?:клиент\p{L}{0,3}|заяв\p{L}{0,3}|продаж\p{L}{0,2}|покупател\p{L}{0,3}|клієнт\p{L}{0,3}|замовлен\p{L}{0,3})|(?<!\p{L})(?:увелич|збільш)\p{L}{0,6}\s(?:ваш\p{L}{0,2}\s)?(?:продаж|прибыл|выручк|прибут)`,
  String.raw`(?<!\p{L})(?:περισσότερ|νέ)\p{L}{1,3}\sπελάτ|(?<!\p{L})(?:المزيد\sمن\s(?:العملاء|الزبائن)|عملاء\sجدد|زيادة\s(?:مبيعات|المبيعات))|(?<!\p{L})(?:לקוחות\sחדשים|יותר\sלקוחות|להגדיל\s(?:את\s)?(?:ה)?מכירות|(?:ה)?לידים)`,
  String.raw`(?<!\p{L})(?:(?:ज़्यादा|ज्यादा|अधिक|नए)\sग्राहक|बिक्री\s(?:बढ़|दोगुनी)|(?:زیادہ|نئے)\s(?:گاہک|کسٹمر))`,
  String.raw`(?:thêm|tăng)\s(?:khách\shàng|đơn\shàng|đơn|doanh\s(?:số|thu))|ลูกค้าเพิ่ม|เพิ่มยอดขาย|ยอดขายเพิ่ม|ลูกค้าใหม่|更多(?:的)?客户|新客户|客户询盘|提升销量|增加销量|获客|集客|売上(?:アップ|向上|を伸ば)|新規(?:顧客|客)|매출|신규\s?고객|고객\s?유치`,
].join('|'), 'u');

/** A talk asked for: a call, a chat, a meeting, a consultation, or a talk of so many minutes. */
const TALK = new RegExp([
  String.raw`\d{1,2}\s?[-–]?\s?(?:mins?\b|minute|minuten|minutes|minutos|minuti|minut\p{L}{0,2}|minuter|minutter|minuutti\p{L}{0,3}|perc|dakika\p{L}{0,3}|минут\p{L}{0,2}|хвилин\p{L}{0,2}|λεπτ\p{L}{0,3}|دقيق\p{L}{0,2}|דקות|मिनट|منٹ|menit|minit|ph[úu]t|นาที|分|분)`,
  String.raw`\b(?:quick|short|brief|discovery|free|intro|15-minute|10-minute)\s(?:call|chat|zoom|meeting|consultation)\b|\b(?:hop|jump)\son\sa\s(?:quick\s)?call\b|\b(?:can|may|could|shall)\s(?:i|we)\s(?:call|ring|schedule|book|set\sup|arrange)\b|\b(?:worth|up\sfor|open\sto)\sa\s(?:quick\s)?(?:chat|call|conversation)\b|\blet's\s(?:talk|chat)\b`,
  String.raw`\b(?:kurz\p{L}{0,2}|unverbindlich\p{L}{0,2}|kostenlos\p{L}{0,2})\s(?:gespr[äa]ch|telefonat|erstgespr[äa]ch|kennenlernen|austausch)\b|\bdarf\sich\ssie\sanrufen\b|\bwann\spasst\sihnen\b`,
  String.raw`\b(?:un\s(?:court\s|bref\s|petit\s)?(?:[ée]change|appel))\b|\b(?:puis-je|pourrais-je)\svous\sappeler\b|\bje\svous\sappelle\b`,
  String.raw`\b(?:llamada|reuni[óo]n|videollamada)\b|\b(?:puedo|podemos)\s(?:llamarle|llamarte|llamarles|hablar)\b|\ble\sllamo\b|\bchiamata\b|\btelefonata\b|\b(?:posso|possiamo)\s(?:chiamarvi|chiamarti|chiamarla|sentirci)\b|\bne\sparliamo\b`,
  String.raw`\b(?:liga[çc][ãa]o|reuni[ãa]o|chamada)\b|\b(?:posso|podemos)\s(?:te\sligar|ligar|conversar)\b`,
  String.raw`\b(?:kort\p{L}{0,2}\s)?(?:gesprek|adviesgesprek|kennismakingsgesprek|belletje)\b|\beven\s(?:kort\s)?bellen\b|\b(?:kort\p{L}{0,2}\s)?samtal\b|\bringa\s(?:dig|er)\b|\b(?:kort\s)?(?:snak|samtale|prat)\b|\bringe\s(?:dig|jer|deg|dere)\b|\bsoittaa\b|\bpuhelu\p{L}{0,3}`,
  String.raw`\b(?:kr[óo]tk\p{L}{1,3}\s)?rozmow\p{L}{1,2}|\bzadzwoni[ćc]|\bspotkani\p{L}{1,2}|\bzavolat\b|\bhovor\p{L}{0,2}|\bsch[ůu]zk\p{L}{1,2}|\bbesz[ée]lget[ée]s\p{L}{0,3}|\bfelh[íi]vhatom\b|\bdiscu[țţt]ie\b|\bconvorbire\b|\bs[ăa]\sv[ăa]\ssun\b|\bv[ăa]\spot\ssuna\b|\b(?:poziv|razgovor|sastanak)\b`,
  String.raw`\bg[öo]r[üu][şs]me\p{L}{0,3}|\bsunum\p{L}{0,3}|\btoplant[ıi]\p{L}{0,3}|\b(?:ngobrol|berbincang|konsultasi|panggilan)\b|\b(?:tawag|usap)\b|\bkukupigia\ssimu\b|\bmazungumzo\b`,
  // Arabic joins "for" and "with" to the noun ("لمكالمة قصيرة", a short call), so the word has a letter before it (thirteenth round).
  String.raw`(?<!\p{L})(?:созвон\p{L}{0,3}|звонок|позвонить|зателефонувати|дзвін\p{L}{0,3}|встреч\p{L}{1,2}|зустріч\p{L}{0,2}|τηλεφων\p{L}{1,6}|συνάντηση|κλήση|مكالمة|اتصال|اجتماع|שיחה|פגישה|לתאם|कॉल|मीटिंग|کال|ملاقات)|(?<!\p{L})[لب](?:مكالمة|اجتماع)`,
  String.raw`(?:gọi\s(?:cho|điện)|tư\svấn|trao\sđổi)|โทร|คุย|ปรึกษา|电话|沟通|洽谈|お話し|打ち合わせ|ご相談|面談|お電話|통화|상담|미팅`,
  // A reply to the pitch asked for in other words than shape.ts's: "Reply and I'll show you how", "Responda a este mensaje",
  // "Interesse? Bel 085 …" (the training and validation parts' pitches that said so).
  String.raw`\breply\s(?:and|to\sthis|with|for)\b|\brespond[ae]\sa\seste\smensaje\b|\bantwoord\sop\sdit\sbericht\b|\binteresse\?|\b(?:call|bel|ring)\s(?:us\s)?(?:on\s|at\s)?\+?\d`,
].join('|'), 'u');

/** The sender's own need: a customer who wants more customers asks the owner, an agency, for what it sells (also read by build_pitch and rank_promise). */
export const OWN_NEED = /\b(?:i(?:'d|\swould)\slike|we(?:'d|\swould)\slike|i\s(?:need|want)|we\s(?:need|want)|ich\s(?:m[öo]chte|h[äa]tte\sgern|brauche)|wir\s(?:m[öo]chten|brauchen)|je\s(?:voudrais|souhaite)|nous\s(?:voudrions|souhaitons)|quiero|queremos|necesito|necesitamos|vorrei|vorremmo|gostaria|gostar[íi]amos|preciso|precisamos|ik\swil|wij\swillen|chcia[łl](?:a|by)m)\b/u;
/** The sender's own growth ("looking for new clients"): a freelancer or supplier introducing itself, not a promise to the reader. */
const SEEKING = /\b(?:looking\sfor|seeking|searching\sfor|suche[n]?|buscando|buscamos|busco|cherch(?:e|ons|ant)|cerc(?:o|hiamo|ando)|procur(?:o|amos|ando)|zoek(?:en)?|s[öo]ker|leter\setter|szukam(?:y)?|hled[áa]m(?:e)?|keres(?:ek|[üu]nk)|caut|ar[ıi]yoruz|mencari)\s(?:\p{L}{1,15}\s){0,2}(?:new\s|neue\s|nuevos\s|nouveaux\s|nuovi\s|novos\s|nieuwe\s|nya\s|nowych\s)?(?:customers|clients|kunden|clientes|clients|clienti|klanten|kunder|klient[óo]w|z[áa]kazn[íi]ky|[üu]gyfeleket|clien[țţt]i|m[üu][şs]teri|pelanggan)/u;

/** "10 % off for new customers", "für Neukunden": the sender's own offer to a class of buyers, not growth promised to the reader. */
const FOR_BUYERS = /(?:\bfor|\bf[üu]r|\bpara|\bpour(?:\sles)?|\baux|\bper(?:\si)?|\bvoor|\bf[öo]r|\bdla|\bpro)\s$/u;

export function growthPitchSignal(text: SubmissionText): SignalHit | null {
  const found = GROWTH.exec(text.leadingProse);
  if (!found || FOR_BUYERS.test(text.leadingProse.slice(Math.max(0, found.index - 12), found.index))) return null;
  const head = shapeHead(text.view.lowerWritten);
  if (!TALK.test(text.leadingProse) && !asksForReply(head)) return null;
  if (OWN_NEED.test(text.leadingProse) || SEEKING.test(text.leadingProse) || proseShape(text).shape.has('h:referral')) return null;
  return { id: 'growth_pitch', weight: GROWTH_PITCH_WEIGHT, detail: `an unasked offer of more business for you ("${found[0].trim().slice(0, 50)}") with a call or a reply asked for` };
}
