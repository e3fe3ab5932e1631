import { defineProviderContract } from "./define-provider-contract.ts";
import { openAIVendor } from "./vendors/openai.ts";

defineProviderContract(openAIVendor);
