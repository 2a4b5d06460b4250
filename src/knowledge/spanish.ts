// Spanish, compared in its own terms (languages.ts) since issue 36's tenth round: the stop words of
// npm `stopword` (a short list) with the function words it lacks, what Spanish askers wrap a question
// in, a light stemmer and the Spanish words for what the English synonym terms name. Accents are
// folded first ("cuánto", "abrís", "sábado" as "cuanto", "abris", "sabado"), as people type without them.
import { spa } from './stop-lists.ts';
import { endingStemmer, fold } from './fold.ts';

/** Function words the list lacks (forms of "ser", "estar", "tener", "haber", "hacer", "poder"), greetings, thanks and framing. */
const FILLER = [
  'es', 'son', 'era', 'ser', 'soy', 'sois', 'esta', 'estan', 'estais', 'estar', 'estoy', 'estamos', 'hay', 'haber', 'ha', 'han', 'he',
  'tengo', 'tiene', 'tienen', 'teneis', 'tenemos', 'tener', 'hace', 'hacen', 'haceis', 'hacer', 'hago', 'puedo', 'puede', 'pueden', 'podeis', 'podemos', 'poder',
  'os', 'vosotros', 'nuestro', 'nuestra', 'nuestros', 'nuestras', 'mio', 'mia', 'vuestro', 'vuestra', 'vuestros', 'vuestras', 'usted', 'ustedes', 'les', 'algo', 'algun', 'alguno', 'alguna', 'cual', 'cuales', 'quien',
  'cuanto', 'cuanta', 'cuantos', 'cuantas', 'como', 'donde', 'cuando', 'si', 'vale', 'ok', 'pues', 'entonces', 'tambien', 'aqui', 'alli', 'ahi', 'tan', 'todo', 'toda', 'todos', 'todas',
  'hola', 'buenas', 'gracias', 'saludos', 'saludo', 'favor', 'porfa', 'queria', 'quisiera', 'saber', 'preguntar', 'pregunta', 'duda', 'info', 'informacion',
  'q', 'k', 'xq', 'pq', 'tb', 'tmb', 'x', 'directamente', 'exactamente', 'posible',
];
export const SPANISH_STOP: ReadonlySet<string> = new Set([...spa, ...FILLER].map(fold));

/**
 * Endings cut from a folded Spanish word, longest first, while the stem keeps at least three
 * letters ("reservas", "reservar" → "reserv"; "cuesta", "cuestan" → "cuest"; "abris", "abren" → "abr").
 */
const ENDINGS = [
  'aciones', 'acion', 'amientos', 'amiento', 'imientos', 'imiento', 'mente', 'amos', 'emos', 'imos', 'ando', 'iendo', 'ados', 'adas', 'idos', 'idas',
  'ado', 'ada', 'ido', 'ida', 'ais', 'eis', 'ar', 'er', 'ir', 'an', 'en', 'as', 'es', 'os', 'is', 'a', 'e', 'o', 's',
];
export const spanishStem = endingStemmer(ENDINGS);

/** Spanish words for what the English synonym terms name (synonyms.ts): a price, payment, hours, opening, booking, a child, free. */
export const SPANISH_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ...['precio', 'precios', 'coste', 'costo', 'cuesta', 'cuestan', 'tarifa', 'tarifas', 'caro', 'cara', 'cobrar', 'cobrais', 'cobran', 'cobra'].map((w) => [spanishStem(w), 'price'] as const),
  ...['pagar', 'pago', 'pagos', 'paga'].map((w) => [spanishStem(w), 'pay'] as const),
  ...['horario', 'horarios', 'hora', 'horas'].map((w) => [spanishStem(w), 'hour'] as const),
  ...['abierto', 'abiertos', 'abierta', 'abris', 'abren', 'abre', 'abrir', 'apertura', 'cerrado', 'cerrados', 'cerrais', 'cierran', 'cierra', 'cerrar', 'cierre'].map((w) => [spanishStem(w), 'open'] as const),
  ...['reservar', 'reserva', 'reservas', 'cita', 'citas'].map((w) => [spanishStem(w), 'book'] as const),
  ...['nino', 'ninos', 'nina', 'ninas', 'hijo', 'hija', 'hijos'].map((w) => [spanishStem(w), 'child'] as const),
  ...['gratis', 'gratuito', 'gratuita', 'gratuitos'].map((w) => [spanishStem(w), 'free'] as const),
  ...['direccion'].map((w) => [spanishStem(w), 'address'] as const),
  // "un corte de mujer" is the lady's cut of a price list under "Señora"; "de hombre", "Caballero" (eleventh round). A kilo.
  ...['mujer', 'mujeres', 'senora', 'senoras', 'dama', 'damas'].map((w) => [spanishStem(w), 'woman'] as const),
  ...['hombre', 'hombres', 'caballero', 'caballeros'].map((w) => [spanishStem(w), 'man'] as const),
  ...['kilo', 'kilos', 'kg'].map((w) => [spanishStem(w), 'kilo'] as const),
  ...['tarjeta', 'tarjetas', 'datafono', 'contactless'].map((w) => [spanishStem(w), 'card'] as const),
]);
