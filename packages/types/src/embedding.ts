/** What one {@link Embedder} call is given besides its texts. */
export interface EmbedOptions {
  /** Aborts the call (the run's abort). */
  signal?: AbortSignal;
}

/**
 * Turns texts into vectors: one per text, in the same order, all of one length. The port a
 * tool search's dense ranking uses (`toolSearch: { embed }` on an Agent); each provider package
 * fills it from its vendor's embeddings API (`embedder()` of `@junction/provider-openai`,
 * `-gemini`, `-bedrock`, `-chatcompletions`), and any function of this shape will do.
 */
export type Embedder = (texts: string[], options?: EmbedOptions) => Promise<number[][]>;
