import { defineProviderContract } from "./define-provider-contract.ts";
import { bedrockVendor } from "./vendors/bedrock.ts";

defineProviderContract(bedrockVendor);
