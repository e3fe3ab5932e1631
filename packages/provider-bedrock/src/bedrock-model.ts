import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { toAbortError } from "@junction/provider-utils";
import { type ModelRequest, type ModelStreamEvent, ProviderError } from "@junction/types";
import type { BedrockSettings } from "./bedrock-settings.js";
import { BedrockStreamState } from "./bedrock-stream-state.js";
import { buildBedrockRequest } from "./build-bedrock-request.js";
import type { BedrockSDK } from "./load-bedrock-sdk.js";
import { mapBedrockError } from "./map-bedrock-error.js";

/**
 * Streams one model turn through the SDK's `ConverseStreamCommand`. Warnings from converting the
 * request come first, then the turn's events, then `finish`. Failures are thrown as
 * `ProviderError`; an aborted signal cancels the HTTP/2 stream and throws the shared abort error.
 * The only place of this package that does I/O.
 */
export async function* streamBedrock(
  { client, sdk }: { client: BedrockRuntimeClient; sdk: BedrockSDK },
  request: ModelRequest,
  settings: Pick<BedrockSettings, "defaultMaxTokens" | "baseURL">,
): AsyncGenerator<ModelStreamEvent> {
  const signal = request.signal;
  if (signal?.aborted) throw toAbortError(signal, undefined, "Bedrock");

  const { body, warnings, toolNames } = buildBedrockRequest(request, settings);
  for (const warning of warnings) yield { type: "warning", warning };

  // The SDK throws a plain error for a missing region, deep inside the request: checked here first.
  let region: string;
  try {
    region = await client.config.region();
  } catch (error) {
    throw new ProviderError({
      code: "provider-config-invalid",
      provider: "bedrock",
      message:
        "Bedrock needs an AWS region: pass region to bedrock(), or set AWS_REGION (or a region in your AWS profile).",
      cause: error,
    });
  }

  const state = new BedrockStreamState({ toolNames });
  let inStream = false;
  let requestId: string | undefined;
  try {
    const output = await client.send(
      new sdk.ConverseStreamCommand(body),
      signal ? { abortSignal: signal } : {},
    );
    inStream = true;
    requestId = output.$metadata.requestId;
    if (!output.stream) {
      throw new ProviderError({
        code: "provider-response-invalid",
        provider: "bedrock",
        message: "Bedrock answered ConverseStream without an event stream.",
        requestId,
      });
    }
    for await (const event of output.stream) {
      if (signal?.aborted) break;
      yield* state.push(event);
    }
  } catch (error) {
    const endpoint = settings.baseURL ?? `https://bedrock-runtime.${region}.amazonaws.com`;
    throw mapBedrockError(error, { signal, sdk, inStream, requestId, endpoint });
  }
  if (signal?.aborted) throw toAbortError(signal, undefined, "Bedrock");
  yield* state.finish();
}
