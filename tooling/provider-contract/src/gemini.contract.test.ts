import { defineProviderContract } from "./define-provider-contract.ts";
import { geminiVendor } from "./vendors/gemini.ts";

defineProviderContract(geminiVendor);
