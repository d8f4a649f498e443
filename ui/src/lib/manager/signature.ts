// Who vouches for a bundle or a catalog entry, in the host's words
// ("signed by zot", "signed by NAME", "signed by an unknown key",
// "unsigned"): the install summary and the catalog's detail pane show them
// the same way.

/** Whether nobody the user trusts vouches for it: unsigned, or signed by an unknown key. */
export function unverified(words: string): boolean {
  return !words.startsWith("signed by ") || words === "signed by an unknown key";
}

/** The words as a sentence: "Signed by zot." */
export function signatureSentence(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1) + ".";
}
