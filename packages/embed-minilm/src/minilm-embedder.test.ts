import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { isAbortError, type Warning } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINILM_MODEL_ID, type MiniLMEmbedder, miniLM } from "./index.js";
import {
  decodePackFile,
  decodeVectorFile,
  encodePackFile,
  encodeVectorFile,
  packKey,
  VectorCacheFolder,
  vectorKey,
} from "./vector-cache-file.js";

const run = promisify(execFile);
const fixtures = join(import.meta.dirname, "__fixtures__");

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index]!, 0);

let folder: string;
const made: MiniLMEmbedder[] = [];
/** An embedder whose warnings are collected; closed after the tests. */
function embedder(options: { cacheDirectory?: string | false; warnings?: Warning[] } = {}): MiniLMEmbedder {
  const embed = miniLM({
    cacheDirectory: options.cacheDirectory ?? folder,
    onWarning: (warning) => options.warnings?.push(warning),
  });
  made.push(embed);
  return embed;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "embed-minilm-"));
});
afterAll(async () => {
  await Promise.all(made.map((embed) => embed.close()));
  await rm(folder, { recursive: true, force: true });
});

describe("miniLM", () => {
  it("loads the model only at the first text not cached, and embeds 384-number unit vectors in which similar texts are closer", async () => {
    const embed = embedder({ cacheDirectory: false });
    expect(embed.stats.modelLoads).toBe(0);
    const [weather, rain, issue] = await embed([
      "Gets the current weather and the forecast for a city.",
      "will it rain in Oslo tomorrow",
      "Creates an issue in a GitHub repository.",
    ]);
    expect(embed.stats).toMatchObject({ modelLoads: 1, embedded: 3 });
    for (const vector of [weather!, rain!, issue!]) {
      expect(vector).toHaveLength(384);
      expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 4);
    }
    expect(cosine(weather!, rain!)).toBeGreaterThan(cosine(issue!, rain!));
    // Asked again: from memory, the model not run.
    const again = await embed(["will it rain in Oslo tomorrow"]);
    expect(again[0]).toEqual(rain);
    expect(embed.stats).toMatchObject({ embedded: 3, memoryHits: 1 });
  });

  it("keeps each vector in its own file (mode 0600) and finds it there in a new embedder; a changed text is embedded again", async () => {
    const first = embedder();
    const tools = [
      { name: "get_weather", description: "Gets the weather.", inputSchema: { type: "object" } },
      { name: "create_issue", description: "Creates an issue.", inputSchema: { type: "object" } },
    ];
    expect(await first.warmTools(tools)).toEqual({ texts: 2, embedded: 2 });
    const files = (await readdir(folder)).filter((file) => file.endsWith(".vec"));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) expect((await stat(join(folder, file))).mode & 0o777).toBe(0o600);
    expect((await readdir(folder)).some((file) => file.endsWith(".tmp"))).toBe(false);

    const second = embedder();
    expect(await second.warmTools(tools)).toEqual({ texts: 2, embedded: 0 });
    expect(second.stats).toMatchObject({ modelLoads: 0, diskHits: 2 });
    const changed = [{ ...tools[0]!, description: "Gets the weather and the forecast." }, tools[1]!];
    expect(await second.warmTools(changed)).toEqual({ texts: 2, embedded: 1 });
  });

  it("survives a restart: a second process's first tool search takes every vector from the cache and never loads the model", async () => {
    const cache = await mkdtemp(join(tmpdir(), "embed-minilm-restart-"));
    try {
      const child = async () => {
        const { stdout } = await run(
          process.execPath,
          ["--import", join(fixtures, "resolve-typescript.ts"), join(fixtures, "search-child.ts"), cache],
          { cwd: fixtures },
        );
        return JSON.parse(stdout) as {
          stats: { embedded: number; diskHits: number; modelLoads: number };
          found: { results: { name: string }[]; nothingFits: boolean }[];
          query: number[];
        };
      };
      const first = await child();
      // Three tools and the query embedded by the model.
      expect(first.stats).toMatchObject({ embedded: 4, modelLoads: 1 });
      // No word of the request is in any tool: the meaning puts the weather tool first, while
      // "nothing fits" is still judged on words (no minSimilarity set).
      expect(first.found[0]?.results[0]?.name).toBe("get_weather");
      expect(first.found[0]?.nothingFits).toBe(true);
      const second = await child();
      expect(second.stats).toMatchObject({ embedded: 0, modelLoads: 0, diskHits: 4 });
      expect(second.found).toEqual(first.found);
      expect(second.query).toEqual(first.query);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("rejects an aborted embedding with the project's abort error, and leaves only whole, valid cache files", async () => {
    const cache = await mkdtemp(join(tmpdir(), "embed-minilm-abort-"));
    try {
      const embed = embedder({ cacheDirectory: cache });
      const texts = Array.from({ length: 20 }, (_, index) => `text number ${index} about the weather`);
      const controller = new AbortController();
      const embedding = embed(texts, { signal: controller.signal });
      controller.abort(new Error("the user stopped"));
      const error = await embedding.catch((caught: unknown) => caught);
      expect(isAbortError(error)).toBe(true);
      expect((error as { code: string }).code).toBe("aborted");
      // Before it was aborted no text had reached the model: none was embedded.
      expect(embed.stats.embedded).toBe(0);
      await expect(embed(["x"], { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "aborted" });

      // Aborted mid-way: once one vector is out, the rest never run.
      const midway = new AbortController();
      await embed.load();
      const halfway = embed(texts, { signal: midway.signal });
      while (embed.stats.embedded === 0) await new Promise((resolve) => setImmediate(resolve));
      midway.abort();
      await expect(halfway).rejects.toMatchObject({ code: "aborted" });
      await embed.close(); // stops the worker: a text still in the model is dropped, never half-written
      expect(embed.stats.embedded).toBeLessThan(texts.length);
      const files = await readdir(cache);
      expect(files.some((file) => file.endsWith(".tmp"))).toBe(false);
      const keys = new Map(texts.map((text) => [vectorKey(MINILM_MODEL_ID, text).toString("hex"), text]));
      for (const file of files) {
        const key = Buffer.from(file.replace(/\.vec$/, ""), "hex");
        expect(keys.has(key.toString("hex"))).toBe(true);
        expect(decodeVectorFile(await readFile(join(cache, file)), { key, dimensions: 384 })).toHaveProperty(
          "vector",
        );
      }
      // The embedder goes on: the same texts, the cached ones read back, the rest embedded.
      const vectors = await embed(texts);
      expect(vectors).toHaveLength(20);
      expect(embed.stats.embedded).toBe(20);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("does not trust a corrupt cache file: warns, embeds the text again and rewrites the file", async () => {
    const cache = await mkdtemp(join(tmpdir(), "embed-minilm-corrupt-"));
    try {
      const text = "Sends an email message to a recipient.";
      const [original] = await embedder({ cacheDirectory: cache })([text]);
      const key = vectorKey(MINILM_MODEL_ID, text);
      const file = new VectorCacheFolder(cache, 384).fileOf(key);
      const good = await readFile(file);
      const flipped = Buffer.from(good);
      flipped[100] = flipped[100]! ^ 0xff;
      const corruptions: [Buffer, RegExp][] = [
        [good.subarray(0, 500), /has 500 bytes, not 1608/],
        [flipped, /checksum does not match/],
        [
          encodeVectorFile(
            key,
            original!.map(() => Number.NaN),
          ),
          /NaN, not a finite number/,
        ],
        [
          encodeVectorFile(
            key,
            original!.map((value) => value * 3),
          ),
          /length is 3\.0000, not 1/,
        ],
        [encodeVectorFile(vectorKey(MINILM_MODEL_ID, "another text"), original!), /another text or model/],
        [Buffer.from(JSON.stringify(original)), /bytes, not 1608/],
      ];
      for (const [bytes, problem] of corruptions) {
        await writeFile(file, bytes);
        const warnings: Warning[] = [];
        const embed = embedder({ cacheDirectory: cache, warnings });
        const [vector] = await embed([text]);
        expect(vector).toEqual(original);
        expect(embed.stats).toMatchObject({ rejectedFiles: 1, embedded: 1, diskHits: 0 });
        expect(warnings).toHaveLength(1);
        expect(warnings[0]!.code).toBe("embed-minilm-cache-file-rejected");
        expect(warnings[0]!.message).toMatch(problem);
        expect(warnings[0]!.message).toContain(file);
        expect(await readFile(file)).toEqual(good);
      }
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("reads a large catalog's cached vectors a slice at a time, letting the event loop run between slices", async () => {
    const cache = await mkdtemp(join(tmpdir(), "embed-minilm-slices-"));
    try {
      const texts = Array.from({ length: 200 }, (_, index) => `Tool number ${index} does one thing.`);
      // Unit vectors written as the cache keeps them: every text is a disk hit, the model never loads.
      const vectors = texts.map((_, index) => Array.from({ length: 384 }, (_, at) => (at === index ? 1 : 0)));
      const folderOfCache = new VectorCacheFolder(cache, 384);
      await Promise.all(
        texts.map((text, index) => folderOfCache.write(vectorKey(MINILM_MODEL_ID, text), vectors[index]!)),
      );
      const embed = embedder({ cacheDirectory: cache });
      let turns = 0;
      let counting = true;
      const count = () => {
        turns++;
        if (counting) setImmediate(count);
      };
      setImmediate(count);
      const found = await embed(texts);
      counting = false;
      expect(found).toEqual(vectors);
      expect(embed.stats).toMatchObject({ diskHits: 200, embedded: 0, modelLoads: 0 });
      // 200 files in slices of 64: the loop turned between the slices (a read of all at once: 0 or 1).
      expect(turns).toBeGreaterThanOrEqual(3);

      const aborting = new AbortController();
      const again = embedder({ cacheDirectory: cache });
      // Another list than the one above (whose pack would be read at once): read file by file.
      const aborted = again([...texts].reverse(), { signal: aborting.signal });
      setImmediate(() => aborting.abort());
      await expect(aborted).rejects.toSatisfy(isAbortError);
      expect(again.stats.diskHits).toBeLessThan(200);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("keeps a large call's vectors as one pack too: a new embedder reads the model's vectors from it, bit for bit, with every text's own file gone", async () => {
    const cache = await mkdtemp(join(tmpdir(), "embed-minilm-pack-"));
    try {
      const texts = Array.from({ length: 64 }, (_, index) => `tool_${index}: does thing number ${index}`);
      const first = embedder({ cacheDirectory: cache });
      const embedded = await first(texts);
      expect(first.stats).toMatchObject({ embedded: 64, modelLoads: 1 });
      const packs = (await readdir(cache)).filter((file) => file.endsWith(".pack"));
      expect(packs).toEqual([
        `${packKey(texts.map((text) => vectorKey(MINILM_MODEL_ID, text))).toString("hex")}.pack`,
      ]);
      expect((await stat(join(cache, packs[0]!))).mode & 0o777).toBe(0o600);
      for (const file of await readdir(cache)) if (file.endsWith(".vec")) await rm(join(cache, file));

      const second = embedder({ cacheDirectory: cache });
      const read = await second(texts);
      expect(second.stats).toMatchObject({ diskHits: 64, embedded: 0, modelLoads: 0, rejectedFiles: 0 });
      const bits = (vectors: number[][]) =>
        Buffer.from(Float32Array.from(vectors.flat()).buffer).toString("hex");
      expect(bits(read)).toBe(bits(embedded));
      // Another list of the same texts is another pack: its texts' own files are read (gone: embedded again).
      const third = embedder({ cacheDirectory: cache });
      await third(texts.slice(1));
      expect(third.stats).toMatchObject({ diskHits: 0, embedded: 63 });
      await expect(
        embedder({ cacheDirectory: cache })(texts, { signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({
        code: "aborted",
      });
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("does not trust a corrupt or foreign pack: warns, reads each text's own file, and rewrites the pack", async () => {
    const cache = await mkdtemp(join(tmpdir(), "embed-minilm-pack-corrupt-"));
    try {
      const texts = Array.from({ length: 70 }, (_, index) => `Tool number ${index} does one thing.`);
      const vectors = texts.map((_, index) => Array.from({ length: 384 }, (_, at) => (at === index ? 1 : 0)));
      const keys = texts.map((text) => vectorKey(MINILM_MODEL_ID, text));
      const folderOfCache = new VectorCacheFolder(cache, 384);
      await Promise.all(keys.map((key, index) => folderOfCache.write(key, vectors[index]!)));
      expect(await embedder({ cacheDirectory: cache })(texts)).toEqual(vectors);
      const packFile = folderOfCache.packFileOf(keys);
      const good = await readFile(packFile);
      expect(decodePackFile(good, { keys, dimensions: 384 })).toEqual({ vectors });

      const flipped = Buffer.from(good);
      flipped[good.length - 100]! ^= 0xff;
      const foreign = encodePackFile(
        keys.slice(0, 69).concat(vectorKey("another model", texts[69]!)),
        vectors,
      );
      const corruptions: [Buffer, RegExp][] = [
        [good.subarray(0, 1000), /has 1000 bytes, not/],
        [flipped, /checksum does not match/],
        [foreign, /written for other texts or another model/],
      ];
      for (const [bytes, problem] of corruptions) {
        await writeFile(packFile, bytes);
        const warnings: Warning[] = [];
        const embed = embedder({ cacheDirectory: cache, warnings });
        expect(await embed(texts)).toEqual(vectors);
        expect(embed.stats).toMatchObject({ diskHits: 70, rejectedFiles: 1, embedded: 0, modelLoads: 0 });
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatchObject({ code: "embed-minilm-cache-file-rejected" });
        expect(warnings[0]!.message).toContain(packFile);
        expect(warnings[0]!.message).toMatch(problem);
        expect(await readFile(packFile)).toEqual(good);
      }
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("warns once and keeps vectors in memory when the cache folder cannot be written", async () => {
    const blocker = join(folder, "not-a-folder");
    await writeFile(blocker, "a file where the folder would go");
    const warnings: Warning[] = [];
    const embed = embedder({ cacheDirectory: join(blocker, "cache"), warnings });
    const vectors = await embed(["one text", "another text"]);
    expect(vectors).toHaveLength(2);
    expect(warnings.map((warning) => warning.code)).toEqual(["embed-minilm-cache-write-failed"]);
  });

  // Three processes start and the model is loaded twice (by the first warm, then here): about 2 s
  // on an idle machine, over vitest's 5 s default on a busy one. The bound is for a hang, not a speed.
  it("junction-embed-minilm warm fills the cache with a config's tools as the Agent names them", {
    timeout: 60_000,
  }, async () => {
    const cache = await mkdtemp(join(tmpdir(), "embed-minilm-cli-"));
    try {
      const config = join(cache, "mcp.json");
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: { weather: { command: process.execPath, args: [join(fixtures, "tools-server.mjs")] } },
        }),
      );
      const warm = () =>
        run(process.execPath, [
          "--import",
          join(fixtures, "resolve-typescript.ts"),
          join(import.meta.dirname, "cli.ts"),
          "warm",
          config,
          `--cache-dir=${join(cache, "vectors")}`,
        ]);
      expect((await warm()).stdout).toMatch(
        /^weather: 2 tools, 2 embedded in [\d.]+ s\n2 tools, 2 embedded; cache: /,
      );
      expect((await warm()).stdout).toMatch(/^weather: 2 tools, 0 embedded/);
      // What an Agent with { mcp, prefix: "weather" } embeds is there: nothing to embed.
      const { MCP } = await import("@junction/mcp-client");
      const mcp = new MCP({
        name: "weather",
        transport: "stdio",
        command: process.execPath,
        args: [join(fixtures, "tools-server.mjs")],
      });
      await mcp.connect();
      try {
        const embed = embedder({ cacheDirectory: join(cache, "vectors") });
        // The server's description ends each tool's text, as in the Agent's search.
        expect(mcp.description).toBe("Weather forecasts and alerts.");
        const tools = await mcp.listTools({ prefix: "weather" });
        expect(
          await embed.warmTools(tools, { source: { name: "weather", description: mcp.description } }),
        ).toEqual({ texts: 2, embedded: 0 });
        expect(embed.stats.modelLoads).toBe(0);
        // Without it the texts differ: two more to embed.
        expect(await embed.warmTools(tools)).toEqual({ texts: 2, embedded: 2 });
      } finally {
        await mcp.close();
      }
      await expect(
        run(process.execPath, [
          "--import",
          join(fixtures, "resolve-typescript.ts"),
          join(import.meta.dirname, "cli.ts"),
        ]),
      ).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining("usage: junction-embed-minilm warm"),
      });
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("load() warms the engine up without changing a vector: a cold engine's numbers, bit for bit, and no text counted", async () => {
    const texts = [
      "find the open pull requests of repository number 3",
      "Gets the current weather and the forecast for a city.",
      "list the kubernetes pods of namespace number 7 that keep restarting",
    ];
    // Run right after the weights are read: by V8's baseline code, before it is optimized.
    const cold = await embedder({ cacheDirectory: false })(texts);
    const warm = embedder({ cacheDirectory: false });
    await warm.load();
    expect(warm.stats).toMatchObject({ modelLoads: 1, embedded: 0 });
    const warmed = await warm(texts);
    expect(warm.stats).toMatchObject({ modelLoads: 1, embedded: 3 });
    expect(warmed).toEqual(cold);
    const bits = (vectors: number[][]) =>
      Buffer.from(Float32Array.from(vectors.flat()).buffer).toString("hex");
    expect(bits(warmed)).toBe(bits(cold));
  });

  it("runs a text sent while load() warms up between two passes, instead of after the warm-up", async () => {
    const embed = embedder({ cacheDirectory: false });
    const settled: string[] = [];
    const loading = embed.load().then(() => settled.push("load"));
    const embedding = embed(["will it rain in Oslo tomorrow"]).then(() => settled.push("text"));
    await Promise.all([loading, embedding]);
    expect(settled).toEqual(["text", "load"]);
    expect(embed.stats).toMatchObject({ modelLoads: 1, embedded: 1 });
  });

  it("keeps the process alive while load() warms up: a top-level `await embed.load()` ends with the model loaded", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", join(fixtures, "resolve-typescript.ts"), join(fixtures, "load-child.ts")],
      { cwd: fixtures },
    );
    expect(JSON.parse(stdout)).toMatchObject({ modelLoads: 1, embedded: 0 });
  });

  it("bounds its worker threads by the machine's parallelism", () => {
    expect(() => miniLM({ workers: 0 })).toThrow(/workers must be a whole number from 1 to/);
    expect(() => miniLM({ workers: 1.5 })).toThrow(/workers must be a whole number/);
    expect(() => miniLM({ workers: 10_000 })).toThrow(/machine's parallelism/);
  });
});
