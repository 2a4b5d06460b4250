// The stopword package ships no types; its English and French lists are used.
declare module 'stopword' {
  export const eng: string[];
  export const fra: string[];
}
