/**
 * An offline stand-in for an embedding model, for the bench: the hashing trick over the text's
 * terms into a normalised 512-dimension vector. Real vectors cost the same to store and search.
 */
import { createHash } from 'node:crypto';
import { terms } from '../../src/core/text.js';
import type { Embedder } from '../../src/ports/index.js';

export function createHashEmbedder(dimensions = 512): Embedder {
  const slot = new Map<string, [number, number]>();
  const place = (term: string): [number, number] => {
    let known = slot.get(term);
    if (!known) {
      const digest = createHash('md5').update(term).digest();
      known = [digest.readUInt32LE(0) % dimensions, (digest[4] ?? 0) & 1 ? 1 : -1];
      slot.set(term, known);
    }
    return known;
  };
  const embedOne = (text: string) => {
    const vector = new Float32Array(dimensions);
    for (const term of terms(text)) {
      const [index, sign] = place(term);
      vector[index] = (vector[index] ?? 0) + sign;
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < dimensions; i++) vector[i] = (vector[i] ?? 0) / norm;
    return vector;
  };
  return { model: `bench-hash-${dimensions}`, dimensions, embed: async (texts) => texts.map(embedOne) };
}
