// snowball-stemmers and stopword ship no types; this declares only what server/nlp uses.
declare module 'snowball-stemmers' {
  interface Stemmer {
    stem(word: string): string;
  }
  const snowball: { newStemmer(language: string): Stemmer; algorithms(): string[] };
  export default snowball;
}

declare module 'stopword' {
  const lists: Record<string, readonly string[]>;
  export default lists;
}
