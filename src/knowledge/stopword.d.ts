// The stopword package ships no types; its English, French, German, Italian and Spanish lists are used.
declare module 'stopword' {
  export const eng: string[];
  export const fra: string[];
  export const deu: string[];
  export const ita: string[];
  export const spa: string[];
}
