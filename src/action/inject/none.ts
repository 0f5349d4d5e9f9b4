/** none: outputs only. */
import type { InjectionTarget } from './target.js';

export const noneTarget: InjectionTarget = {
  name: 'none',
  maxChars: 8_000,
  async inject() {
    return { files: [] };
  },
};
