import { defineProviderContract } from "./define-provider-contract.ts";
import { chatCompletionsVendor } from "./vendors/chatcompletions.ts";

defineProviderContract(chatCompletionsVendor);
