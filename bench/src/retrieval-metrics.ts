// Retrieval figures for tool search: recall@k and nDCG@k over a task's gold tools, where each gold
// tool is a unit of names any one of which counts (the same job on several servers).

/** A task as the metrics see it: its gold units, and the names a search returned, best first. */
export interface RankedAnswer {
  gold: readonly (readonly string[])[];
  ranked: readonly string[];
}

/**
 * Which gold units the first `k` names satisfy, each name satisfying at most one unit (the first
 * unsatisfied unit it belongs to), as the rank (1-based) at which each newly satisfied unit was found.
 */
function hits(answer: RankedAnswer, k: number): number[] {
  const satisfied = new Set<number>();
  const ranks: number[] = [];
  answer.ranked.slice(0, k).forEach((name, index) => {
    const unit = answer.gold.findIndex((names, at) => !satisfied.has(at) && names.includes(name));
    if (unit === -1) return;
    satisfied.add(unit);
    ranks.push(index + 1);
  });
  return ranks;
}

/** Recall@k: the share of the task's gold tools among the first `k` names (|gold ∩ top k| / |gold|). */
export function recallAt(answer: RankedAnswer, k: number): number {
  return answer.gold.length === 0 ? 0 : hits(answer, k).length / answer.gold.length;
}

/** nDCG@k with binary relevance: DCG of the first `k` names over the DCG of min(k, |gold|) hits on top. */
export function ndcgAt(answer: RankedAnswer, k: number): number {
  const dcg = hits(answer, k).reduce((sum, rank) => sum + 1 / Math.log2(rank + 1), 0);
  let ideal = 0;
  for (let rank = 1; rank <= Math.min(k, answer.gold.length); rank++) ideal += 1 / Math.log2(rank + 1);
  return ideal === 0 ? 0 : dcg / ideal;
}

/**
 * An answer at server level: each gold unit becomes the servers of its names (units naming the same
 * servers counted once), the ranking the servers of the ranked tools, each once, in order.
 * `serverOf` names a tool's server.
 */
export function atServerLevel(answer: RankedAnswer, serverOf: (tool: string) => string): RankedAnswer {
  const units = new Map<string, string[]>();
  for (const names of answer.gold) {
    const servers = [...new Set(names.map(serverOf))].sort();
    units.set(servers.join("\u0000"), servers);
  }
  return { gold: [...units.values()], ranked: [...new Set(answer.ranked.map(serverOf))] };
}

/**
 * Means over a set of answers: recall@1, recall@5, nDCG@5 over the tasks with several gold tools,
 * and nDCG@5 over every task.
 */
export function summarize(answers: readonly RankedAnswer[]): {
  tasks: number;
  recallAt1: number;
  recallAt5: number;
  /** Tasks with more than one gold tool. */
  multiTool: number;
  /** Over the multi-tool tasks; `undefined` when there are none. */
  ndcgAt5?: number;
  /** Over every task. */
  ndcgAt5All: number;
} {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / (values.length || 1);
  const multi = answers.filter((answer) => answer.gold.length > 1);
  return {
    tasks: answers.length,
    recallAt1: mean(answers.map((answer) => recallAt(answer, 1))),
    recallAt5: mean(answers.map((answer) => recallAt(answer, 5))),
    multiTool: multi.length,
    ndcgAt5All: mean(answers.map((answer) => ndcgAt(answer, 5))),
    ...(multi.length > 0 ? { ndcgAt5: mean(multi.map((answer) => ndcgAt(answer, 5))) } : {}),
  };
}
