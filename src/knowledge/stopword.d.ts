// The stopword package ships no types; its English, French and German lists are used.
declare module 'stopword' {
  export const eng: string[];
  export const fra: string[];
  export const deu: string[];
}
