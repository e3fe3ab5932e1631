/**
 * Reads a stream to its end, or to the error it throws: the events seen before the error are
 * kept beside it, so a test can assert on both.
 */
export async function collectStream<T>(
  stream: AsyncIterable<T>,
): Promise<{ events: T[]; error: Error | undefined }> {
  const events: T[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error: error as Error };
  }
  return { events, error: undefined };
}
