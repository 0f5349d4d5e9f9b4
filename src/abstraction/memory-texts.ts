/** Every text of an abstracted memory, read or rewritten field by field (its body and examples included). Pure. */
import type { AbstractedMemory } from '../ports/index.js';

export function mapTexts(memory: AbstractedMemory, f: (text: string) => string): AbstractedMemory {
  const body = memory.body;
  let mapped: AbstractedMemory['body'];
  switch (body.level) {
    case 'insight':
      mapped = {
        level: 'insight',
        insight: {
          title: f(body.insight.title),
          description: f(body.insight.description),
          content: f(body.insight.content),
        },
      };
      break;
    case 'workflow':
      mapped = { level: 'workflow', workflow: { goal: f(body.workflow.goal), steps: body.workflow.steps.map(f) } };
      break;
    case 'summary':
      mapped = {
        level: 'summary',
        summary: {
          task_summary: f(body.summary.task_summary),
          experience_summary: f(body.summary.experience_summary),
        },
      };
      break;
    case 'trajectory':
      mapped = body;
      break;
  }
  return {
    ...memory,
    title: f(memory.title),
    description: f(memory.description),
    content: f(memory.content),
    body: mapped,
    // the examples the content closes with: rewritten as the content is
    examples: memory.examples.map(f),
  };
}

export function allTexts(memory: AbstractedMemory): string[] {
  const texts: string[] = [];
  mapTexts(memory, (t) => {
    texts.push(t);
    return t;
  });
  return texts;
}
