// Types of fixture-text.mjs, for the bench's TypeScript.
export function seededRandom(seed: number): () => number;
export function sentence(random: () => number): string;
export function paragraph(random: () => number, min?: number, max?: number): string;
export function notes(count?: number): { name: string; text: string }[];
