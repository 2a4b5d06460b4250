// The stopword package ships no types; only its English list is used.
declare module 'stopword' {
  export const eng: string[];
}
