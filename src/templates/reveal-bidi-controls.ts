/**
 * Bidirectional formatting characters: embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069) and
 * the implicit marks (U+200E, U+200F, U+061C). Invisible, they reorder the text around them, so a file named
 * `"\u202Egnp.exe"` reads as `exe.png` ("Trojan Source": https://trojansource.codes/, Unicode's UAX #9).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * Text from an event made safe to read: each bidi control becomes a visible marker such as `⟨U+202E⟩`, so
 * what a person reads is the characters in their stored order. Used by the console and by the chat escaping;
 * the marker holds no character that Slack or Markdown treat specially.
 */
export function revealBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
