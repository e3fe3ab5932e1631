/**
 * What the Bedrock provider keeps in `providerMetadata.bedrock` of a `reasoning` part, so the
 * reasoning goes back to Bedrock unchanged on the next turn (models with extended thinking
 * reject a conversation whose signed reasoning was altered or dropped).
 */
export interface BedrockReasoningMetadata {
  /** The signature of a `reasoningText` block: the part's text is the reasoning. */
  signature?: string;
  /** A `redactedContent` block's encrypted bytes, base64 (the part's text is empty). */
  redactedContent?: string;
}
