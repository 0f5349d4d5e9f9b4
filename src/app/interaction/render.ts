/**
 * The RenderContext for the App's Markdown: user and memory text escaped by the security layer's
 * escapeMarkdown (no HTML, images, links, mentions or cross-references), links only to the App's
 * GitHub host.
 */
import type { RenderContext } from '../../core/rendering/comment-render.js';
import type { Requester } from '../../core/types.js';
import { escapeMarkdown, markdownLink } from '../../security/markdown.js';
import type { InteractionContext } from './context.js';

export function renderContext(ctx: InteractionContext, requester: Requester): RenderContext {
  const { githubUrl } = ctx.deps.settings;
  return {
    escape: escapeMarkdown,
    link: (text, url) => markdownLink(text, url, githubUrl),
    githubUrl,
    requester,
  };
}
