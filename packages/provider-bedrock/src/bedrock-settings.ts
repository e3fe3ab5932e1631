import type { BedrockRuntimeClientConfig } from "@aws-sdk/client-bedrock-runtime";

/**
 * Settings for `bedrock()`. Everything left out comes from the AWS SDK's own configuration:
 * region and credentials from its default provider chain, retries from its defaults.
 */
export interface BedrockSettings {
  /**
   * The AWS region, for example `us-east-1`.
   * @default the AWS SDK's region chain: `AWS_REGION`, then the region of your AWS profile
   */
  region?: string;
  /**
   * AWS credentials: an identity (`{ accessKeyId, secretAccessKey, sessionToken? }`) or a function
   * returning one (for example `fromIni()` or `fromNodeProviderChain()` from
   * `@aws-sdk/credential-providers`).
   * @default the AWS SDK's default provider chain: environment variables, SSO and profiles
   * (`AWS_PROFILE`), web identity, container and instance roles
   */
  credentials?: BedrockRuntimeClientConfig["credentials"];
  /**
   * A Bedrock API key, sent as a bearer token instead of signing with AWS credentials.
   * @default `AWS_BEARER_TOKEN_BEDROCK`, read by the AWS SDK itself
   */
  apiKey?: string;
  /** The AWS profile to read credentials and region from (`~/.aws/config`), instead of `AWS_PROFILE`. */
  profile?: string;
  /**
   * The runtime endpoint, as the AWS SDK's `endpoint`: a VPC endpoint, a proxy or a local fake.
   * @default the regional endpoint, `https://bedrock-runtime.<region>.amazonaws.com`
   */
  baseURL?: string;
  /**
   * How often the SDK retries throttling, 5xx and connection errors (with backoff) before the
   * error is thrown. The SDK's `maxAttempts` is this plus one.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The SDK's HTTP handler, or options for its default Node HTTP/2 handler (for example
   * `{ requestTimeout: 60_000 }`).
   */
  requestHandler?: BedrockRuntimeClientConfig["requestHandler"];
  /**
   * `inferenceConfig.maxTokens` for requests that do not set `maxTokens`.
   * @default not sent: the model's own default
   */
  defaultMaxTokens?: number;
}

/** The provider's name: its key in `providerOptions` and `providerMetadata`. */
export const bedrockProviderName = "bedrock";
