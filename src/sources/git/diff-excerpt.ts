/**
 * Builds a capped excerpt of a commit's patch while the patch streams past, one line at a time:
 * a per-file and a total cap, long lines cut, lockfile and binary sections left out. Also notes
 * whether the patch adds or removes Rust test code (part of the `testsChanged` rule).
 */
import { isRustTestMarkerLine, isTestPath } from '../../core/test-paths.js';
import { isLockfile } from './detect.js';

export interface ExcerptLimits {
  /** characters kept for the whole commit */
  total: number;
  /** characters kept per file */
  perFile: number;
  /** longer lines are cut */
  line: number;
}

export const DEFAULT_EXCERPT_LIMITS: ExcerptLimits = { total: 4000, perFile: 1500, line: 200 };

export interface Excerpt {
  text: string;
  /** the patch adds (`added`) or only removes (`removed`) Rust test code in a source file */
  rustTests?: 'added' | 'removed';
}

export class ExcerptBuilder {
  private readonly parts: string[] = [];
  private size = 0;
  private fileSize = 0;
  private fileCut = false;
  private skipFile = false;
  private rustSource = false;
  private totalCut = false;
  private rustAdded = false;
  private rustRemoved = false;

  constructor(private readonly limits: ExcerptLimits = DEFAULT_EXCERPT_LIMITS) {}

  /** Feeds one line of `git log -p` output (after the commit header). */
  line(text: string): void {
    const header = /^diff --git a\/(.*) b\/(.*)$/.exec(text);
    if (header) return this.startFile(header[2] ?? header[1] ?? '');
    if (this.skipFile) return;
    if (this.rustSource && isRustTestMarkerLine(text)) {
      if (text.startsWith('+')) this.rustAdded = true;
      else this.rustRemoved = true;
    }
    if (/^(index |--- |\+\+\+ |new file mode|deleted file mode|old mode|new mode|similarity index)/.test(text)) return;
    if (text.startsWith('Binary files ')) return this.keep('(binary file)');
    if (!/^[-+ @\\]/.test(text)) return;
    this.keep(text.length > this.limits.line ? `${text.slice(0, this.limits.line)}…` : text);
  }

  finish(): Excerpt {
    const excerpt: Excerpt = { text: this.parts.join('\n') };
    if (this.rustAdded) excerpt.rustTests = 'added';
    else if (this.rustRemoved) excerpt.rustTests = 'removed';
    return excerpt;
  }

  private startFile(path: string): void {
    this.fileSize = 0;
    this.fileCut = false;
    this.skipFile = isLockfile(path);
    this.rustSource = path.endsWith('.rs') && !isTestPath(path);
    if (!this.skipFile) this.keep(`diff ${path}`);
  }

  private keep(text: string): void {
    if (this.totalCut) return;
    const cost = text.length + 1;
    if (this.size + cost > this.limits.total) {
      this.totalCut = true;
      this.parts.push('[… diff cut]');
      return;
    }
    if (this.fileSize + cost > this.limits.perFile) {
      if (!this.fileCut) {
        this.fileCut = true;
        this.parts.push('[… file cut]');
        this.size += 13;
      }
      return;
    }
    this.parts.push(text);
    this.size += cost;
    this.fileSize += cost;
  }
}
