/** "a@x, b@y" → ["a@x", "b@y"]: templates render recipient lists as text. */
export function splitList(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
