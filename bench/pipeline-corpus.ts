// Varied contact-form submissions for the pipeline benchmark, always the same for a given seed:
// enquiries in ten languages, of one to four sentences; about one in six spam (SEO and crypto
// pitches, shortened and bare-IP links, capitals, throwaway addresses); a few one-word notes too
// short for language detection; and some senders who send the same thing again.
import { mulberry32 } from '../scripts/spam-training.ts';

const ENQUIRIES: Record<string, { subjects: string[]; sentences: string[] }> = {
  en: {
    subjects: ['Question about your services', 'Opening hours', 'Booking request', 'Invoice question'],
    sentences: [
      'I would like to know more about your services and the pricing for a small team.',
      'Could you tell me whether you are open on Saturday mornings?',
      'We are planning a workshop for twelve people in the spring and are looking for a venue.',
      'My order arrived yesterday, but one of the parts was missing from the box.',
      'Is there a trial period before we have to commit to a yearly plan?',
      'Please call me back when you have a moment, I am usually free after four.',
    ],
  },
  de: {
    subjects: ['Frage zu Ihrem Angebot', 'Terminanfrage', 'Rechnung'],
    sentences: [
      'Ich interessiere mich für Ihr Angebot und hätte gerne weitere Informationen zu den Preisen.',
      'Können Sie mir sagen, ob die Lieferung auch nach Österreich möglich ist?',
      'Wir möchten im Herbst eine Veranstaltung für etwa zwanzig Personen planen.',
      'Leider ist meine Bestellung noch nicht angekommen, obwohl sie schon vor zwei Wochen verschickt wurde.',
      'Bitte rufen Sie mich zurück, ich bin vormittags am besten erreichbar.',
    ],
  },
  fr: {
    subjects: ['Demande de renseignements', 'Réservation', 'Question sur ma commande'],
    sentences: [
      "Je souhaiterais obtenir plus d'informations sur vos tarifs pour une petite association.",
      'Pourriez-vous me dire si vous livrez également en Belgique et en Suisse ?',
      'Nous aimerions réserver une salle pour une réunion de famille au mois de juin.',
      "Ma commande est arrivée hier mais l'un des articles était abîmé.",
      'Merci de me rappeler dès que possible, je suis disponible tous les après-midis.',
    ],
  },
  es: {
    subjects: ['Consulta sobre precios', 'Reserva', 'Pregunta'],
    sentences: [
      'Me gustaría recibir más información sobre sus servicios y los precios para empresas pequeñas.',
      '¿Podrían decirme si hacen envíos a Canarias y cuánto tarda la entrega?',
      'Estamos organizando una cena para quince personas y queríamos saber si tienen disponibilidad.',
      'El pedido llegó ayer pero faltaba una de las piezas en la caja.',
      'Por favor, llámenme cuando puedan, normalmente estoy libre por las tardes.',
    ],
  },
  it: {
    subjects: ['Richiesta informazioni', 'Prenotazione'],
    sentences: [
      'Vorrei avere maggiori informazioni sui vostri servizi e sui prezzi per una piccola azienda.',
      'Potreste dirmi se effettuate spedizioni anche in Sicilia e in Sardegna?',
      'Stiamo organizzando un incontro per venti persone e cerchiamo una sala disponibile a settembre.',
      "Il mio ordine è arrivato ieri, ma mancava uno degli articoli nella scatola.",
    ],
  },
  pt: {
    subjects: ['Pedido de informação', 'Marcação'],
    sentences: [
      'Gostaria de receber mais informações sobre os vossos serviços e os preços para uma equipa pequena.',
      'Podem dizer-me se fazem entregas nos Açores e quanto tempo demora?',
      'Estamos a organizar um jantar para dezoito pessoas e queríamos saber se têm disponibilidade.',
      'A minha encomenda chegou ontem, mas faltava uma das peças na caixa.',
    ],
  },
  nl: {
    subjects: ['Vraag over uw diensten', 'Afspraak'],
    sentences: [
      'Ik zou graag meer informatie ontvangen over uw diensten en de prijzen voor een klein team.',
      'Kunt u mij vertellen of u ook naar België levert en hoe lang dat duurt?',
      'Wij willen in het voorjaar een workshop organiseren voor ongeveer twaalf mensen.',
      'Mijn bestelling is gisteren aangekomen, maar er ontbrak een onderdeel in de doos.',
    ],
  },
  pl: {
    subjects: ['Zapytanie ofertowe', 'Rezerwacja'],
    sentences: [
      'Chciałbym otrzymać więcej informacji na temat Państwa usług oraz cennika dla małej firmy.',
      'Czy mogliby Państwo powiedzieć, czy wysyłają zamówienia również do Niemiec?',
      'Planujemy spotkanie dla dwudziestu osób i szukamy wolnej sali na początku maja.',
      'Moje zamówienie dotarło wczoraj, ale w paczce brakowało jednej części.',
    ],
  },
  ru: {
    subjects: ['Вопрос о ваших услугах', 'Бронирование'],
    sentences: [
      'Я хотел бы узнать больше о ваших услугах и ценах для небольшой команды.',
      'Подскажите, пожалуйста, осуществляете ли вы доставку в другие города?',
      'Мы планируем встречу на двадцать человек и ищем свободный зал в мае.',
      'Мой заказ пришёл вчера, но в коробке не хватало одной детали.',
    ],
  },
  ja: {
    subjects: ['サービスについての質問', '予約について'],
    sentences: [
      '小規模なチーム向けのサービス内容と料金について詳しく教えていただけますか。',
      '土曜日の午前中も営業していますか。',
      '来月、二十人ほどの勉強会を開きたいと考えており、会場を探しています。',
      '昨日注文した商品が届きましたが、部品がひとつ足りませんでした。',
    ],
  },
};

const SPAM = [
  'Dear website owner, we offer SEO services that will put you on the first page of Google. Guaranteed results, click here: https://bit.ly/3seo{n}',
  'Boost your website traffic with 500 high quality backlinks and guest posts! Order now at http://203.0.113.{n}/offer',
  'Earn passive income with our bitcoin trading platform, investors see returns of 40% every month. https://crypto-profit.example/r/{n}',
  'CONGRATULATIONS YOU HAVE BEEN SELECTED!!! CLAIM YOUR PRIZE TODAY AT HTTPS://WIN.EXAMPLE/{n} BEFORE IT EXPIRES!!!',
  'Cheapest online pharmacy, best prices and discount on every order. https://tinyurl.com/pharm{n} https://tinyurl.com/pharm{n}b https://tinyurl.com/pharm{n}c',
  'We are a web design company and can redesign your website, mobile-friendly website with a free quote, no obligation. <a href="https://webdesign.example/{n}">see our work</a>',
];

const SHORT = ['Thanks!', 'ok', 'Call me', '+1 555 0100', 'https://example.org'];
const FIRST = ['Ada', 'Jonas', 'Chloé', 'Lucía', 'Giulia', 'João', 'Sanne', 'Zofia', 'Ivan', 'Yuki', 'Sam', 'Noor'];
const LAST = ['Lovelace', 'Müller', 'Dubois', 'García', 'Rossi', 'Silva', 'de Vries', 'Nowak', 'Petrov', 'Tanaka', 'Okafor'];
const THROWAWAY = ['mailinator.com', 'guerrillamail.com', '10minutemail.com'];

export interface GeneratedSubmission {
  data: { name: string; email: string; subject: string; message: string };
  ip: string;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** `count` submissions: 80 % enquiries, 15 % spam, 5 % too short to tell; one in 25 repeats an earlier one. */
export function generateSubmissions(count: number, seed = 1): GeneratedSubmission[] {
  const random = mulberry32(seed);
  const languages = Object.keys(ENQUIRIES);
  const out: GeneratedSubmission[] = [];
  for (let i = 0; i < count; i++) {
    const earlier = out[Math.floor(random() * out.length)];
    if (earlier && random() < 0.04) {
      out.push({ data: { ...earlier.data }, ip: earlier.ip });
      continue;
    }
    const name = `${pick(random, FIRST)} ${pick(random, LAST)}`;
    const ip = `198.51.100.${Math.floor(random() * 254) + 1}`;
    const kind = random();
    let email = `${name.toLowerCase().normalize('NFD').replace(/[^a-z]+/g, '.')}${i}@example.com`;
    let subject: string;
    let message: string;
    if (kind < 0.15) {
      subject = 'Business proposal';
      message = pick(random, SPAM).replaceAll('{n}', String(i % 250));
      if (random() < 0.5) email = `offers${i}@${pick(random, THROWAWAY)}`;
    } else if (kind < 0.2) {
      subject = 'Hello';
      message = pick(random, SHORT);
    } else {
      const language = ENQUIRIES[pick(random, languages)] as { subjects: string[]; sentences: string[] };
      subject = pick(random, language.subjects);
      const sentences = 1 + Math.floor(random() * 4);
      message = Array.from({ length: sentences }, () => pick(random, language.sentences)).join(' ');
    }
    out.push({ data: { name, email, subject, message }, ip });
  }
  return out;
}
