/** A message of a conversation being built for a vendor, as {@link appendAlternating} needs it. */
export interface AlternatingMessage<Block> {
  role: "user" | "assistant";
  content: Block[];
}

/**
 * Adds a message's blocks to a conversation for a vendor whose user and assistant turns must
 * alternate (Anthropic's Messages API, Bedrock's Converse): blocks for the role of the last
 * message join that message, and in a user message the tool results (`isToolResult`) go first, as
 * both APIs require; no blocks add nothing. Mutates `messages`, the list being built.
 *
 * @example
 * ```ts
 * const messages: AlternatingMessage<Block>[] = [];
 * appendAlternating(messages, { role: "user", blocks: [{ text: "hi" }] }, (block) => "toolResult" in block);
 * ```
 */
export function appendAlternating<Block>(
  messages: AlternatingMessage<Block>[],
  { role, blocks }: { role: "user" | "assistant"; blocks: Block[] },
  isToolResult: (block: Block) => boolean,
): void {
  if (blocks.length === 0) return;
  const last = messages.at(-1);
  if (last?.role !== role) {
    messages.push({ role, content: blocks });
    return;
  }
  const content = [...last.content, ...blocks];
  last.content =
    role === "user"
      ? [
          ...content.filter((block) => isToolResult(block)),
          ...content.filter((block) => !isToolResult(block)),
        ]
      : content;
}
