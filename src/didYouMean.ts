import { closest, distance } from "fastest-levenshtein";

/**
 * The suffix of a one-line usage error that suggests the closest known name: `; did you mean 'x'?`,
 * or "" when nothing is close enough to be a likely typo (edit distance above a third of the longer
 * name, at least 2), so a guess is never offered at random.
 * @example
 * didYouMean("atomc", ["atomic", "composite", "all"]); // "; did you mean 'atomic'?"
 */
export function didYouMean(input: string, known: readonly string[]): string {
  if (known.length === 0 || input.length === 0) return "";
  const guess = closest(input, [...known]);
  const d = distance(input.toLowerCase(), guess.toLowerCase());
  return d <= Math.max(2, Math.floor(Math.max(input.length, guess.length) / 3))
    ? `; did you mean '${guess}'?`
    : "";
}
