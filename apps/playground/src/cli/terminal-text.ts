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
 * Invisible format characters: bidi overrides, embeddings and isolates (U+202A–U+202E,
 * U+2066–U+2069), zero-width characters, the byte order mark and the rest of Unicode's `Cf`
 * category, and the line and paragraph separators. They make what a terminal shows differ from
 * what a person copies: a right-to-left override shows the end of a command first.
 */
const invisible = /[\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Makes text from a server or a model safe to print: escape sequences (colours, cursor moves,
 * line erasing, window titles, OSC 52 clipboard writes), control characters and invisible
 * format characters are removed, tab and newline kept. A carriage return goes too, so nothing
 * can overwrite a line already printed, such as an approval question. (An emoji sequence joined
 * by U+200D shows as its parts.)
 */
export function toTerminalText(text: string): string {
  return text.replace(escapeSequences, "").replace(controls, "").replace(invisible, "");
}

/**
 * What a word needs written as an escape to be printed as it is: the backslash (the escape
 * character itself), controls, format characters, surrogates, private-use and unassigned code
 * points (`\p{C}`), every separator but the plain space (`\p{Z}`: a no-break space looks like a
 * space and is not one), and the other default-ignorable code points (invisible by definition).
 */
const unprintable = /[\\\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * A word from a server or a model (a tool call id) as printable text that names it exactly:
 * `\` is written `\\`, and every character a terminal would act on or not show (see
 * above) as `\u{hex}`; a plain word (`call_1`) stays as it is. Unlike {@link toTerminalText},
 * nothing is dropped, so two ids never print the same, and the CLI takes this form back
 * (`--approve`, `--deny`): a printed command answers exactly the call it was printed for.
 *
 * @example toTerminalWord("call_\u001b]52;c;eA==\u0007") === "call_\\u{1b}]52;c;eA==\\u{7}"
 */
export function toTerminalWord(word: string): string {
  return word.replace(unprintable, (character) => {
    if (character === " ") return character;
    if (character === "\\") return "\\\\";
    return `\\u{${character.codePointAt(0)!.toString(16)}}`;
  });
}
