import { it } from "vitest";
import type { ContractCase, VendorAdapter } from "./vendor-adapter.ts";

/**
 * Registers one contract case (`id`, or `{ id, variant }`) for a vendor: `it`, or `it.fails` naming the gap when the adapter lists
 * the case (or `case@variant`, for a case run once per model or usage shape) in `knownGaps`, so the
 * suite stays green and turns red the day the gap is closed.
 */
export function contractCase(vendor: VendorAdapter) {
  return (
    which: ContractCase | { id: ContractCase; variant: string },
    title: string,
    test: () => Promise<void>,
  ) => {
    const { id, variant } = typeof which === "string" ? { id: which, variant: undefined } : which;
    const gap =
      (variant !== undefined ? vendor.knownGaps?.[`${id}@${variant}`] : undefined) ?? vendor.knownGaps?.[id];
    if (gap === undefined) it(title, test);
    else it.fails(`${title} [known gap: ${gap}]`, test);
  };
}
