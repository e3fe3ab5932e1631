import { defineProviderContract } from "./define-provider-contract.ts";
import { anthropicVendor } from "./vendors/anthropic.ts";

defineProviderContract(anthropicVendor);
