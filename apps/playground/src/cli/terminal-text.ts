/**
 * Escape sequences: CSI (`ESC [` … final byte), OSC/DCS/SOS/PM/APC strings (`ESC ]`, `ESC P`,
 * `ESC X`, `ESC ^`, `ESC _` … up to BEL or ST), and two-byte `ESC x` sequences; and their
 * eight-bit C1 forms (0x9B CSI, 0x9D OSC, 0x90 DCS, …).
 */
const escapeSequences =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[\x20-\x7e]?/g;

/** Every C0 control but tab and newline, DEL, and every C1 control. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Makes text from a server or a model safe to print: escape sequences (colours, cursor moves,
 * line erasing, window titles, OSC 52 clipboard writes) and control characters are removed,
 * tab and newline kept. A carriage return goes too, so nothing can overwrite a line already
 * printed, such as an approval question.
 */
export function toTerminalText(text: string): string {
  return text.replace(escapeSequences, "").replace(controls, "");
}
